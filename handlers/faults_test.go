package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Only the faults that never answer (a hang, a dribble) depend on the
// upstream timeout, and they get a short one so the test stays quick. Every
// other fault is recognised by what arrives (a status, a size, a shape), so
// those run with a timeout far beyond any machine's slowness: a loaded
// machine under -race must not turn "unreadable" into "slow".
const (
	testUpstreamTimeout = 500 * time.Millisecond
	generousTimeout     = 60 * time.Second
	// hangBound is how long a page facing a hang may take at most: the
	// timeout plus room for a loaded machine. It proves the timeout cuts the
	// call (without it the page would wait forever), not how fast it is.
	hangBound = testUpstreamTimeout + 20*time.Second
	// testMaxResponse is the client's body limit in the wire tests: small,
	// so that a 50 MB answer is refused by size after 1 MB is read.
	testMaxResponse = 1 << 20
)

// faultBrowsers are two browsers in front of the same marketplace: one on
// a dashboard with the short timeout for faults that never answer, one on
// a dashboard with the generous timeout for the rest. Both log in on the
// generous one (the two dashboards share their session database): a
// loaded machine's token calls may take longer than the short timeout.
func faultBrowsers(t *testing.T, opts testapp.Options) (hang, other *testapp.Browser) {
	t.Helper()
	opts.Backend = sessionBackend(t)
	dashboard := func(timeout time.Duration) *testapp.App {
		o := opts
		o.UpstreamTimeout, o.PageRetryBudget = timeout, time.Millisecond
		o.APIOptions = func(a *apiclient.Options) { a.MaxResponseBytes = testMaxResponse }
		app := testapp.New(t, o)
		t.Cleanup(app.Server.Close)
		return app
	}
	short, generous := dashboard(testUpstreamTimeout), dashboard(generousTimeout)
	login := func() *testapp.Browser {
		b := generous.Browser(t)
		t.Cleanup(b.Client.CloseIdleConnections)
		b.LoginDemo()
		return b
	}
	hang = login().On(short)
	t.Cleanup(hang.Client.CloseIdleConnections)
	return hang, login()
}

// sessionBackend is a session database of the test's own, to share between
// dashboards.
func sessionBackend(t *testing.T) sessions.Backend {
	t.Helper()
	db, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	backend, err := sessions.NewBackend(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { backend.Close() })
	return backend
}

// TestUpstreamFaultsSandbox: each sandbox fault on a page's marketplace
// call gives a specific message within a bounded time, shows no partial
// result, and leaves no goroutine behind.
func TestUpstreamFaultsSandbox(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	t.Run("pages", func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{})
		mp, err := demo.Start(sb)
		if err != nil {
			t.Fatal(err)
		}
		defer mp.Close()
		hangB, otherB := faultBrowsers(t, testapp.Options{Market: mp})
		tests := []struct {
			kind   sandbox.FaultKind
			status int
			title  string
		}{
			{sandbox.FaultRateLimit, http.StatusTooManyRequests, "busy"},
			{sandbox.FaultUnavailable, http.StatusServiceUnavailable, "busy"},
			{sandbox.FaultInternal, http.StatusBadGateway, "answered with an error"},
			{sandbox.FaultMalformedJSON, http.StatusBadGateway, "Unreadable answer"},
			{sandbox.FaultTruncated, http.StatusBadGateway, "Unreadable answer"},
			{sandbox.FaultReset, http.StatusBadGateway, "No answer"},
			{sandbox.FaultHang, http.StatusGatewayTimeout, "slow"},
			{sandbox.FaultHTML, http.StatusBadGateway, "Unreadable answer"},
		}
		for _, tt := range tests {
			for _, page := range []struct{ path, route, table string }{
				{"/orders", sandbox.RouteB2BOrders, "#orders-table"},
				{"/prices", sandbox.RouteRPCList, "#prices-form table"},
				{"/return-boxes", sandbox.RouteReturnBoxes, "table"},
			} {
				t.Run(tt.kind.String()+page.path, func(t *testing.T) {
					sb.ClearFaults()
					sb.InjectFault(sandbox.Fault{Route: page.route, Kind: tt.kind, Times: -1})
					defer sb.ClearFaults()
					b := otherB
					if tt.kind == sandbox.FaultHang {
						b = hangB
					}
					start := time.Now()
					p := b.Get(page.path)
					if d := time.Since(start); tt.kind == sandbox.FaultHang && d > hangBound {
						t.Errorf("a hang held the page for %v: the upstream timeout did not cut it", d)
					}
					if p.Status != tt.status || !strings.Contains(p.Text("[data-testid=error] h1"), tt.title) {
						t.Errorf("status %d, title %q; want %d and %q", p.Status, p.Text("[data-testid=error] h1"), tt.status, tt.title)
					}
					if p.Has(page.table) {
						t.Error("a result table is shown on an error page")
					}
				})
			}
		}
	})
}

// market is a marketplace in front of the sandbox that misbehaves on
// demand for the nomenclature list (JSON-RPC) and the B2B order list.
type market struct {
	mu   sync.Mutex
	mode string
}

func (m *market) set(mode string) { m.mu.Lock(); m.mode = mode; m.mu.Unlock() }
func (m *market) get() string     { m.mu.Lock(); defer m.mu.Unlock(); return m.mode }

func (m *market) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode := m.get()
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var rpc struct {
			ID     string `json:"id"`
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &rpc)
		target := r.URL.Path == "/jsonrpc" && strings.Contains(rpc.Method, "nomenclatures.list")
		if mode == "" || !target {
			next.ServeHTTP(w, r)
			return
		}
		switch mode {
		case "dribble": // headers at once, then a byte now and then, forever
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			for i := 0; ; i++ {
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		case "reset-after-headers":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":"` + rpc.ID + `","result":{"items":[`))
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				conn.Close()
			}
		case "wrong-content-type":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"result":{}}`, rpc.ID)
		case "50MB":
			w.Header().Set("Content-Type", "application/json")
			chunk := bytes.Repeat([]byte(" "), 1<<20)
			for range 50 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "50MB-announced":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", fmt.Sprint(50<<20))
			w.WriteHeader(200)
		case "id-mismatch":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":"not-your-request","result":{"items":[],"pagination":{"page":1,"limit":20,"total":0,"pages":0}}}`)
		case "unknown-code":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"error":{"code":-31999,"message":"<b>strange</b>"}}`, rpc.ID)
		}
	})
}

// TestUpstreamFaultsWire: faults the sandbox has no switch for, from a
// marketplace in front of it.
func TestUpstreamFaultsWire(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	t.Run("pages", func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{})
		m := &market{}
		front := httptest.NewServer(m.handler(sb))
		defer front.Close()
		mp := &demo.Marketplace{Sandbox: sb, B2BURL: front.URL, B2BTestURL: front.URL + "/test", SellerURL: front.URL}
		hangB, otherB := faultBrowsers(t, testapp.Options{Market: mp})
		tests := []struct {
			mode   string
			status int
			title  string
		}{
			{"dribble", http.StatusGatewayTimeout, "slow"},
			{"reset-after-headers", http.StatusBadGateway, "Unreadable answer"},
			{"wrong-content-type", http.StatusBadGateway, "Unreadable answer"},
			{"50MB", http.StatusBadGateway, "Unreadable answer"},
			{"50MB-announced", http.StatusBadGateway, "Unreadable answer"},
			{"id-mismatch", http.StatusBadGateway, "Unreadable answer"},
			{"unknown-code", http.StatusBadGateway, "answered with an error"},
		}
		for _, tt := range tests {
			t.Run(tt.mode, func(t *testing.T) {
				m.set(tt.mode)
				defer m.set("")
				b := otherB
				if tt.mode == "dribble" {
					b = hangB
				}
				start := time.Now()
				p := b.Get("/prices")
				if d := time.Since(start); tt.mode == "dribble" && d > hangBound {
					t.Errorf("a dribble held the page for %v: the upstream timeout did not cut it", d)
				}
				if p.Status != tt.status || !strings.Contains(p.Text("[data-testid=error] h1"), tt.title) {
					t.Errorf("status %d, title %q, message %q; want %d and %q", p.Status, p.Text("[data-testid=error] h1"), p.Text("[data-testid=error] p"), tt.status, tt.title)
				}
				if p.Has("#prices-form table") {
					t.Error("a partial price table is shown")
				}
				if strings.Contains(p.Body, "<b>strange</b>") {
					t.Error("marketplace markup reached the page")
				}
			})
		}
		m.set("")
		if p := otherB.Get("/prices"); p.Status != http.StatusOK {
			t.Errorf("after the faults: %d", p.Status)
		}
	})
}
