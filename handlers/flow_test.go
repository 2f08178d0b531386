package handlers_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

func TestHealthz(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	before := app.Sandbox.Counters()
	p := app.Browser(t).Get("/healthz")
	if p.Status != http.StatusOK || strings.TrimSpace(p.Body) != "ok" {
		t.Fatalf("healthz: %d %q", p.Status, p.Body)
	}
	if p.Header.Get("Set-Cookie") != "" {
		t.Error("healthz set a cookie")
	}
	if got := totalRequests(app.Sandbox.Counters()) - totalRequests(before); got != 0 {
		t.Errorf("healthz made %d upstream calls", got)
	}
}

func totalRequests(c sandbox.Counters) int {
	n := 0
	for _, v := range c.Requests {
		n += v
	}
	return n
}

func TestLogin(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})

	t.Run("anonymous visitors go to the login page and come back", func(t *testing.T) {
		b := app.Browser(t)
		p := b.Get("/orders?status=new")
		if p.Status != http.StatusSeeOther || p.Location != "/login" {
			t.Fatalf("GET /orders: %d to %q, want 303 to /login", p.Status, p.Location)
		}
		login := b.Follow(p)
		if !login.Has("#login-form") || !login.Has("[data-testid=demo-credentials]") {
			t.Fatal("login page lacks the form or the demo credentials")
		}
		p = b.Post("/login", url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"test"}})
		if p.Status != http.StatusSeeOther || p.Location != "/orders?status=new" {
			t.Fatalf("login: %d to %q, want 303 back to /orders?status=new", p.Status, p.Location)
		}
	})

	t.Run("good credentials open the overview", func(t *testing.T) {
		b := app.Browser(t)
		p := b.LoginDemo()
		if p.Status != http.StatusOK || !p.Has("[data-testid=counts-orders]") {
			t.Fatalf("overview: status %d", p.Status)
		}
		if got := p.Text("[data-testid=who]"); !strings.Contains(got, "demo-1001") || !strings.Contains(got, "1001") {
			t.Errorf("header says %q", got)
		}
		if strings.Contains(p.Body, "sandbox-secret-1001") && !p.Has("[data-testid=demo-credentials]") {
			t.Error("the secret appears in the page")
		}
		// The overview reads the copy alone; before its first pass (no
		// sync runs here) it says the first copy is being made.
		if !p.Has("[data-testid=counts-orders] [data-testid=copying]") {
			t.Error("the overview before the first copy does not say it is copying")
		}
	})

	tests := []struct {
		name, id, secret, seller, env string
		field                         string // element id of the expected field error, or "" for a form error
		want                          string
	}{
		{"wrong secret", "demo-1001", "nope", "1001", "test", "", "rejected these credentials"},
		{"test-only credentials in production", "test-1003", "sandbox-secret-1003", "1003", "production", "", "production environment"},
		{"another seller's id", "demo-1001", "sandbox-secret-1001", "1002", "test", "#seller_id-error", "no access to seller 1002"},
		{"seller id not a number", "demo-1001", "sandbox-secret-1001", "12ab", "test", "#seller_id-error", "whole number"},
		{"missing client id", "", "sandbox-secret-1001", "1001", "test", "#client_id-error", "client id"},
		{"unknown environment", "demo-1001", "sandbox-secret-1001", "1001", "staging", "#environment-error", "production or test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := app.Browser(t)
			p := b.Post("/login", url.Values{"client_id": {tt.id}, "client_secret": {tt.secret}, "seller_id": {tt.seller}, "environment": {tt.env}, "display_name": {"Anna"}})
			if p.Status != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", p.Status)
			}
			sel := "#login-error"
			if tt.field != "" {
				sel = tt.field
			}
			if got := p.Text(sel); !strings.Contains(got, tt.want) {
				t.Errorf("%s says %q, want it to mention %q", sel, got, tt.want)
			}
			if v, _ := p.Doc.Find("#client_id").Attr("value"); v != tt.id {
				t.Errorf("client id not kept: %q", v)
			}
			if v, _ := p.Doc.Find("#display_name").Attr("value"); v != "Anna" {
				t.Errorf("display name not kept: %q", v)
			}
			if v, _ := p.Doc.Find("#client_secret").Attr("value"); v != "" {
				t.Error("the secret field was not emptied")
			}
		})
	}

	t.Run("login renews the session id and logout ends it", func(t *testing.T) {
		b := app.Browser(t)
		b.Get("/orders") // an anonymous session with a return target
		u, _ := url.Parse(app.URL)
		before := cookieValue(b, u)
		b.LoginDemo()
		after := cookieValue(b, u)
		if before == "" || after == "" || before == after {
			t.Fatalf("session cookie not renewed at login (before %t, after %t, same %t)", before != "", after != "", before == after)
		}
		p := b.Post("/logout", url.Values{})
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, "/login") {
			t.Fatalf("logout: %d to %q", p.Status, p.Location)
		}
		if !strings.Contains(b.Follow(p).Text("[data-testid=login-note]"), "logged out") {
			t.Error("no logged-out note")
		}
		// Replaying the old cookie gets nowhere.
		replay := app.Browser(t)
		replay.Client.Jar.SetCookies(u, []*http.Cookie{{Name: "sd_session", Value: after}})
		if p := replay.Get("/orders"); p.Status != http.StatusSeeOther || p.Location != "/login" {
			t.Fatalf("replayed cookie after logout: %d to %q", p.Status, p.Location)
		}
	})

	t.Run("a garbage cookie is just logged out", func(t *testing.T) {
		for _, v := range []string{"garbage", strings.Repeat("A", 3000), "MTIzNDU2Nzg5MA==|x|y"} {
			b := app.Browser(t)
			u, _ := url.Parse(app.URL)
			b.Client.Jar.SetCookies(u, []*http.Cookie{{Name: "sd_session", Value: v}})
			if p := b.Get("/"); p.Status != http.StatusSeeOther {
				t.Fatalf("cookie %.10q: status %d, want 303 to login", v, p.Status)
			}
		}
	})
}

func cookieValue(b *testapp.Browser, u *url.URL) string {
	for _, c := range b.Client.Jar.Cookies(u) {
		if c.Name == "sd_session" {
			return c.Value
		}
	}
	return ""
}

func TestOrders(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()

	p := b.Get("/orders")
	if p.Status != http.StatusOK {
		t.Fatalf("orders: %d", p.Status)
	}
	if n := p.Doc.Find("#orders-table tbody tr").Length(); n != 20 {
		t.Errorf("default page has %d rows, want 20", n)
	}

	t.Run("filter and page keep the view in the URL", func(t *testing.T) {
		p := b.Get("/orders?status=delivered&limit=50")
		rows := p.Doc.Find("#orders-table tbody tr")
		if rows.Length() == 0 {
			t.Fatal("no delivered orders")
		}
		rows.Each(func(_ int, s *goquery.Selection) {
			if st := s.Find("[data-status]").First().AttrOr("data-status", ""); st != "delivered" {
				t.Errorf("row with status %q in a delivered view", st)
			}
		})
		next, ok := p.Doc.Find("[data-testid=next]").Attr("href")
		if ok {
			if !strings.Contains(next, "status=delivered") || !strings.Contains(next, "limit=50") || !strings.Contains(next, "page=2") {
				t.Errorf("next link %q loses the view", next)
			}
			if p2 := b.Get(next); p2.Status != http.StatusOK || p2.Doc.Find("#orders-table tbody tr").Length() == 0 {
				t.Errorf("page 2: %d", p2.Status)
			}
		}
		if sel := p.Doc.Find("#filter-status option[selected]").AttrOr("value", ""); sel != "delivered" {
			t.Errorf("filter shows %q", sel)
		}
		if p := b.Get("/orders?status=%3Cscript%3E&limit=-3&page=abc"); p.Status != http.StatusOK {
			t.Errorf("garbage query: %d", p.Status)
		}
	})

	nr := p.Doc.Find("#orders-table tbody tr a").First().Text()
	t.Run("order detail", func(t *testing.T) {
		d := b.Get("/orders/" + nr)
		if d.Status != http.StatusOK || !strings.Contains(d.Text("h1"), nr) {
			t.Fatalf("detail: %d %q", d.Status, d.Text("h1"))
		}
		if d.Doc.Find("#order-items tbody tr").Length() == 0 {
			t.Error("no items")
		}
		// The list's link carries the way back, filter and page kept; the
		// detail shows money as the list does (₽, not RUB) and the item count.
		list := b.Get("/orders?status=delivered&limit=20&page=2")
		href, _ := list.Doc.Find("#orders-table tbody tr a").First().Attr("href")
		if href != "" {
			det := b.Get(href)
			back, _ := det.Doc.Find(`a[href^="` + b.InAccount("/orders?") + `"]`).First().Attr("href")
			if !strings.HasPrefix(back, b.InAccount("/orders?")) || !strings.Contains(back, "page=2") || !strings.Contains(back, "status=delivered") {
				t.Errorf("the detail's way back is %q, want the filtered list page 2", back)
			}
		} else {
			t.Error("no order on page 2 of delivered orders")
		}
		facts := d.Text("[data-testid=order-facts]")
		if strings.Contains(facts, "RUB") || !strings.Contains(facts, "₽") || d.Text("[data-testid=order-items]") == "" {
			t.Errorf("order facts %q: want ₽ and the item count", facts)
		}
		if p := b.Get("/orders/RU000000-000000"); p.Status != http.StatusNotFound {
			t.Errorf("unknown order: %d, want 404", p.Status)
		}
	})

	t.Run("resend, then a countdown to the end of processing and no second call", func(t *testing.T) {
		b.HTMX = true
		defer func() { b.HTMX = false }()
		form := url.Values{"form_id": {"resend-" + nr}, "orderNr": {nr}, "return": {"/orders/" + nr}}
		p := b.Post("/orders/resend", form)
		if p.Status != http.StatusOK || !strings.Contains(p.Text("[data-testid=resend-status]"), "Queued") {
			t.Fatalf("first resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
		}
		// The marketplace is processing them: the button waits, disabled.
		if sec := p.Doc.Find("[data-countdown]").AttrOr("data-countdown", ""); sec != "60" {
			t.Errorf("countdown %q s, want 60 (the processing time)", sec)
		}
		if _, disabled := p.Doc.Find("button[data-wait]").Attr("disabled"); !disabled {
			t.Error("button not disabled while the marketplace processes")
		}
		calls := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
		p = b.Post("/orders/resend", form)
		if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text("[data-testid=resend-status]"), "still processing") {
			t.Errorf("during processing: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
		}
		if got := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]; got != calls {
			t.Errorf("a resend during processing reached the marketplace (%d → %d calls)", calls, got)
		}
		// Once the marketplace is done processing, a resend is queued again.
		app.Sandbox.Advance(61 * time.Second)
		p = b.Post("/orders/resend", form)
		if p.Status != http.StatusOK {
			t.Errorf("after processing: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
		}
	})

	t.Run("resend without JavaScript redirects with a message", func(t *testing.T) {
		nr2 := p.Doc.Find("#orders-table tbody tr a").Eq(1).Text()
		p := b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "orderNr": {nr2}, "return": {"/orders?page=1"}})
		if p.Status != http.StatusSeeOther || p.Location != "/orders?page=1" {
			t.Fatalf("plain resend: %d to %q", p.Status, p.Location)
		}
		if got := b.Follow(p).Text("#flash-area"); !strings.Contains(got, "Queued") {
			t.Errorf("flash %q", got)
		}
		p = b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "return": {"//evil.example"}})
		if p.Status != http.StatusSeeOther || p.Location != b.InAccount("/orders") {
			t.Errorf("empty selection with a foreign return: %d to %q", p.Status, p.Location)
		}
	})
}

func TestReturnBoxes(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/return-boxes?status=shipped")
	rows := p.Doc.Find("#boxes-table tbody tr")
	if p.Status != http.StatusOK || rows.Length() == 0 {
		t.Fatalf("boxes: %d, %d rows", p.Status, rows.Length())
	}
	rows.Each(func(_ int, s *goquery.Selection) {
		if st := s.Find("[data-status]").AttrOr("data-status", ""); st != "shipped" {
			t.Errorf("box with status %q in a shipped view", st)
		}
	})
	all := b.Get("/return-boxes?limit=20")
	if all.Doc.Find("#boxes-table tbody tr").Length() != 20 || !all.Has("[data-testid=next]") {
		t.Error("first page of 20 with a next link expected")
	}
	if p := b.Get("/return-boxes?page=999"); !p.Has("[data-testid=empty]") {
		t.Error("past the end: no empty state")
	}
}

func TestTokenExpiryMidSession(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	before := app.Sandbox.Counters().TokensIssued
	app.Sandbox.Advance(16 * time.Minute)
	if p := b.Get("/orders"); p.Status != http.StatusOK {
		t.Fatalf("orders after expiry: %d", p.Status)
	}
	if p := b.Get("/return-boxes"); p.Status != http.StatusOK {
		t.Fatalf("boxes after expiry: %d", p.Status)
	}
	after := app.Sandbox.Counters().TokensIssued
	if after["b2b/test"]-before["b2b/test"] != 1 || after["seller"]-before["seller"] != 1 {
		t.Errorf("tokens issued after expiry: b2b %d, seller %d; want one each",
			after["b2b/test"]-before["b2b/test"], after["seller"]-before["seller"])
	}
}

func TestCredentialsRevoked(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	app.Sandbox.RevokeCredentials("demo-1001")
	app.Sandbox.Advance(16 * time.Minute) // the tokens expire too
	p := b.Get("/return-boxes?status=accepted")
	if p.Status != http.StatusSeeOther || p.Location != "/login" {
		t.Fatalf("revoked: %d to %q, want 303 to /login", p.Status, p.Location)
	}
	login := b.Follow(p)
	if !strings.Contains(login.Text("#flash-area"), "no longer accepts") {
		t.Errorf("login page says %q", login.Text("#flash-area"))
	}
	if v, _ := login.Doc.Find("#client_id").Attr("value"); v != "demo-1001" {
		t.Errorf("client id not pre-filled: %q", v)
	}
	// The secret is not put back into the form (the demo accounts' block
	// shows the sandbox's public demo secrets by design: leave it out).
	if v, _ := login.Doc.Find("#client_secret").Attr("value"); v != "" {
		t.Errorf("the secret field holds %q", v)
	}
	login.Doc.Find("[data-testid=demo-credentials]").Remove()
	if html, _ := login.Doc.Html(); strings.Contains(html, "sandbox-secret-1001") {
		t.Error("secret in the page outside the demo accounts")
	}
}

func TestForbiddenSeller(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	// Point the session at another seller, as if access had been withdrawn.
	u, _ := url.Parse(app.URL)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range b.Client.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	sess, err := app.Store.Load(req)
	if err != nil || !sess.LoggedIn() {
		t.Fatalf("load session: %v", err)
	}
	sess.Data().SellerID = 1002
	sess.Data().Accounts = nil // the session holds seller 1002 only
	b.Account = sess.Data().Current().ID()
	if err := sess.Save(req, httptest.NewRecorder()); err != nil {
		t.Fatal(err)
	}
	p := b.Get("/return-boxes")
	if p.Status != http.StatusForbidden || !strings.Contains(p.Text("[data-testid=error]"), "not available to these credentials") {
		t.Fatalf("403 page: %d %q", p.Status, p.Text("[data-testid=error]"))
	}
}

func TestMarketplaceBusy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{PageRetryBudget: time.Millisecond})
	b := app.Browser(t)
	b.LoginDemo()
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: sandbox.FaultRateLimit, Times: -1})
	p := b.Get("/return-boxes")
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text("[data-testid=error]"), "busy") {
		t.Fatalf("429 page: %d %q", p.Status, p.Text("[data-testid=error]"))
	}
	if !p.Has("meta[http-equiv=refresh]") || !p.Has("[data-countdown]") {
		t.Error("busy page neither refreshes nor counts down")
	}
	app.Sandbox.ClearFaults()
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: sandbox.FaultHTML})
	p = b.Get("/return-boxes")
	if p.Status != http.StatusBadGateway || strings.Contains(p.Body, "<h1>502") {
		t.Errorf("HTML upstream error: %d", p.Status)
	}
	if rid := p.Text("[data-testid=error] code"); rid == "" {
		t.Error("error page without a request id")
	}
}

// TestLiveInTestNotice: logged in to the test environment, the pages that
// change prices and stock say the changes are live (the seller interfaces
// have one host); other pages, production logins and a configured seller
// test host do not.
func TestLiveInTestNotice(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo() // test environment
	for path, want := range map[string]bool{"/prices": true, "/nomenclature": true, "/orders": false, "/": false, "/return-boxes": false} {
		if got := b.Get(path).Has("[data-testid=live-in-test]"); got != want {
			t.Errorf("test login, %s: notice shown %t, want %t", path, got, want)
		}
	}
	prod := app.Browser(t)
	prod.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	if prod.Get("/prices").Has("[data-testid=live-in-test]") {
		t.Error("production login: the notice is shown")
	}

	// The import (testapp's dashboards have no job store).
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	if !e.browser().Get("/bulk/import").Has("[data-testid=live-in-test]") {
		t.Error("test login, /bulk/import: no notice")
	}

	sep := testapp.New(t, testapp.Options{APIOptions: func(o *apiclient.Options) { o.SellerTestBaseURL = o.SellerBaseURL }})
	sb := sep.Browser(t)
	sb.LoginDemo()
	if sb.Get("/prices").Has("[data-testid=live-in-test]") {
		t.Error("with a seller test host: the notice is shown")
	}
}

// TestFavicon: /favicon.ico, asked for on every page, is the icon and
// cacheable, not a 404; pages link it too.
func TestFavicon(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	resp, err := http.Get(app.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" ||
		!strings.Contains(resp.Header.Get("Cache-Control"), "max-age") || !strings.Contains(string(body), "<svg") {
		t.Fatalf("favicon: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
	if p := app.Browser(t).Get("/login"); !p.Has(`link[rel=icon][href^="/static/favicon.svg?v="]`) {
		t.Error("the login page does not link the icon")
	}
}
