package metrics_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/sellerdesk/sellerdesk/app/metrics"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

var key1001 = copystore.Key{SellerID: 1001, Env: "test"}

// newDashboard is a test dashboard with metrics on, its copy of seller
// 1001 complete, and a browser logged in as that seller.
func newDashboard(t *testing.T) (*testapp.App, *testapp.Browser, *metrics.Metrics) {
	t.Helper()
	mx := metrics.New()
	app := testapp.New(t, testapp.Options{Metrics: mx, Catalog: true, Jobs: &bulkjobs.RunnerOptions{},
		Sandbox: sandbox.Options{ProductsPerSeller: 30}, PageRetryBudget: 10 * time.Second})
	b := app.Browser(t)
	b.LoginDemo()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, err := app.Catalog.Store().SyncStates(context.Background(), key1001)
		if err != nil {
			t.Fatal(err)
		}
		done := !app.Catalog.Running(key1001)
		for _, k := range copystore.Kinds {
			done = done && st[k].Complete() && !st[k].Running
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the copy is not complete after 60 s: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return app, b, mx
}

// scrape GETs the metrics handler's /metrics as Prometheus would.
func scrape(t *testing.T, mx *metrics.Metrics) string {
	t.Helper()
	srv := httptest.NewServer(mx.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + metrics.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %d %s", resp.StatusCode, body)
	}
	return string(body)
}

// families gathers the registry by name.
func families(t *testing.T, mx *metrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := mx.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	return out
}

// sample is the value of name's series with exactly labels (counter,
// gauge, or a histogram's count), and whether there is one.
func sample(fams map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range labels {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// allSeries are every series the metrics promise.
var allSeries = []string{
	"sellerdesk_build_info",
	"sellerdesk_http_request_duration_seconds",
	"sellerdesk_upstream_requests_total", "sellerdesk_upstream_request_duration_seconds", "sellerdesk_upstream_retries_total",
	"sellerdesk_upstream_waits_total", "sellerdesk_upstream_wait_seconds_total",
	"sellerdesk_seller_lock_wait_seconds",
	"sellerdesk_jobs", "sellerdesk_job_rows_total",
	"sellerdesk_copy_age_seconds", "sellerdesk_copy_age_max_seconds", "sellerdesk_copies_incomplete", "sellerdesk_sync_stops_total",
	"sellerdesk_page_gate_waiting", "sellerdesk_page_gate_free_slots", "sellerdesk_page_gate_wait_seconds",
	"sellerdesk_db_connections", "sellerdesk_db_max_connections", "sellerdesk_db_waits_total", "sellerdesk_db_wait_seconds_total",
	"sellerdesk_session_store_errors_total", "sellerdesk_metrics_read_errors_total",
	"go_goroutines", "process_cpu_seconds_total",
}

// A short load through a dashboard with metrics on (pages from the copy,
// the history, a live order read through a 429, a path no route has)
// leaves every series on the scrape, with the load in them.
func TestEverySeriesAfterLoad(t *testing.T) {
	app, b, mx := newDashboard(t)
	for range 3 {
		for _, p := range []string{"/nomenclature", "/prices", "/orders", "/return-boxes", "/history"} {
			if pg := b.Get(p); pg.Status != http.StatusOK {
				t.Fatalf("GET %s: %d", p, pg.Status)
			}
		}
	}
	b.Get("/no-such-page")
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BOrders, Kind: sandbox.FaultRateLimit, RetryAfter: "1"})
	nr := app.Sandbox.OrderNumbers(1001, "")[0]
	if pg := b.Get("/orders/" + nr); pg.Status != http.StatusOK {
		t.Fatalf("the order page after a 429: %d", pg.Status)
	}

	body := scrape(t, mx)
	for _, name := range allSeries {
		if !strings.Contains(body, "\n"+name+"{") && !strings.Contains(body, "\n"+name+" ") &&
			!strings.Contains(body, "\n"+name+"_bucket{") && !strings.Contains(body, "\n"+name+"_count ") {
			t.Errorf("the scrape lacks %s", name)
		}
	}

	fams := families(t, mx)
	for _, c := range []struct {
		name   string
		labels map[string]string
		min    float64
	}{
		{"sellerdesk_http_request_duration_seconds", map[string]string{"route": "/a/:account/nomenclature", "method": "GET", "status": "2xx"}, 3},
		{"sellerdesk_http_request_duration_seconds", map[string]string{"route": metrics.Unmatched, "method": "GET", "status": "4xx"}, 1},
		{"sellerdesk_upstream_requests_total", map[string]string{"interface": "seller_rpc", "name": "v1.nomenclatures.list", "status": "2xx"}, 1},
		{"sellerdesk_upstream_requests_total", map[string]string{"interface": "b2b", "name": "list orders", "status": "429"}, 1},
		{"sellerdesk_upstream_retries_total", map[string]string{"interface": "b2b", "name": "list orders", "status": "429"}, 1},
		{"sellerdesk_upstream_waits_total", map[string]string{"waiter": "client", "status": "429"}, 1},
		{"sellerdesk_upstream_wait_seconds_total", map[string]string{"waiter": "client", "status": "429"}, 1},
		{"sellerdesk_seller_lock_wait_seconds", map[string]string{"user": metrics.LockCopy}, 1},
		{"sellerdesk_page_gate_wait_seconds", nil, 15},
		{"sellerdesk_copy_age_seconds", nil, 1},
		{"sellerdesk_page_gate_free_slots", nil, 1},
		{"sellerdesk_db_max_connections", map[string]string{"pool": "writer"}, 1},
	} {
		v, ok := sample(fams, c.name, c.labels)
		if !ok || v < c.min {
			t.Errorf("%s%v = %v (present %v), want at least %v", c.name, c.labels, v, ok, c.min)
		}
	}
	if v, ok := sample(fams, "sellerdesk_jobs", map[string]string{"state": bulkjobs.StateDone}); !ok || v != 0 {
		t.Errorf("sellerdesk_jobs{state=done} = %v (present %v), want 0", v, ok)
	}
}

func randHex(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// However many distinct raw paths, ids and order numbers the dashboard
// answers, the route label keeps to the registered templates (and
// "unmatched"), and no label value holds the seller's id, the client id,
// a token, an order number or an id from a path.
func TestLabelSetsBounded(t *testing.T) {
	app, b, mx := newDashboard(t)
	var raw []string // values a label must never hold
	for i := range 500 {
		id := randHex(t)
		raw = append(raw, id)
		switch i % 5 {
		case 0, 1:
			b.Get("/bulk/jobs/" + id)
		case 2:
			b.Get("/zz-" + id)
		case 3:
			b.Get("/static/" + id + ".js")
		case 4:
			b.Get("/bulk/jobs/" + id + "/errors.csv")
		}
	}
	nrs := app.Sandbox.OrderNumbers(1001, "")
	for _, nr := range nrs[:min(5, len(nrs))] {
		raw = append(raw, nr)
		b.Get("/orders/" + nr)
	}
	for i := range 5 {
		nr := fmt.Sprintf("9%08d", i)
		raw = append(raw, nr)
		b.Get("/orders/" + nr)
	}

	templates := map[string]bool{metrics.Unmatched: true}
	for _, r := range app.Handler.Routes() {
		templates[r.Path] = true
	}
	routes := map[string]bool{}
	fams := families(t, mx)
	for name, f := range fams {
		if !strings.HasPrefix(name, "sellerdesk_") || name == "sellerdesk_build_info" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				v := l.GetValue()
				if l.GetName() == "route" {
					routes[v] = true
					if !templates[v] {
						t.Errorf("%s: route %q is no registered template", name, v)
					}
				}
				for _, bad := range append([]string{"1001", "demo-1001", "sandbox-secret", "eyJ"}, raw...) {
					if strings.Contains(v, bad) {
						t.Errorf("%s: label %s=%q holds %q", name, l.GetName(), v, bad)
					}
				}
			}
		}
	}
	if len(routes) > 12 {
		t.Errorf("%d route label values after 500 distinct paths, want a handful: %v", len(routes), routes)
	}
	if !routes[metrics.Unmatched] || !routes["/a/:account/bulk/jobs/:id"] || !routes["/a/:account/orders/:orderNr"] {
		t.Errorf("route label values %v lack unmatched, the job's or the order's template", routes)
	}
}
