package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFaultBodies(t *testing.T) {
	s := New(Options{})
	b2b := b2bToken(t, s, "", cred1001)
	seller := sellerToken(t, s, cred1001)
	orders := func() result { return doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...) }
	gift := func() result {
		return doReq(t, s, http.MethodGet, "/api/v1/gift-certificates/GC-1001-0001", "", bearer(b2b)...)
	}
	list := func() result {
		return doReq(t, s, http.MethodPost, "/jsonrpc", `{"jsonrpc":"2.0","id":"f-1","method":"v1.nomenclatures.list","params":{"seller_id":1001}}`, bearer(seller)...)
	}
	boxes := func() result {
		return doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001", "", bearer(seller)...)
	}
	tests := []struct {
		name       string
		fault      Fault
		send       func() result
		status     int
		want       string
		retryAfter string
	}{
		{"b2b 429 no Retry-After", Fault{Route: RouteB2BOrders, Kind: FaultRateLimit}, orders, 429,
			`{"code":0,"description":"Rate limit has been reached","errors":[],"message":"Too many requests; retry later."}`, ""},
		{"b2b 429 seconds", Fault{Route: RouteB2BOrders, Kind: FaultRateLimit, RetryAfter: "3"}, orders, 429,
			`{"code":0,"description":"Rate limit has been reached","errors":[],"message":"Too many requests; retry later."}`, "3"},
		{"b2b 429 date", Fault{Kind: FaultRateLimit, RetryAfter: "Mon, 02 Nov 2026 09:00:05 GMT"}, orders, 429,
			`{"code":0,"description":"Rate limit has been reached","errors":[],"message":"Too many requests; retry later."}`, "Mon, 02 Nov 2026 09:00:05 GMT"},
		{"b2b 503", Fault{Route: RouteB2BOrders, Kind: FaultUnavailable}, orders, 503, `{"code":0,"description":"Service temporarily unavailable.","errors":[]}`, ""},
		{"b2b 500", Fault{Route: RouteB2BOrders, Kind: FaultInternal}, orders, 500, `{"code":0,"description":"Internal server error.","errors":[]}`, ""},
		{"gift 429", Fault{Route: RouteB2BGiftCert, Kind: FaultRateLimit}, gift, 429, `{"code":429,"message":"Too Many Requests","description":"Rate limit has been reached","errors":[]}`, ""},
		{"gift 503", Fault{Route: RouteB2BGiftCert, Kind: FaultUnavailable}, gift, 503, `{"code":32000,"message":"Server error","description":"Service temporarily unavailable.","errors":[]}`, ""},
		{"gift 500", Fault{Route: RouteB2BGiftCert, Kind: FaultInternal}, gift, 500, `{"code":32603,"message":"Internal error","description":"Internal server error.","errors":[]}`, ""},
		{"rpc 429", Fault{Route: RouteRPCList, Kind: FaultRateLimit, RetryAfter: "1"}, list, 429, `{"jsonrpc":"2.0","id":"f-1","error":{"code":429,"message":"Rate limit has been reached"}}`, "1"},
		{"rpc 503", Fault{Route: RouteRPCList, Kind: FaultUnavailable}, list, 503, `{"jsonrpc":"2.0","id":"f-1","error":{"code":503,"message":"Service temporarily unavailable"}}`, ""},
		{"rpc internal", Fault{Route: RouteRPCList, Kind: FaultInternal}, list, 200, `{"jsonrpc":"2.0","id":"f-1","error":{"code":-32603,"message":"Internal error"}}`, ""},
		{"rest 429", Fault{Route: RouteReturnBoxes, Kind: FaultRateLimit}, boxes, 429, `{"error":{"code":"RATE_LIMITED","message":"Rate limit has been reached"}}`, ""},
		{"rest 503", Fault{Route: RouteReturnBoxes, Kind: FaultUnavailable}, boxes, 503, `{"error":{"code":"SERVICE_UNAVAILABLE","message":"service temporarily unavailable; retry with exponential delay"}}`, ""},
		{"rest 500", Fault{Route: RouteReturnBoxes, Kind: FaultInternal}, boxes, 500, `{"error":{"code":"INTERNAL","message":"internal server error"}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.ClearFaults()
			s.InjectFault(tc.fault)
			r := tc.send()
			expect(t, r, tc.status, tc.want)
			if got := r.header.Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After = %q, want %q", got, tc.retryAfter)
			}
			if r := tc.send(); r.status != 200 {
				t.Errorf("fault fired twice: %d", r.status)
			}
		})
	}
	t.Run("html 502", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteRPCList, Kind: FaultHTML})
		r := list()
		if r.status != 502 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "<h1>502 Bad Gateway</h1>") {
			t.Fatalf("%d %q %s", r.status, r.header.Get("Content-Type"), r.body)
		}
	})
	t.Run("malformed json applies the write", func(t *testing.T) {
		p := s.Products(1001)[10]
		s.InjectFault(Fault{Route: RouteRPCSetPrices, Kind: FaultMalformedJSON})
		r := doReq(t, s, http.MethodPost, "/jsonrpc", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.set-prices","params":{"prices":[{"marketplaceSku":%q,"price":%s}]}}`,
			p.MarketplaceSKU, money(p.Price-100)), bearer(seller)...)
		if r.status != 200 || json.Valid(r.body) || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Fatalf("%d %s", r.status, r.body)
		}
		if got := s.Products(1001)[10].Price; got != p.Price-100 {
			t.Fatalf("price %d, want %d: the write happens before the answer is mangled", got, p.Price-100)
		}
	})
	t.Run("faults hit before auth", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultUnavailable})
		if r := doReq(t, s, http.MethodGet, "/api/v1/orders", ""); r.status != 503 {
			t.Fatalf("%d", r.status)
		}
	})
}

// TestFaultsOverTheWire covers the kinds that need a real connection.
func TestFaultsOverTheWire(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	tok := b2bToken(t, s, "", cred1001)
	get := func(ctx context.Context) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/v1/orders?limit=50", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		return srv.Client().Do(req)
	}

	t.Run("truncated", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultTruncated})
		resp, err := get(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 200 || int64(len(body)) >= resp.ContentLength {
			t.Fatalf("err=%v status=%d read %d of %d", err, resp.StatusCode, len(body), resp.ContentLength)
		}
	})
	t.Run("reset", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultReset})
		resp, err := get(context.Background())
		if err == nil {
			resp.Body.Close()
			t.Fatalf("want a connection error, got %d", resp.StatusCode)
		}
	})
	t.Run("hang until the client gives up", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultHang})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		resp, err := get(ctx)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("want a timeout, got %d", resp.StatusCode)
		}
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 100*time.Millisecond {
			t.Fatalf("err=%v after %v", err, time.Since(start))
		}
	})
	t.Run("healthy afterwards", func(t *testing.T) {
		resp, err := get(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%d", resp.StatusCode)
		}
	})
}

func TestFaultTimesAndEvery(t *testing.T) {
	s := New(Options{})
	tok := b2bToken(t, s, "", cred1001)
	statuses := func(n int) string {
		var out []string
		for range n {
			out = append(out, fmt.Sprint(doReq(t, s, http.MethodGet, "/api/v1/orders?limit=1", "", bearer(tok)...).status))
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name  string
		fault Fault
		want  string
	}{
		{"times 0 means once", Fault{Route: RouteB2BOrders, Kind: FaultUnavailable}, "503 200 200 200"},
		{"times 2", Fault{Route: RouteB2BOrders, Kind: FaultUnavailable, Times: 2}, "503 503 200 200"},
		{"until cleared", Fault{Route: RouteB2BOrders, Kind: FaultUnavailable, Times: -1}, "503 503 503 503"},
		{"every 3rd", Fault{Route: RouteB2BOrders, Kind: FaultInternal, Every: 3}, "200 200 500 200 200 500 200"},
		{"any route", Fault{Kind: FaultRateLimit, Times: 1}, "429 200"},
		{"other route untouched", Fault{Route: RouteRPCList, Kind: FaultInternal, Times: -1}, "200 200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.ClearFaults()
			s.InjectFault(tc.fault)
			if got := statuses(len(strings.Fields(tc.want))); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
	s.ClearFaults()
	s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultUnavailable})
	s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultInternal})
	if got := statuses(3); got != "503 500 200" {
		t.Fatalf("faults in order: %s", got)
	}
	if len(s.Faults()) != 0 {
		t.Fatalf("spent faults still armed: %v", s.Faults())
	}
}

func TestCountersAndLatency(t *testing.T) {
	s := New(Options{})
	b2b := b2bToken(t, s, "", cred1001)
	seller := sellerToken(t, s, cred1002)
	doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...)
	doReq(t, s, http.MethodGet, "/api/v1/orders", "") // 401 counts too
	rpc(t, s, seller, "v1.nomenclatures.list", map[string]any{"seller_id": 1002})
	doReq(t, s, http.MethodPost, "/jsonrpc", "{bad")
	doReq(t, s, http.MethodGet, "/nowhere", "")
	want := Counters{
		TokensIssued: map[string]int{"b2b/production": 1, "seller": 1},
		Requests:     map[string]int{RouteB2BToken: 1, RouteRPCTokens: 1, RouteB2BOrders: 2, RouteRPCList: 1, RouteRPCInvalid: 1, RouteNotFound: 1},
		MaxInFlight: map[string]int{"b2b.token/1001": 1, "rpc.v1.tokens.create/1002": 1, "b2b.orders/1001": 1, "b2b.orders/0": 1,
			"rpc.v1.nomenclatures.list/1002": 1, "rpc.invalid/0": 1, "not-found/0": 1},
	}
	got := s.Counters()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("counters (-want +got):\n%s", diff)
	}
	got.Requests[RouteB2BOrders] = 99
	if s.Counters().Requests[RouteB2BOrders] != 2 {
		t.Fatal("Counters is not a copy")
	}
	s.ResetCounters()
	if diff := cmp.Diff(Counters{TokensIssued: map[string]int{}, Requests: map[string]int{}, MaxInFlight: map[string]int{}}, s.Counters()); diff != "" {
		t.Fatal(diff)
	}

	s.SetLatency(RouteB2BOrders, 60*time.Millisecond)
	start := time.Now()
	doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...)
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Fatalf("latency not applied: %v", d)
	}
	if d := s.faults.latencyFor(RouteRPCList); d != 0 {
		t.Fatalf("latency leaked to another route: %v", d)
	}
	s.SetLatency(RouteB2BOrders, 0)
	s.SetLatency("", 30*time.Millisecond)
	start = time.Now()
	rpc(t, s, seller, "v1.nomenclatures.list", map[string]any{"seller_id": 1002})
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("global latency not applied: %v", d)
	}
}

// TestMaxInFlight checks the concurrency gauge per route and seller. The
// requests hang until released, so they overlap however slow the machine is.
func TestMaxInFlight(t *testing.T) {
	s := New(Options{})
	a := sellerToken(t, s, cred1001)
	b := sellerToken(t, s, cred1002)
	s.InjectFault(Fault{Route: RouteRPCList, Kind: FaultHang, Times: -1})
	ctx, release := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	send := func(ctx context.Context, tok string, seller int64) {
		defer wg.Done()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.list","params":{"seller_id":%d,"limit":1}}`, seller)
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/jsonrpc", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
	for range 5 {
		wg.Add(1)
		go send(ctx, a, 1001)
	}
	for range 2 {
		wg.Add(1)
		go send(ctx, b, 1002)
	}
	deadline := time.Now().Add(20 * time.Second)
	inFlight := func() int {
		s.counters.mu.Lock()
		defer s.counters.mu.Unlock()
		return s.counters.inFlight["rpc.v1.nomenclatures.list/1001"] + s.counters.inFlight["rpc.v1.nomenclatures.list/1002"]
	}
	for inFlight() < 7 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	release()
	wg.Wait()
	s.ClearFaults()
	wg.Add(2)
	send(context.Background(), a, 1001) // sequential: do not raise the maximum
	send(context.Background(), a, 1001)
	c := s.Counters()
	if c.MaxInFlight["rpc.v1.nomenclatures.list/1001"] != 5 || c.MaxInFlight["rpc.v1.nomenclatures.list/1002"] != 2 {
		t.Fatalf("max in flight = %v", c.MaxInFlight)
	}
	if c.Requests[RouteRPCList] != 9 {
		t.Fatalf("requests = %v", c.Requests)
	}
}

func TestAdminSurface(t *testing.T) {
	if r := doReq(t, New(Options{}), http.MethodGet, "/_sandbox/counters", ""); r.status != 404 {
		t.Fatalf("admin served without Options.Admin: %d", r.status)
	}
	s := New(Options{Admin: true})
	call := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		r := doReq(t, s, method, path, body)
		var v map[string]any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Fatalf("%s %s: %s", method, path, r.body)
		}
		return r.status, v
	}
	if st, v := call("GET", "/_sandbox/", ""); st != 200 || len(v["endpoints"].([]any)) == 0 {
		t.Fatalf("%d %v", st, v)
	}
	if st, v := call("POST", "/_sandbox/faults", `{"route":"b2b.orders","kind":"rate_limit","retry_after":"7"}`); st != 201 || len(v["faults"].([]any)) != 1 {
		t.Fatalf("%d %v", st, v)
	}
	tok := b2bToken(t, s, "", cred1001)
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(tok)...); r.status != 429 || r.header.Get("Retry-After") != "7" {
		t.Fatalf("armed fault: %d %q", r.status, r.header.Get("Retry-After"))
	}
	call("POST", "/_sandbox/faults", `{"kind":"unavailable","times":-1}`)
	if st, v := call("GET", "/_sandbox/faults", ""); st != 200 || len(v["faults"].([]any)) != 1 {
		t.Fatalf("%d %v", st, v)
	}
	call("DELETE", "/_sandbox/faults", "")
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(tok)...); r.status != 200 {
		t.Fatalf("after clearing: %d", r.status)
	}
	for _, bad := range []string{`{"kind":"nope"}`, `{"route":"b2b.nope","kind":"hang"}`, `{"kind":"hang","extra":1}`, `{`} {
		if st, _ := call("POST", "/_sandbox/faults", bad); st != 400 {
			t.Errorf("%s: %d", bad, st)
		}
	}
	if st, v := call("POST", "/_sandbox/clock/advance", `{"seconds":901}`); st != 200 || v["now"] != "2026-11-02T09:15:01Z" {
		t.Fatalf("%d %v", st, v)
	}
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(tok)...); r.status != 401 {
		t.Fatalf("token should have expired: %d", r.status)
	}
	if st, v := call("POST", "/_sandbox/token-ttl", `{"seconds":60}`); st != 200 || v["seconds"] != 60.0 {
		t.Fatalf("%d %v", st, v)
	}
	if st, v := call("POST", "/_sandbox/latency", `{"route":"b2b.orders","milliseconds":5}`); st != 200 || v["milliseconds"] != 5.0 {
		t.Fatalf("%d %v", st, v)
	}
	st, v := call("GET", "/_sandbox/counters", "")
	if st != 200 || v["tokens_issued"].(map[string]any)["b2b/production"] != 1.0 || v["requests"].(map[string]any)["b2b.orders"] != 3.0 {
		t.Fatalf("%d %v", st, v)
	}
	call("DELETE", "/_sandbox/counters", "")
	if st, v := call("GET", "/_sandbox/counters", ""); st != 200 || len(v["requests"].(map[string]any)) != 0 {
		t.Fatalf("%d %v", st, v)
	}
	if st, _ := call("POST", "/_sandbox/revoke", `{"client_id":"demo-1002"}`); st != 200 {
		t.Fatal(st)
	}
	if r := doReq(t, s, http.MethodPost, "/auth/token", `{"client_id":"demo-1002","client_secret":"sandbox-secret-1002","grant_type":"client_credentials"}`); r.status != 400 {
		t.Fatalf("revoked credentials got %d", r.status)
	}
	if st, _ := call("POST", "/_sandbox/reset", ""); st != 200 || s.TokenTTL() != DefaultTokenTTL {
		t.Fatalf("reset: %d, ttl %v", st, s.TokenTTL())
	}
	if st, _ := call("GET", "/_sandbox/nope", ""); st != 404 {
		t.Fatal(st)
	}
	if got := s.Counters().Requests; len(got) != 0 {
		t.Fatalf("admin requests were counted: %v", got)
	}
}

func TestReset(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	p := s.Products(1001)[0]
	setPrices(t, s, tok, map[string]any{"marketplaceSku": p.MarketplaceSKU, "price": json.Number(money(p.Price - 1).String())})
	s.InjectFault(Fault{Kind: FaultInternal, Times: -1})
	s.SetLatency("", time.Hour)
	s.Reset()
	if got := s.Products(1001)[0]; got.Price != p.Price {
		t.Fatalf("price after reset %d, want %d", got.Price, p.Price)
	}
	// The token survives a reset; faults and latency do not.
	r := rpc(t, s, tok, "v1.nomenclatures.list", map[string]any{"seller_id": 1001, "limit": 1})
	if strings.Contains(string(r.body), `"error"`) {
		t.Fatalf("%s", short(r.body))
	}
}

// TestConcurrentMix runs every kind of call at once, for the race detector.
func TestConcurrentMix(t *testing.T) {
	s := New(Options{Admin: true, PriceApplyDelay: time.Second})
	b2b := b2bToken(t, s, "", cred1001)
	seller := sellerToken(t, s, cred1001)
	p := s.Products(1001)
	orders := s.OrderNumbers(1001, "")
	calls := []func(i int) *http.Request{
		func(int) *http.Request { return authed(http.MethodGet, "/api/v1/orders?limit=50", "", b2b) },
		func(i int) *http.Request {
			return authed(http.MethodPost, "/api/v1/notifications/resend", `{"orderNrs":["`+orders[i%len(orders)]+`"]}`, b2b)
		},
		func(int) *http.Request {
			return authed(http.MethodPost, "/jsonrpc", `{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.list","params":{"seller_id":1001,"limit":50}}`, seller)
		},
		func(i int) *http.Request {
			return authed(http.MethodPost, "/jsonrpc", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.set-prices","params":{"prices":[{"marketplaceSku":%q,"price":%s}]}}`,
				p[i%len(p)].MarketplaceSKU, money(p[i%len(p)].Price-int64(i))), seller)
		},
		func(i int) *http.Request {
			return authed(http.MethodPost, "/jsonrpc", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.store","params":{"seller_id":1001,"items":[{"warehouse_code":"MSK-1001","barcode":%q,"quantity":%d}]}}`,
				p[i%len(p)].Barcode, i), seller)
		},
		func(int) *http.Request {
			return authed(http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001", "", seller)
		},
		func(int) *http.Request {
			return authed(http.MethodPost, "/_sandbox/clock/advance", `{"seconds":1}`, "")
		},
		func(int) *http.Request { return authed(http.MethodGet, "/_sandbox/counters", "", "") },
		func(i int) *http.Request {
			if i%20 == 0 {
				return authed(http.MethodPost, "/_sandbox/reset", "", "")
			}
			return authed(http.MethodPost, "/_sandbox/faults", `{"kind":"internal","every":7}`, "")
		},
	}
	var wg sync.WaitGroup
	for i := range 120 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, calls[i%len(calls)](i))
			if rec.Code >= 500 && rec.Code != 500 {
				t.Errorf("status %d", rec.Code)
			}
		}()
	}
	wg.Wait()
	s.Products(1001)
	s.Counters()
}

func authed(method, target, body, tok string) *http.Request {
	r := httptestRequest(method, target, body)
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return r
}
