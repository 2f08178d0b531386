package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestOneRequestIDPerRequest: a page whose marketplace call meets a 429
// and is retried logs its access line, the retry and the upstream calls
// under the page's request_id, the marketplace calls' own ids under
// upstream_request_id; the access line names the route template and the
// bytes written.
func TestOneRequestIDPerRequest(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BOrders, Kind: sandbox.FaultRateLimit, Times: 1, RetryAfter: "0"})
	defer app.Sandbox.ClearFaults()
	p := b.Get("/orders")
	id := p.Header.Get("X-Request-ID")
	if p.Status != http.StatusOK || id == "" {
		t.Fatalf("GET /orders after one 429: %d, request id %q", p.Status, id)
	}
	var mine []string
	for _, line := range strings.Split(app.Logs.String(), "\n") {
		if strings.Contains(line, "request_id="+id) && !strings.Contains(line, "upstream_request_id="+id) {
			mine = append(mine, line)
		}
	}
	find := func(msg string) string {
		for _, l := range mine {
			if strings.Contains(l, msg) {
				return l
			}
		}
		t.Errorf("no %s line under request_id=%s; the request's lines: %q", msg, id, mine)
		return ""
	}
	access := find("msg=request ")
	retry := find(`msg="apiclient retry"`)
	upstream := find(`msg="apiclient request"`)
	for _, l := range []string{access, retry, upstream} {
		if strings.Count(l, " request_id=") != 1 {
			t.Errorf("the request id is not there exactly once: %q", l)
		}
	}
	for _, l := range []string{retry, upstream} {
		if l != "" && !strings.Contains(l, "upstream_request_id=") {
			t.Errorf("an upstream line without the call's own id: %q", l)
		}
	}
	if access != "" && (!strings.Contains(access, "route=/a/:account/orders") && !strings.Contains(access, "route=/orders") || !strings.Contains(access, "bytes=")) {
		t.Errorf("the access line lacks the route template or the bytes: %q", access)
	}
}
