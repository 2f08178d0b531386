package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const validTokenBody = `{"client_id":"demo-1001","client_secret":"sandbox-secret-1001","grant_type":"client_credentials"}`

func TestB2BToken(t *testing.T) {
	blank := func(f string) string { return `{"field":"` + f + `","message":"This value should not be blank."}` }
	bad := func(fields ...string) string {
		return `{"code":0,"description":"This value is not valid.","errors":[` + strings.Join(fields, ",") + `]}`
	}
	tests := []struct {
		name, method, target, body, ctype string
		status                            int
		want                              string // exact body; "" = a token
	}{
		{"post json", "POST", "/auth/token", validTokenBody, "application/json", 200, ""},
		{"post json test env", "POST", "/test/auth/token", validTokenBody, "application/json", 200, ""},
		{"get query", "GET", "/auth/token?client_id=demo-1002&client_secret=sandbox-secret-1002&grant_type=client_credentials", "", "", 200, ""},
		{"post form", "POST", "/auth/token", "client_id=demo-1001&client_secret=sandbox-secret-1001&grant_type=client_credentials", "application/x-www-form-urlencoded", 200, ""},
		{"json sent as form", "POST", "/auth/token", validTokenBody, "application/x-www-form-urlencoded", 200, ""},
		{"seller 1003 in test env", "POST", "/test/auth/token", `{"client_id":"test-1003","client_secret":"sandbox-secret-1003","grant_type":"client_credentials"}`, "application/json", 200, ""},
		{"seller 1003 in production", "POST", "/auth/token", `{"client_id":"test-1003","client_secret":"sandbox-secret-1003","grant_type":"client_credentials"}`, "application/json", 400,
			bad(`{"field":"client_id","message":"These credentials are not valid for the production environment; they work in the test environment only."}`)},
		{"wrong secret", "POST", "/auth/token", `{"client_id":"demo-1001","client_secret":"nope","grant_type":"client_credentials"}`, "application/json", 400,
			bad(`{"field":"client_id","message":"Invalid client credentials."}`)},
		{"unknown client", "GET", "/test/auth/token?client_id=x&client_secret=y&grant_type=client_credentials", "", "", 400,
			bad(`{"field":"client_id","message":"Invalid client credentials."}`)},
		{"empty body", "POST", "/auth/token", "", "application/json", 400, bad(blank("client_id"), blank("client_secret"), blank("grant_type"))},
		{"invalid json", "POST", "/auth/token", `{"client_id":`, "application/json", 400, bad(`{"field":"body","message":"Invalid JSON."}`)},
		{"json array", "POST", "/auth/token", `[1]`, "application/json", 400, bad(`{"field":"body","message":"Invalid JSON."}`)},
		{"wrong grant", "POST", "/auth/token", `{"client_id":"demo-1001","client_secret":"sandbox-secret-1001","grant_type":"password"}`, "application/json", 400,
			bad(`{"field":"grant_type","message":"The value you selected is not a valid choice."}`)},
		{"number id", "POST", "/auth/token", `{"client_id":1001,"client_secret":"sandbox-secret-1001","grant_type":"client_credentials"}`, "application/json", 400,
			bad(`{"field":"client_id","message":"This value should be of type string."}`)},
		{"missing secret", "POST", "/auth/token", `{"client_id":"demo-1001","grant_type":"client_credentials"}`, "application/json", 400, bad(blank("client_secret"))},
		{"wrong method", "DELETE", "/auth/token", "", "", 405, `{"code":0,"description":"Method not allowed.","errors":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			var hdr []string
			if tc.ctype != "" {
				hdr = []string{"Content-Type", tc.ctype}
			}
			r := doReqCT(t, s, tc.method, tc.target, tc.body, hdr...)
			if tc.want != "" {
				expect(t, r, tc.status, tc.want)
				if n := s.Counters().TokensIssued; len(n) != 0 {
					t.Errorf("tokens issued on failure: %v", n)
				}
				return
			}
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			var tok map[string]any
			_ = json.Unmarshal(r.body, &tok)
			if tok["token_type"] != "Bearer" || tok["expires_in"] != 900.0 || tok["access_token"] == "" || tok["refresh_token"] == "" || len(tok) != 4 {
				t.Fatalf("token body = %s", r.body)
			}
		})
	}
}

// doReqCT is doReq with an explicit Content-Type (or none).
func doReqCT(t *testing.T, s *Sandbox, method, target, body string, header ...string) result {
	t.Helper()
	req := httptestRequest(method, target, body)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return serve(s, req)
}

func TestB2BTokenCounters(t *testing.T) {
	s := New(Options{})
	b2bToken(t, s, "", cred1001)
	b2bToken(t, s, "", cred1002)
	b2bToken(t, s, "/test", cred1003)
	sellerToken(t, s, cred1003)
	want := map[string]int{"b2b/production": 2, "b2b/test": 1, "seller": 1}
	if diff := cmp.Diff(want, s.Counters().TokensIssued); diff != "" {
		t.Fatal(diff)
	}
}

type orderList struct {
	Page, Limit, Pages, Total int
	Embedded                  struct {
		Orders []map[string]any `json:"orders"`
	} `json:"_embedded"`
	Links map[string]struct {
		Href string `json:"href"`
	} `json:"_links"`
}

func listOrders(t *testing.T, s *Sandbox, tok, query string) orderList {
	t.Helper()
	r := doReq(t, s, http.MethodGet, "/api/v1/orders"+query, "", bearer(tok)...)
	if r.status != http.StatusOK {
		t.Fatalf("orders%s: %d %s", query, r.status, r.body)
	}
	var l orderList
	if err := json.Unmarshal(r.body, &l); err != nil {
		t.Fatalf("orders JSON: %v", err)
	}
	return l
}

func TestOrders(t *testing.T) {
	s := New(Options{})
	tok := b2bToken(t, s, "", cred1001)

	t.Run("default page", func(t *testing.T) {
		l := listOrders(t, s, tok, "")
		if l.Page != 1 || l.Limit != 20 || l.Total < 250 || l.Pages != (l.Total+19)/20 || len(l.Embedded.Orders) != 20 {
			t.Fatalf("page=%d limit=%d total=%d pages=%d n=%d", l.Page, l.Limit, l.Total, l.Pages, len(l.Embedded.Orders))
		}
		if l.Links["self"].Href != "/api/v1/orders?limit=20&page=1" || l.Links["next"].Href != "/api/v1/orders?limit=20&page=2" {
			t.Fatalf("links = %+v", l.Links)
		}
		if _, ok := l.Links["prev"]; ok {
			t.Fatal("first page has a prev link")
		}
		o := l.Embedded.Orders[0]
		for _, f := range []string{"id", "orderNr", "status", "paymentMethod", "fullSum", "deliveryPrice", "currency", "createdAt", "updatedAt", "isConfirmed", "itemQuantity", "items"} {
			if _, ok := o[f]; !ok {
				t.Errorf("order lacks %s: %v", f, o)
			}
		}
		item := o["items"].([]any)[0].(map[string]any)
		for _, f := range []string{"id", "sku", "marketplaceSku", "description", "size", "status", "salePrice", "paidPrice"} {
			if _, ok := item[f]; !ok {
				t.Errorf("item lacks %s: %v", f, item)
			}
		}
	})
	t.Run("newest first and complete", func(t *testing.T) {
		seen := map[string]bool{}
		statuses := map[string]int{}
		var prev string
		for page := 1; ; page++ {
			l := listOrders(t, s, tok, fmt.Sprintf("?limit=100&page=%d", page))
			for _, o := range l.Embedded.Orders {
				nr, created := o["orderNr"].(string), o["createdAt"].(string)
				if seen[nr] {
					t.Fatalf("order %s twice", nr)
				}
				seen[nr] = true
				statuses[o["status"].(string)]++
				if prev != "" && created > prev {
					t.Fatalf("not newest first: %s after %s", created, prev)
				}
				prev = created
			}
			if page >= l.Pages {
				if len(seen) != l.Total {
					t.Fatalf("saw %d orders, total %d", len(seen), l.Total)
				}
				break
			}
		}
		for _, st := range orderStatuses {
			if statuses[st] == 0 {
				t.Errorf("no order with status %s", st)
			}
		}
	})
	t.Run("status filter", func(t *testing.T) {
		l := listOrders(t, s, tok, "?status=canceled&limit=100")
		if l.Total == 0 || l.Total != len(s.OrderNumbers(1001, "canceled")) {
			t.Fatalf("total %d", l.Total)
		}
		for _, o := range l.Embedded.Orders {
			if o["status"] != "canceled" {
				t.Fatalf("status %v", o["status"])
			}
		}
		if !strings.Contains(l.Links["self"].Href, "status=canceled") {
			t.Fatalf("self link drops the filter: %s", l.Links["self"].Href)
		}
	})
	t.Run("past the last page", func(t *testing.T) {
		l := listOrders(t, s, tok, "?page=999")
		if len(l.Embedded.Orders) != 0 || l.Total < 250 {
			t.Fatalf("n=%d total=%d", len(l.Embedded.Orders), l.Total)
		}
	})
	t.Run("sellers see their own orders", func(t *testing.T) {
		other := listOrders(t, s, b2bToken(t, s, "", cred1002), "?limit=1")
		mine := listOrders(t, s, tok, "?limit=1")
		if other.Embedded.Orders[0]["orderNr"] == mine.Embedded.Orders[0]["orderNr"] {
			t.Fatal("sellers share orders")
		}
	})
	t.Run("test environment links", func(t *testing.T) {
		r := doReq(t, s, http.MethodGet, "/test/api/v1/orders?limit=5&page=2", "", bearer(b2bToken(t, s, "/test", cred1003))...)
		var l orderList
		_ = json.Unmarshal(r.body, &l)
		if r.status != 200 || l.Links["prev"].Href != "/test/api/v1/orders?limit=5&page=1" {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})

	bad := func(fields ...string) string {
		return `{"code":0,"description":"This value is not valid.","errors":[` + strings.Join(fields, ",") + `]}`
	}
	limitMsg := `{"field":"limit","message":"This value should be between 1 and 100."}`
	pageMsg := `{"field":"page","message":"This value should be between 1 and 1000000."}`
	validation := []struct{ query, want string }{
		{"?limit=0", bad(limitMsg)},
		{"?limit=101", bad(limitMsg)},
		{"?limit=-1", bad(limitMsg)},
		{"?limit=abc", bad(`{"field":"limit","message":"This value should be of type integer."}`)},
		{"?limit=", bad(`{"field":"limit","message":"This value should be of type integer."}`)},
		{"?limit=1.5", bad(`{"field":"limit","message":"This value should be of type integer."}`)},
		{"?page=0", bad(pageMsg)},
		{"?page=99999999999999999999", bad(`{"field":"page","message":"This value should be of type integer."}`)},
		{"?status=shipped", bad(`{"field":"status","message":"The value you selected is not a valid choice."}`)},
		{"?status=NEW", bad(`{"field":"status","message":"The value you selected is not a valid choice."}`)},
		{"?page=0&limit=500&status=x", bad(pageMsg, limitMsg, `{"field":"status","message":"The value you selected is not a valid choice."}`)},
		{"?limit=%zz", bad(`{"field":"query","message":"Invalid query string."}`)},
	}
	for _, tc := range validation {
		t.Run("400 "+tc.query, func(t *testing.T) {
			expect(t, doReq(t, s, http.MethodGet, "/api/v1/orders"+tc.query, "", bearer(tok)...), 400, tc.want)
		})
	}
	for _, limit := range []int{1, 50, 100} {
		l := listOrders(t, s, tok, fmt.Sprintf("?limit=%d", limit))
		if len(l.Embedded.Orders) != limit {
			t.Errorf("limit %d gave %d orders", limit, len(l.Embedded.Orders))
		}
	}
}

func TestResend(t *testing.T) {
	s := New(Options{ResendProcessing: 2 * time.Minute})
	tok := b2bToken(t, s, "", cred1001)
	mine := s.OrderNumbers(1001, "")
	theirs := s.OrderNumbers(1002, "")
	post := func(body string) result {
		return doReq(t, s, http.MethodPost, "/api/v1/notifications/resend", body, bearer(tok)...)
	}

	r := post(`{"orderNrs":["` + mine[0] + `"],"types":["statusChanged"]}`)
	var got resendResult
	_ = json.Unmarshal(r.body, &got)
	if r.status != http.StatusAccepted || got.Queued != 1 || len(got.Notifications) != 1 ||
		got.Notifications[0].OrderNr != mine[0] || got.Notifications[0].Type != "statusChanged" ||
		got.Notifications[0].Status != "processing" || got.Notifications[0].ID == "" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// All kinds when types is omitted.
	r = post(`{"orderNrs":["` + mine[1] + `","` + mine[1] + `"]}`)
	_ = json.Unmarshal(r.body, &got)
	if r.status != http.StatusAccepted || got.Queued != 3 {
		t.Fatalf("%d %s", r.status, r.body)
	}

	// Touching a processing notification: the spec's 429 body, nothing queued.
	until := s.Now().Add(2 * time.Minute).Format(time.RFC3339)
	r = post(`{"orderNrs":["` + mine[2] + `","` + mine[0] + `"],"types":["statusChanged"]}`)
	expect(t, r, http.StatusTooManyRequests, `{"code":0,"description":"Rate limit has been reached","errors":[],
		"message":"Notification statusChanged for order `+mine[0]+` is already being processed; retry after `+until+`."}`)
	if _, queued := s.NotificationProcessingUntil(mine[2], "statusChanged"); queued {
		t.Fatal("a refused resend queued a notification")
	}
	// Another kind of the same order is free.
	if r := post(`{"orderNrs":["` + mine[0] + `"],"types":["itemStatusChanged"]}`); r.status != http.StatusAccepted {
		t.Fatalf("%d %s", r.status, r.body)
	}
	s.Advance(2*time.Minute - time.Second)
	if r := post(`{"orderNrs":["` + mine[0] + `"],"types":["statusChanged"]}`); r.status != http.StatusTooManyRequests {
		t.Fatalf("still processing: want 429, got %d", r.status)
	}
	s.Advance(time.Second)
	if r := post(`{"orderNrs":["` + mine[0] + `"],"types":["statusChanged"]}`); r.status != http.StatusAccepted {
		t.Fatalf("after processing: want 202, got %d %s", r.status, r.body)
	}

	bad := func(fields ...string) string {
		return `{"code":0,"description":"This value is not valid.","errors":[` + strings.Join(fields, ",") + `]}`
	}
	errs := []struct {
		name, body string
		status     int
		want       string
	}{
		{"another seller's order", `{"orderNrs":["` + theirs[0] + `"]}`, 403, `{"code":0,"description":"Access denied.","errors":[]}`},
		{"unknown order", `{"orderNrs":["RU000000-000000"]}`, 404, `{"code":0,"description":"Resource not found.","errors":[]}`},
		{"invalid json", `{"orderNrs":`, 400, bad(`{"field":"body","message":"Invalid JSON."}`)},
		{"empty body", ``, 400, bad(`{"field":"body","message":"Invalid JSON."}`)},
		{"missing orderNrs", `{}`, 400, bad(`{"field":"orderNrs","message":"This value should not be blank."}`)},
		{"empty orderNrs", `{"orderNrs":[]}`, 400, bad(`{"field":"orderNrs","message":"This value should not be blank."}`)},
		{"orderNrs not array", `{"orderNrs":"RU1"}`, 400, bad(`{"field":"orderNrs","message":"This value should be of type array."}`)},
		{"number in orderNrs", `{"orderNrs":["` + mine[5] + `",7]}`, 400, bad(`{"field":"orderNrs[1]","message":"This value should be of type string."}`)},
		{"unknown type", `{"orderNrs":["` + mine[5] + `"],"types":["statusChanged","bogus"]}`, 400, bad(`{"field":"types[1]","message":"The value you selected is not a valid choice."}`)},
		{"too many", `{"orderNrs":[` + strings.Repeat(`"RU1",`, 100) + `"RU1"]}`, 400, bad(`{"field":"orderNrs","message":"This collection should contain 100 elements or less."}`)},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) { expect(t, post(tc.body), tc.status, tc.want) })
	}
	t.Run("wrong method", func(t *testing.T) {
		r := doReq(t, s, http.MethodGet, "/api/v1/notifications/resend", "", bearer(tok)...)
		expect(t, r, 405, `{"code":0,"description":"Method not allowed.","errors":[]}`)
		if r.header.Get("Allow") != "POST" {
			t.Fatalf("Allow = %q", r.header.Get("Allow"))
		}
	})
}

func TestGiftCertificates(t *testing.T) {
	s := New(Options{})
	tok := b2bToken(t, s, "", cred1001)
	get := func(code string) result {
		return doReq(t, s, http.MethodGet, "/api/v1/gift-certificates/"+url.PathEscape(code), "", bearer(tok)...)
	}
	r := get("GC-1001-0001")
	var cert map[string]any
	_ = json.Unmarshal(r.body, &cert)
	if r.status != 200 || cert["code"] != "GC-1001-0001" || cert["currency"] != "rub" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	expect(t, get("GC-9999-0001"), 404, `{"code":404,"message":"Gift certificate not found","description":"no gift certificate with code GC-9999-0001","errors":[]}`)
	expect(t, get("GC-1002-0001"), 403, `{"code":403,"message":"Forbidden","description":"gift certificate belongs to another seller","errors":[]}`)
	malformed := `{"code":32602,"message":"Invalid params","description":"certificate code must be 4 to 32 characters of A-Z, 0-9 and -","errors":["code: invalid format"]}`
	for _, code := range []string{"gc-1", "<script>", "", "ÄÖÜ-1234", strings.Repeat("A", 33)} {
		expect(t, get(code), 400, malformed)
	}
	r = doReq(t, s, http.MethodPost, "/api/v1/gift-certificates/GC-1001-0001", "{}", bearer(tok)...)
	expect(t, r, 405, `{"code":32601,"message":"Method not found","description":"use GET","errors":[]}`)
}

func TestB2BNotFound(t *testing.T) {
	s := New(Options{})
	tok := b2bToken(t, s, "", cred1001)
	for _, p := range []string{"/", "/api/v1/order", "/api/v1/orders/1", "/test", "/test/", "/test/api/v2/fbs/return-boxes", "/test/jsonrpc", "/api/v3/orders", "/_sandbox/counters", "/auth/token/x"} {
		t.Run(p, func(t *testing.T) {
			expect(t, doReq(t, s, http.MethodGet, p, "", bearer(tok)...), 404, `{"code":0,"description":"Resource not found.","errors":[]}`)
		})
	}
}

func TestRequestIDEcho(t *testing.T) {
	s := New(Options{})
	for _, tc := range []struct{ in, want string }{
		{"7f3c9a2e-req", "7f3c9a2e-req"},
		{"", ""},
		{"bad id with spaces", ""},
		{strings.Repeat("x", 129), ""},
	} {
		r := doReq(t, s, http.MethodGet, "/nowhere", "", "X-Request-ID", tc.in)
		if got := r.header.Get("X-Request-ID"); got != tc.want {
			t.Errorf("X-Request-ID %q echoed as %q, want %q", tc.in, got, tc.want)
		}
	}
}
