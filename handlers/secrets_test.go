package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// TestCanarySecretsDashboard: the client secret and the session's tokens
// flow through login, every page, every error path (sandbox faults), a
// panic, a credentials revocation, debug logging and logout; none of them
// appears in any HTML, log line, cookie, URL or Location header, nor in
// the session database file.
func TestCanarySecretsDashboard(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "sessions.db")
	sdb, err := sqldb.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	backend, err := sessions.NewBackend(context.Background(), sdb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { backend.Close() })
	const secret = "sandbox-secret-1001" // the demo secret: NoDemo keeps it off the login page
	// The upstream timeout ends the pages facing a hang (four of them below)
	// and must leave the login's token calls, slow on a loaded machine under
	// -race, room to answer.
	app := testapp.New(t, testapp.Options{
		NoDemo: true, Backend: backend, UpstreamTimeout: 3 * time.Second, PageRetryBudget: time.Millisecond,
		TestHook: func(c echo.Context) error { panic("panic while holding " + secret) },
	})
	b := app.Browser(t)
	var pages []*testapp.Page
	keep := func(p *testapp.Page) *testapp.Page { pages = append(pages, p); return p }

	keep(b.Get("/login"))
	keep(b.Post("/login", loginForm("demo-1001", "wrong-"+secret)))
	keep(b.Login("demo-1001", secret, "1001", "test"))

	// The canary tokens are whatever the marketplace issued this session.
	u, _ := url.Parse(app.URL)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(&http.Cookie{Name: "sd_session", Value: cookieValue(b, u)})
	sess, err := app.Store.Load(req)
	if err != nil || sess.IsNew() {
		t.Fatalf("session: %v", err)
	}
	toks, err := app.Store.LoadTokens(context.Background(), sess.ID())
	if err != nil || len(toks) == 0 {
		t.Fatalf("tokens: %v (%d)", err, len(toks))
	}
	canaries := []string{secret}
	for _, tk := range toks {
		canaries = append(canaries, tk.AccessToken)
		if tk.RefreshToken != "" {
			canaries = append(canaries, tk.RefreshToken)
		}
	}

	paths := []string{"/", "/orders", "/prices", "/nomenclature", "/return-boxes", "/no-such-page", "/orders/RU000000-000000"}
	for _, path := range paths {
		keep(b.Get(path))
	}
	first := pages[len(pages)-6].Doc.Find("#orders-table tbody tr a[href^='/orders/']").First().AttrOr("href", "/orders")
	keep(b.Get(first))
	form := keep(b.Get("/prices")).FormValues("#prices-form")
	if len(form["price"]) > 0 {
		form["price"][0] = "-1"
		keep(b.Post("/prices", form))
	}
	keep(b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "return": {"/orders"}}))
	for k := sandbox.FaultRateLimit; k <= sandbox.FaultHTML; k++ {
		app.Sandbox.ClearFaults()
		app.Sandbox.InjectFault(sandbox.Fault{Kind: k, Times: -1})
		for _, path := range []string{"/orders", "/prices", "/return-boxes"} {
			keep(b.Get(path))
		}
		b.HTMX = true
		keep(b.Get("/orders"))
		b.HTMX = false
	}
	app.Sandbox.ClearFaults()
	keep(b.Get("/_test/hook")) // the panic
	// Tokens expire and are refreshed; then the credentials are revoked
	// mid-session, which logs the user out with a return target.
	app.Sandbox.Advance(20 * time.Minute)
	keep(b.Get("/orders"))
	app.Sandbox.RevokeCredentials("demo-1001")
	app.Sandbox.Advance(20 * time.Minute)
	p := keep(b.Get("/prices"))
	if p.Location != "" {
		keep(b.Follow(p))
	}
	keep(b.Post("/logout", url.Values{}))

	if !strings.Contains(app.Logs.String(), "level=DEBUG") || !strings.Contains(app.Logs.String(), "panic") {
		t.Fatal("the run did not go through debug logging and the panic")
	}
	var jarCookies []string
	for _, c := range b.Client.Jar.Cookies(u) {
		jarCookies = append(jarCookies, c.String())
	}
	raw, _ := os.ReadFile(dbPath)
	wal, _ := os.ReadFile(dbPath + "-wal")
	for _, c := range canaries {
		for i, p := range pages {
			if strings.Contains(p.Body, c) {
				t.Errorf("page %d (status %d) contains a canary", i, p.Status)
			}
			for k, vs := range p.Header {
				for _, v := range vs {
					if strings.Contains(v, c) || strings.Contains(v, url.QueryEscape(c)) {
						t.Errorf("page %d header %s contains a canary", i, k)
					}
				}
			}
		}
		if strings.Contains(app.Logs.String(), c) {
			t.Error("the logs contain a canary")
		}
		if strings.Contains(strings.Join(jarCookies, ";"), c) {
			t.Error("a cookie contains a canary")
		}
		if strings.Contains(string(raw), c) || strings.Contains(string(wal), c) {
			t.Error("the session database holds a canary unsealed")
		}
	}
}
