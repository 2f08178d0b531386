package scaleout

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// A login made on instance A is a login on instance B: the session, its
// credentials and its tokens live in the shared database.
func TestLoginOnAUseOnB(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{})
	a := p.A.Browser(t)
	a.LoginDemo()
	before := p.Sandbox.Counters()

	b := on(t, a, p.A, p.B)
	for _, path := range []string{"/orders", "/prices", "/return-boxes", "/"} {
		pg := b.Get(path)
		if pg.Status != http.StatusOK {
			t.Fatalf("GET %s on B with A's session: %d (to %q), want 200", path, pg.Status, pg.Location)
		}
		if who := pg.Text("[data-testid=who]"); !strings.Contains(who, demoClientID) {
			t.Errorf("GET %s on B: header says %q, want %s", path, who, demoClientID)
		}
	}
	// B used the tokens A obtained at login instead of asking for its own.
	after := p.Sandbox.Counters()
	for kind, n := range after.TokensIssued {
		if d := n - before.TokensIssued[kind]; d != 0 {
			t.Errorf("B asked for %d new %s tokens; the session's tokens should have served", d, kind)
		}
	}
	// And back on A, the session is still there.
	if pg := a.Get("/orders"); pg.Status != http.StatusOK {
		t.Errorf("GET /orders on A after B used the session: %d", pg.Status)
	}
}

// A logout on instance B ends the session on instance A.
func TestLogoutOnBRejectedOnA(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{})
	a := p.A.Browser(t)
	a.LoginDemo()
	b := on(t, a, p.A, p.B)

	out := b.Post("/logout", url.Values{})
	if out.Status != http.StatusSeeOther || !strings.HasPrefix(out.Location, "/login") {
		t.Fatalf("logout on B: %d to %q, want 303 to /login", out.Status, out.Location)
	}
	if n := countRows(t, p.DSN, "sessions"); n != 0 {
		t.Errorf("%d session rows after logout, want 0", n)
	}
	if n := countRows(t, p.DSN, "session_tokens"); n != 0 {
		t.Errorf("%d token rows after logout, want 0", n)
	}
	for _, path := range []string{"/orders", "/prices", "/"} {
		pg := a.Get(path)
		if pg.Status != http.StatusSeeOther || pg.Location != "/login" {
			t.Errorf("GET %s on A after logout on B: %d to %q, want 303 to /login", path, pg.Status, pg.Location)
		}
	}
	// A state-changing request is refused too, and sends nothing upstream.
	before := p.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	pg := a.Post("/prices", url.Values{"sku": {"x"}, "orig_price": {"1.00"}, "price": {"2.00"}})
	if pg.Status != http.StatusSeeOther || pg.Location != "/login" {
		t.Errorf("POST /prices on A after logout on B: %d to %q, want 303 to /login", pg.Status, pg.Location)
	}
	if n := p.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 0 {
		t.Errorf("%d set-prices requests from a logged-out session", n)
	}
}

// When the session's tokens are due for refresh and many requests reach A
// and B at the same moment, the marketplace is asked for one new token per
// interface, not one per request or per instance.
func TestConcurrentRefreshOneTokenRequest(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{})
	a := p.A.Browser(t)
	a.LoginDemo()
	b := on(t, a, p.A, p.B)

	// Past 80 % of the 15-minute lifetime: every request wants a refresh.
	// A slow token endpoint keeps the first refresh holding the lock while
	// the other instance's requests arrive.
	p.Sandbox.Advance(13 * time.Minute)
	p.Sandbox.SetLatency(sandbox.RouteB2BToken, 300*time.Millisecond)
	p.Sandbox.SetLatency(sandbox.RouteRPCTokens, 300*time.Millisecond)
	before := p.Sandbox.Counters()

	const perInstance = 12
	paths := []string{"/", "/orders", "/prices", "/return-boxes"}
	start := make(chan struct{})
	results := make(chan string, 2*perInstance)
	var wg sync.WaitGroup
	for i := range 2 * perInstance {
		br, app := a, p.A
		if i%2 == 1 {
			br, app = b, p.B
		}
		path := paths[(i/2)%len(paths)]
		wg.Go(func() {
			<-start
			r := fetch(br.Client, http.MethodGet, app.URL+br.InAccount(path), nil)
			switch {
			case r.err != nil:
				results <- path + ": " + r.err.Error()
			case r.status != http.StatusOK:
				results <- path + ": status " + http.StatusText(r.status)
			}
		})
	}
	close(start)
	wg.Wait()
	close(results)
	for msg := range results {
		t.Error(msg)
	}

	after := p.Sandbox.Counters()
	for _, kind := range []string{"b2b/test", "seller"} {
		if d := after.TokensIssued[kind] - before.TokensIssued[kind]; d != 1 {
			t.Errorf("%s tokens issued for %d concurrent requests on two instances: %d, want 1", kind, 2*perInstance, d)
		}
	}
	for _, route := range []string{sandbox.RouteB2BToken, sandbox.RouteRPCTokens} {
		if d := after.Requests[route] - before.Requests[route]; d != 1 {
			t.Errorf("%s requests: %d, want 1", route, d)
		}
	}
}

// A logout on B while a slow request of the same session is still running
// on A: when A's request ends, the session stays logged out. Neither A's
// token save nor its session write-back recreates it.
func TestLogoutDuringSlowRequest(t *testing.T) {
	t.Parallel()
	requirePostgres(t)
	tests := []struct {
		name  string
		route string // the slow sandbox route A's request is waiting on
		setup func(p *pair)
		// request is A's slow request.
		request func(t *testing.T, a *testapp.Browser) (method, path string, form url.Values)
	}{
		{
			// A refreshes the seller token (slow token endpoint) and saves
			// it after the logout.
			name:  "token refresh in flight",
			route: sandbox.RouteRPCTokens,
			setup: func(p *pair) { p.Sandbox.Advance(13 * time.Minute) },
			request: func(*testing.T, *testapp.Browser) (string, string, url.Values) {
				return http.MethodGet, "/prices", nil
			},
		},
		{
			// A submits prices (slow set-prices) and then writes a flash
			// and a draft into the session payload.
			name:  "mass update in flight",
			route: sandbox.RouteRPCSetPrices,
			request: func(t *testing.T, a *testapp.Browser) (string, string, url.Values) {
				form := a.Get("/prices").FormValues("#prices-form")
				if len(form["sku"]) == 0 {
					t.Fatal("prices page has no rows")
				}
				price, err := apiclient.ParseMoney(form["orig_price"][0])
				if err != nil {
					t.Fatal(err)
				}
				form["price"][0] = (price + 100).Decimal()
				return http.MethodPost, "/prices", form
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := sharedPair(t, testapp.Options{})
			a := p.A.Browser(t)
			a.LoginDemo()
			b := on(t, a, p.A, p.B)
			// The cookie as it is now, to replay after the race (A's
			// answer may rightly expire it in A's browser).
			replays := []*testapp.Browser{on(t, a, p.A, p.A), on(t, a, p.A, p.B)}
			method, path, form := tt.request(t, a)
			if tt.setup != nil {
				tt.setup(p)
			}
			p.Sandbox.SetLatency(tt.route, 1500*time.Millisecond)
			seen := p.Sandbox.Counters().Requests[tt.route]

			done := make(chan result, 1)
			go func() { done <- fetch(a.Client, method, p.A.URL+a.InAccount(path), form) }()
			if !waitFor(10*time.Second, func() bool { return p.Sandbox.Counters().Requests[tt.route] > seen }) {
				t.Fatalf("A's request never reached %s", tt.route)
			}
			out := b.Post("/logout", url.Values{})
			if out.Status != http.StatusSeeOther {
				t.Fatalf("logout on B: %d", out.Status)
			}
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("A's slow request did not finish")
			}
			if r.err != nil {
				t.Fatalf("A's slow request: %v", r.err)
			}
			t.Logf("A's slow %s %s answered %d", method, path, r.status)

			// Nothing in the database: no session row, no token row.
			if n := countRows(t, p.DSN, "sessions"); n != 0 {
				t.Errorf("%d session rows after A's request finished, want 0 (resurrected)", n)
			}
			if n := countRows(t, p.DSN, "session_tokens"); n != 0 {
				t.Errorf("%d token rows after A's request finished, want 0 (resurrected)", n)
			}
			// And the cookie opens nothing on either instance.
			for _, br := range replays {
				if pg := br.Get("/orders"); pg.Status != http.StatusSeeOther || pg.Location != "/login" {
					t.Errorf("GET /orders after the race: %d to %q, want 303 to /login", pg.Status, pg.Location)
				}
			}
		})
	}
}

// The per-seller limit of one mass-update request in flight (spec §8) holds
// across instances: two people of seller 1001, one on A and one on B,
// submit prices at the same moment.
func TestMassUpdateLockAcrossInstances(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{ChunkSize: 2})
	a := p.A.Browser(t)
	a.LoginDemo()
	b := p.B.Browser(t)
	b.LoginDemo()

	// Disjoint rows for the two submissions, three chunks each.
	page := a.Get("/prices")
	base := page.FormValues("#prices-form")
	if len(base["sku"]) < 12 {
		t.Fatalf("prices page lists %d rows, want at least 12", len(base["sku"]))
	}
	formFor := func(rows []int) url.Values {
		f := url.Values{}
		for k, v := range base {
			f[k] = append([]string(nil), v...)
		}
		for _, i := range rows {
			price, err := apiclient.ParseMoney(f["orig_price"][i])
			if err != nil {
				t.Fatal(err)
			}
			f["price"][i] = (price + 100).Decimal()
			f["sale"][i] = ""
		}
		return f
	}
	formA, formB := formFor([]int{0, 1, 2, 3, 4, 5}), formFor([]int{6, 7, 8, 9, 10, 11})

	p.Sandbox.SetLatency(sandbox.RouteRPCSetPrices, 200*time.Millisecond)
	before := p.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	start := make(chan struct{})
	var ra, rb result
	var wg sync.WaitGroup
	wg.Go(func() { <-start; ra = fetch(a.Client, http.MethodPost, p.A.URL+a.InAccount("/prices"), formA) })
	wg.Go(func() { <-start; rb = fetch(b.Client, http.MethodPost, p.B.URL+b.InAccount("/prices"), formB) })
	close(start)
	wg.Wait()

	for name, r := range map[string]result{"A": ra, "B": rb} {
		if r.err != nil || r.status != http.StatusSeeOther {
			t.Errorf("submit on %s: status %d, err %v; want 303 (all accepted)", name, r.status, r.err)
		}
	}
	c := p.Sandbox.Counters()
	if n := c.Requests[sandbox.RouteRPCSetPrices] - before; n != 6 {
		t.Errorf("%d set-prices requests, want 6 (two submissions of three chunks)", n)
	}
	key := sandbox.RouteRPCSetPrices + "/1001"
	if got := c.MaxInFlight[key]; got != 1 {
		t.Errorf("MaxInFlight[%q] = %d, want 1: one mass-update request in flight per seller", key, got)
	}
}
