package handlers_test

import (
	"bytes"
	"context"
	"github.com/sellerdesk/sellerdesk/views/paths"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/static"
)

// setCookie puts a raw session cookie into a fresh browser.
func withCookie(t *testing.T, app *testapp.App, value string) *testapp.Browser {
	b := app.Browser(t)
	u, _ := url.Parse(app.URL)
	b.Client.Jar.SetCookies(u, []*http.Cookie{{Name: "sd_session", Value: value}})
	return b
}

// foreignCookie is a valid session cookie sealed and signed under another key.
func foreignCookie(t *testing.T) string {
	t.Helper()
	sdb, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	backend, err := sessions.NewBackend(context.Background(), sdb)
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	st, err := sessions.NewStore(backend, sessions.Options{Keys: [][]byte{bytes.Repeat([]byte{9}, sessions.KeySize)}})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	s, _ := st.Load(req)
	s.Data().ClientID, s.Data().ClientSecret, s.Data().SellerID = "demo-1001", "x", 1001
	rec := httptest.NewRecorder()
	if err := s.Save(req, rec); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == "sd_session" {
			return c.Value
		}
	}
	t.Fatal("no cookie")
	return ""
}

// TestBadCookies: a missing, tampered, truncated, garbage or foreign-key
// cookie is a logged-out visitor: no 500, no upstream call, and a log line
// that does not contain the cookie.
func TestBadCookies(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	good := app.Browser(t)
	good.LoginDemo()
	u, _ := url.Parse(app.URL)
	valid := cookieValue(good, u)
	flip := []byte(valid)
	i := len(flip) / 2
	if flip[i] == 'A' {
		flip[i] = 'B'
	} else {
		flip[i] = 'A'
	}
	cases := map[string]string{
		"one byte flipped": string(flip),
		"truncated":        valid[:len(valid)/2],
		"base64 garbage":   "Z2FyYmFnZS1nYXJiYWdlLWdhcmJhZ2UtZ2FyYmFnZQ==",
		"another key":      foreignCookie(t),
	}
	// No cookie at all.
	before := totalRequests(app.Sandbox.Counters())
	if p := app.Browser(t).Get("/orders"); p.Status != http.StatusSeeOther || p.Location != "/login" {
		t.Fatalf("no cookie: %d to %q", p.Status, p.Location)
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			p := withCookie(t, app, v).Get("/orders")
			if p.Status != http.StatusSeeOther || p.Location != "/login" {
				t.Fatalf("status %d to %q, want 303 to /login", p.Status, p.Location)
			}
			if strings.Contains(app.Logs.String(), v) {
				t.Error("the cookie value was logged")
			}
		})
	}
	if n := totalRequests(app.Sandbox.Counters()) - before; n != 0 {
		t.Errorf("bad cookies caused %d upstream calls", n)
	}
	if n := strings.Count(app.Logs.String(), "cookie rejected"); n < len(cases) {
		t.Errorf("%d 'cookie rejected' log lines, want %d", n, len(cases))
	}
	if strings.Contains(app.Logs.String(), valid) {
		t.Error("a valid cookie value was logged")
	}
}

// TestSessionFixation: the anonymous session id from before login maps to
// nothing after it.
func TestSessionFixation(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Get("/orders") // anonymous session holding a return target
	u, _ := url.Parse(app.URL)
	anon := cookieValue(b, u)
	if anon == "" {
		t.Fatal("no anonymous session")
	}
	b.LoginDemo()
	if cookieValue(b, u) == anon {
		t.Fatal("id not renewed at login")
	}
	if p := withCookie(t, app, anon).Get("/"); p.Status != http.StatusSeeOther || p.Location != "/login" {
		t.Fatalf("pre-login cookie after login: %d to %q", p.Status, p.Location)
	}
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// TestSessionTimeoutsAtDashboard: idle and absolute timeouts are enforced by
// the server, whatever the browser keeps.
func TestSessionTimeoutsAtDashboard(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Now()}
	app := testapp.New(t, testapp.Options{SessionNow: clock.Now, IdleTimeout: 30 * time.Minute, AbsoluteTimeout: 2 * time.Hour})
	loggedIn := func(b *testapp.Browser) bool { return b.Get("/return-boxes").Status == http.StatusOK }

	t.Run("idle", func(t *testing.T) {
		b := app.Browser(t)
		b.LoginDemo()
		clock.Advance(20 * time.Minute)
		if !loggedIn(b) {
			t.Fatal("logged out after 20 min idle, timeout is 30")
		}
		clock.Advance(31 * time.Minute)
		if loggedIn(b) {
			t.Fatal("still logged in after 31 min idle")
		}
	})
	t.Run("absolute", func(t *testing.T) {
		b := app.Browser(t)
		b.LoginDemo()
		for range 5 { // active every 20 min: 100 min
			clock.Advance(20 * time.Minute)
			if !loggedIn(b) {
				t.Fatal("logged out while active before the absolute timeout")
			}
		}
		clock.Advance(21 * time.Minute) // 121 min after login
		if loggedIn(b) {
			t.Fatal("still logged in past the absolute timeout")
		}
	})
}

// TestCookieAttributes: HttpOnly, SameSite=Lax, Path=/, no Domain, and
// Secure behind TLS.
func TestCookieAttributes(t *testing.T) {
	t.Parallel()
	for _, tls := range []bool{true, false} {
		app := testapp.New(t, testapp.Options{TLS: tls})
		b := app.Browser(t)
		p := b.Post("/login", url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"test"}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("tls=%t: login %d", tls, p.Status)
		}
		var c *http.Cookie
		for _, line := range p.Header.Values("Set-Cookie") {
			if k, err := http.ParseSetCookie(line); err == nil && k.Name == "sd_session" {
				c = k
			}
		}
		if c == nil {
			t.Fatalf("tls=%t: no session cookie", tls)
		}
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Domain != "" || c.Secure != tls {
			t.Errorf("tls=%t: cookie HttpOnly=%t SameSite=%v Path=%q Domain=%q Secure=%t", tls, c.HttpOnly, c.SameSite, c.Path, c.Domain, c.Secure)
		}
		if tls && b.Get("/").Status != http.StatusOK {
			t.Error("logged-in page over TLS failed")
		}
	}
}

// TestKeyRotationAtDashboard: [old] signs; [new, old] still opens old
// cookies and re-issues them under new; [new] alone rejects old cookies.
func TestKeyRotationAtDashboard(t *testing.T) {
	t.Parallel()
	sdb, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	backend, err := sessions.NewBackend(context.Background(), sdb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { backend.Close() })
	oldKey, newKey := bytes.Repeat([]byte{1}, sessions.KeySize), bytes.Repeat([]byte{2}, sessions.KeySize)
	app1 := testapp.New(t, testapp.Options{Backend: backend, SessionKeys: [][]byte{oldKey}})
	b := app1.Browser(t)
	b.LoginDemo()
	u1, _ := url.Parse(app1.URL)
	oldCookie := cookieValue(b, u1)

	app2 := testapp.New(t, testapp.Options{Backend: backend, Market: app1.Market, SessionKeys: [][]byte{newKey, oldKey}})
	b2 := withCookie(t, app2, oldCookie)
	b2.Account = b.Account
	if p := b2.Get("/"); p.Status != http.StatusOK {
		t.Fatalf("[new, old] rejected an old cookie: %d", p.Status)
	}
	u2, _ := url.Parse(app2.URL)
	reissued := cookieValue(b2, u2)
	if reissued == oldCookie {
		t.Fatal("old cookie not re-issued under the new key")
	}

	app3 := testapp.New(t, testapp.Options{Backend: backend, Market: app1.Market, SessionKeys: [][]byte{newKey}})
	if p := withCookie(t, app3, oldCookie).Get("/"); p.Status != http.StatusSeeOther {
		t.Fatalf("[new] accepted a cookie of the removed key: %d", p.Status)
	}
	if p := withCookie(t, app3, reissued).Get(b.InAccount("/")); p.Status != http.StatusOK {
		t.Fatalf("[new] rejected the re-issued cookie: %d", p.Status)
	}
}

func loginForm(id, secret string) url.Values {
	return url.Values{"client_id": {id}, "client_secret": {secret}, "seller_id": {"1001"}, "environment": {"test"}}
}

// TestLoginThrottlePerClient: wrong secrets slow down, then lock out for a
// while (even the right secret), with a 429 and a time beside the form and
// no upstream call; the lock ends, and a success resets the count.
func TestLoginThrottlePerClient(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{LoginLimits: loginguard.Limits{Free: 2, Max: 4, BaseDelay: 10 * time.Second, Lockout: 10 * time.Minute}})
	b := app.Browser(t)
	tokens := func() int { return app.Sandbox.Counters().Requests[sandbox.RouteB2BToken] }
	for i := 1; i <= 3; i++ {
		p := b.Post("/login", loginForm("demo-1001", "wrong"))
		if p.Status != http.StatusUnprocessableEntity {
			t.Fatalf("attempt %d: %d", i, p.Status)
		}
		if i == 3 && !strings.Contains(p.Text("#login-error"), "next one is possible at") {
			t.Errorf("third failure does not say when to retry: %q", p.Text("#login-error"))
		}
	}
	before := tokens()
	p := b.Post("/login", loginForm("demo-1001", "wrong"))
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text("#login-error"), "Try again at") || p.Header.Get("Retry-After") == "" {
		t.Fatalf("4th attempt within the wait: %d %q", p.Status, p.Text("#login-error"))
	}
	if tokens() != before {
		t.Error("a throttled attempt reached the marketplace")
	}
	app.Sandbox.Advance(11 * time.Second)
	if p := b.Post("/login", loginForm("demo-1001", "wrong")); p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("after the wait: %d", p.Status)
	}
	// Four failures: locked out for 10 minutes, right secret included.
	app.Sandbox.Advance(5 * time.Minute)
	if p := b.Post("/login", loginForm("demo-1001", "sandbox-secret-1001")); p.Status != http.StatusTooManyRequests {
		t.Fatalf("during the lockout: %d", p.Status)
	}
	app.Sandbox.Advance(6 * time.Minute)
	if p := b.Post("/login", loginForm("demo-1001", "sandbox-secret-1001")); p.Status != http.StatusSeeOther {
		t.Fatalf("after the lockout: %d %q", p.Status, p.Text("#login-error"))
	}
	// The success reset the count: three fresh failures before any wait.
	b2 := app.Browser(t)
	for i := 1; i <= 2; i++ {
		if p := b2.Post("/login", loginForm("demo-1001", "wrong")); p.Status != http.StatusUnprocessableEntity || strings.Contains(p.Text("#login-error"), "possible at") {
			t.Fatalf("after reset, attempt %d: %d %q", i, p.Status, p.Text("#login-error"))
		}
	}
}

// TestLoginThrottlePerIP: many client ids from one address are throttled
// together; X-Forwarded-For is believed only from a trusted proxy.
func TestLoginThrottlePerIP(t *testing.T) {
	t.Parallel()
	// Per IP: 3 free failures; the 4th sets a wait, the 5th is refused.
	limits := loginguard.Limits{Free: 1, Max: 100, BaseDelay: time.Minute}
	t.Run("direct clients cannot spoof X-Forwarded-For", func(t *testing.T) {
		app := testapp.New(t, testapp.Options{LoginLimits: limits})
		for i := range 5 {
			req := loginForm("nobody-"+string(rune('a'+i)), "wrong")
			p := postWithHeader(t, app, "/login", req, "X-Forwarded-For", "198.51.100."+string(rune('1'+i)))
			want := http.StatusUnprocessableEntity
			if i == 4 {
				want = http.StatusTooManyRequests
			}
			if p != want {
				t.Fatalf("attempt %d: %d, want %d", i+1, p, want)
			}
		}
	})
	t.Run("behind a trusted proxy each client counts alone", func(t *testing.T) {
		app := testapp.New(t, testapp.Options{LoginLimits: limits, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
		for i := range 6 {
			req := loginForm("nobody-"+string(rune('a'+i)), "wrong")
			if p := postWithHeader(t, app, "/login", req, "X-Forwarded-For", "198.51.100."+string(rune('1'+i))); p != http.StatusUnprocessableEntity {
				t.Fatalf("attempt %d from its own address: %d", i+1, p)
			}
		}
		// One real client, five tries: the fifth waits.
		for i := range 5 {
			req := loginForm("other-"+string(rune('a'+i)), "wrong")
			p := postWithHeader(t, app, "/login", req, "X-Forwarded-For", "203.0.113.7, 127.0.0.1")
			if i == 4 && p != http.StatusTooManyRequests {
				t.Fatalf("5th attempt of one client behind the proxy: %d", p)
			}
		}
	})
}

func postWithHeader(t *testing.T, app *testapp.App, path string, form url.Values, k, v string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, app.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(k, v)
	resp, err := app.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

var redirectTricks = []string{
	"//evil.example", "/\\evil.example", "\\\\evil.example", "/%09/evil.example", "/\t/evil.example",
	"%2F%2Fevil.example", "/%2F%2Fevil.example", "/%5Cevil.example", "https://evil.example/", "javascript:alert(1)",
	"///evil.example", " //evil.example", "/\r\n/evil.example",
}

// TestOpenRedirects: the login's next and the resend form's return accept
// only local paths.
func TestOpenRedirects(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	for _, target := range redirectTricks {
		t.Run(target, func(t *testing.T) {
			b := app.Browser(t)
			form := b.Get("/login?next=" + url.QueryEscape(target))
			if v := form.Doc.Find("input[name=next]").AttrOr("value", ""); v != "" {
				t.Errorf("login form carries next=%q", v)
			}
			f := loginForm("demo-1001", "sandbox-secret-1001")
			f.Set("next", target)
			p := b.Post("/login", f)
			if p.Status != http.StatusSeeOther || p.Location != b.InAccount("/") {
				t.Fatalf("login with next=%q: %d to %q, want 303 to /", target, p.Status, p.Location)
			}
			before := totalRequests(app.Sandbox.Counters())
			p = b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "return": {target}})
			if p.Status != http.StatusSeeOther || p.Location != b.InAccount("/orders") {
				t.Fatalf("resend with return=%q: %d to %q, want 303 to /orders", target, p.Status, p.Location)
			}
			if totalRequests(app.Sandbox.Counters()) != before {
				t.Error("an empty resend reached the marketplace")
			}
		})
	}
	b := app.Browser(t)
	f := loginForm("demo-1001", "sandbox-secret-1001")
	f.Set("next", "/orders?status=new")
	if p := b.Post("/login", f); p.Location != "/orders?status=new" {
		t.Fatalf("local next refused: %q", p.Location)
	}
}

// TestMethodsAndCrossOrigin walks every registered route: a route that
// changes state answers no GET, refuses cross-site POSTs with 403 and no
// upstream call, and ignores method-override headers and _method fields.
func TestMethodsAndCrossOrigin(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	writes := func() int {
		c := app.Sandbox.Counters().Requests
		return c[sandbox.RouteRPCSetPrices] + c[sandbox.RouteRPCStore] + c[sandbox.RouteB2BResend]
	}
	gets := map[string]bool{}
	var posts []string
	for _, r := range app.Handler.Routes() {
		switch r.Method {
		case http.MethodGet:
			gets[r.Path] = true
		case http.MethodHead, "echo_route_not_found":
		case http.MethodPost:
			posts = append(posts, r.Path)
		default:
			t.Errorf("unexpected method %s %s: state changes go through POST", r.Method, r.Path)
		}
	}
	if len(posts) < 5 {
		t.Fatalf("only %d POST routes found", len(posts))
	}
	for _, path := range posts {
		path = strings.ReplaceAll(path, ":orderNr", "RU000000-000000")
		legacy, pattern := !strings.HasPrefix(path, paths.AccountPrefix), path
		path = strings.ReplaceAll(path, ":account", b.Account)
		t.Run(path, func(t *testing.T) {
			w := writes()
			for _, q := range []string{"", "?_method=POST"} {
				req, _ := http.NewRequest(http.MethodGet, app.URL+path+q, nil)
				req.Header.Set("X-HTTP-Method-Override", "POST")
				req.Header.Set("X-Method-Override", "POST")
				resp, err := b.Client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				// A path without an account leads to the account's
				// (302), checked as such below.
				if legacy && resp.StatusCode == http.StatusFound {
					continue
				}
				if !gets[pattern] && resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
					t.Errorf("GET%s with override: %d, want 405 or 404", q, resp.StatusCode)
				}
			}
			if writes() != w {
				t.Error("a GET caused a marketplace write")
			}
			for _, hdr := range [][2]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "https://evil.example"}, {"Origin", "null"}} {
				before := totalRequests(app.Sandbox.Counters())
				form := url.Values{"_method": {"GET"}, "form_id": {"resend-bulk"}, "orderNr": {"RU000000-000000"}}
				req, _ := http.NewRequest(http.MethodPost, app.URL+path, strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set(hdr[0], hdr[1])
				req.Header.Set("X-HTTP-Method-Override", "GET")
				resp, err := b.Client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusForbidden {
					t.Errorf("POST with %s: %s: %d, want 403", hdr[0], hdr[1], resp.StatusCode)
				}
				if n := totalRequests(app.Sandbox.Counters()) - before; n != 0 {
					t.Errorf("POST with %s: %s made %d upstream calls", hdr[0], hdr[1], n)
				}
			}
		})
	}
	if b.Get("/").Status != http.StatusOK {
		t.Error("a refused cross-site logout logged the user out")
	}
}

// TestSecurityHeadersEverywhere: pages, redirects, errors, static files,
// healthz, 404, 405, 413 and cross-origin refusals all carry the headers.
func TestSecurityHeadersEverywhere(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	anon := app.Browser(t)
	check := func(name string, h http.Header) {
		t.Helper()
		csp := h.Get("Content-Security-Policy")
		var script string
		for _, d := range strings.Split(csp, ";") {
			if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" {
				script = d
			}
		}
		switch {
		case script == "" || strings.Contains(script, "'unsafe-inline'") || strings.Contains(script, "'unsafe-eval'"):
			t.Errorf("%s: CSP script-src %q", name, script)
		case !strings.Contains(csp, "frame-ancestors 'none'"):
			t.Errorf("%s: CSP lacks frame-ancestors 'none': %q", name, csp)
		case h.Get("X-Content-Type-Options") != "nosniff":
			t.Errorf("%s: no nosniff", name)
		case h.Get("Referrer-Policy") == "":
			t.Errorf("%s: no Referrer-Policy", name)
		}
	}
	check("login page", anon.Get("/login").Header)
	check("redirect to login", anon.Get("/orders").Header)
	check("healthz", anon.Get("/healthz").Header)
	check("static", anon.Get(static.Path(static.CSS)).Header)
	check("404", anon.Get("/no-such-page").Header)
	check("405", anon.Get("/logout").Header)
	b.LoginDemo()
	check("overview", b.Get("/").Header)
	big := url.Values{"sku": {strings.Repeat("x", 9<<20)}}
	if p := b.Post("/prices", big); p.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("9 MB form: %d, want 413", p.Status)
	} else {
		check("413", p.Header)
	}
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BOrders, Kind: sandbox.FaultUnavailable, Times: -1})
	p := b.Get("/orders")
	check("error page", p.Header)
	app.Sandbox.ClearFaults()
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/logout", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	check("cross-origin refusal", resp.Header)
	check("panic", panicApp(t).Get("/_test/hook").Header)
}

// panicApp is a logged-in browser on a dashboard whose test hook panics.
func panicApp(t *testing.T) *testapp.Browser {
	app := testapp.New(t, testapp.Options{TestHook: func(echo.Context) error { panic("boom") }})
	b := app.Browser(t)
	b.LoginDemo()
	return b
}
