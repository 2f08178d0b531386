package handlers_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// routeRecorder is a handlers.Observer that keeps what it was told.
type routeRecorder struct {
	mu     sync.Mutex
	routes []string
	gate   int
}

func (r *routeRecorder) Request(route, method string, status int, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes = append(r.routes, method+" "+route+" "+http.StatusText(status))
}

func (r *routeRecorder) GateWait(time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gate++
}

// The observer hears each request by its route's template, never its raw
// path (a job's id, a path no route has), and each page's wait at the
// local gate.
func TestObserverHearsRouteTemplates(t *testing.T) {
	rec := &routeRecorder{}
	app := testapp.New(t, testapp.Options{Observer: rec})
	b := app.Browser(t)
	b.LoginDemo()
	rec.mu.Lock()
	rec.routes, rec.gate = nil, 0
	rec.mu.Unlock()
	b.Get("/healthz")
	b.Get("/no-such-page-4711")
	b.Get("/history")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := map[string]bool{"GET /healthz OK": false, "GET /a/:account/* Not Found": false, "GET /a/:account/history OK": false}
	for _, r := range rec.routes {
		if _, ok := want[r]; ok {
			want[r] = true
		}
	}
	for r, seen := range want {
		if !seen {
			t.Errorf("the observer did not hear %q; heard %q", r, rec.routes)
		}
	}
	for _, r := range rec.routes {
		if strings.Contains(r, "4711") || strings.Contains(r, "/a/demo") {
			t.Errorf("a raw path reached the observer: %q", r)
		}
	}
	if rec.gate == 0 {
		t.Error("the history page's wait at the local gate was not observed")
	}
}
