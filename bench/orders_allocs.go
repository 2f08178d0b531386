package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// OrdersPageRig is a dashboard whose upstream answers are replayed, with a
// logged-in session, serving one list page again and again: the page's
// time and allocations are the dashboard's own work.
type OrdersPageRig struct {
	e      *Env
	req    *http.Request
	rows   func([]byte) int
	Cookie string
}

// NewOrdersPageRig starts the rig on /orders?limit=50; Close stops it.
func NewOrdersPageRig() (*OrdersPageRig, error) {
	return newPageRig(sandbox.Options{}, "/orders?limit=50", countRows)
}

// NewPricesPageRig starts the rig on the price editor with 50 products (a
// product is listed once, over its three warehouses' records); Close stops
// it.
func NewPricesPageRig() (*OrdersPageRig, error) {
	return newPageRig(sandbox.Options{ProductsPerSeller: 50}, "/prices?limit=200", func(b []byte) int { return strings.Count(string(b), `data-testid="price-`) })
}

func newPageRig(market sandbox.Options, path string, rows func([]byte) int) (*OrdersPageRig, error) {
	// Upstream answers come from memory after the first of each (see
	// memAnswers), so the count is the dashboard's own work, not the
	// sandbox's or the network's.
	e, err := Start(EnvOptions{Sandbox: market, Transport: &memAnswers{next: newTransport(), seen: map[string]memAnswer{}}})
	if err != nil {
		return nil, err
	}
	u, err := e.Login()
	if err != nil {
		e.Close()
		return nil, err
	}
	g := &OrdersPageRig{e: e, Cookie: u.Cookie, rows: rows}
	g.req = httptest.NewRequest(http.MethodGet, dash(path), nil)
	g.req.Header.Set("Cookie", u.Cookie)
	if n, err := g.Serve(); err != nil || n == 0 { // records the upstream answers
		e.Close()
		return nil, fmt.Errorf("%s: %d rows, %v", path, n, err)
	}
	return g, nil
}

// Serve renders the rig's page once through the echo handler and returns
// its row count.
func (g *OrdersPageRig) Serve() (int, error) {
	w := httptest.NewRecorder()
	g.e.App.ServeHTTP(w, g.req)
	if w.Code != http.StatusOK {
		return 0, fmt.Errorf("status %d", w.Code)
	}
	return g.rows(w.Body.Bytes()), nil
}

// Close stops the rig.
func (g *OrdersPageRig) Close() { g.e.Close() }

// OrdersPageAllocs (P7, for information) counts allocations of one /orders
// page with 50 rows through the echo handler, with a warm session and token
// and the upstream answer replayed. It is no target: pages are judged by
// their time under load (P1, P6); the count says what a page costs the
// collector.
func OrdersPageAllocs(s Sizes) (Result, error) {
	r := Result{ID: "P7", Target: "none: information", Info: true}
	g, err := NewOrdersPageRig()
	if err != nil {
		return r, err
	}
	defer g.Close()
	var serveErr error
	allocs := testing.AllocsPerRun(s.P7Runs, func() {
		if _, err := g.Serve(); err != nil {
			serveErr = err
		}
	})
	if serveErr != nil {
		return r, serveErr
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for range s.P7Runs {
		_, _ = g.Serve()
	}
	runtime.ReadMemStats(&ms1)
	bytesPer := (ms1.TotalAlloc - ms0.TotalAlloc) / uint64(s.P7Runs)
	r.Figure = fmt.Sprintf("%.0f allocs (%d B) per /orders page, 50 rows", allocs, bytesPer)
	r.Detail = append(r.Detail, fmt.Sprintf("testing.AllocsPerRun(%d) around App.ServeHTTP with a warm session and token; the upstream answer is replayed from memory by the API client's transport, so the count is the dashboard's own: middleware, the session load from SQLite (one read, tokens included), the API client's JSON decode and the render", s.P7Runs))
	return r, nil
}

// Sessions is exported for tests that size the store.
var _ = sessions.ErrNotFound
