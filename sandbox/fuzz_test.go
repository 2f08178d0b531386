package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzJSONRPCEnvelope throws arbitrary bodies at the JSON-RPC endpoint: no
// input may panic, leave HTTP 200, or produce anything but one well-formed
// JSON-RPC response whose id echoes the request's exactly.
func FuzzJSONRPCEnvelope(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":"1","method":"v1.nomenclatures.list","params":{"seller_id":1001,"page":1,"limit":5}}`,
		`{"jsonrpc":"2.0","id":2,"method":"v1.nomenclatures.store","params":{"seller_id":1001,"items":[{"warehouse_code":"MSK-1001","barcode":"4601001000004","quantity":3}]}}`,
		`{"jsonrpc":"2.0","id":null,"method":"v1.nomenclatures.set-prices","params":{"prices":[{"marketplaceSku":"MP48365BDUNAD4LL","price":20000.5,"salePrice":1e3}]}}`,
		`{"jsonrpc":"2.0","id":"t","method":"v1.tokens.create","params":{"client_id":"demo-1001","client_secret":"sandbox-secret-1001","grant_type":"client_credentials"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"v1.nomenclatures.list"}]`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`{"jsonrpc":"1.0","id":1e400,"method":"v1.nomenclatures.list","params":[]}`,
		`{"jsonrpc":"2.0","id":-0.0,"method":"v1.nomenclatures.set-prices","params":{"prices":[{"marketplaceSku":"a","price":1e99999999999}]}}`,
		`{"jsonrpc":"2.0","id":"\u0000","method":"v1.nomenclatures.list","params":{"seller_id":99999999999999999999999}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"v1.nomenclatures.list","params":{"seller_id":1001,"seller_id":1002}}`,
		`{"jsonrpc":"2.0","method":"v1.nomenclatures.store","params":{"seller_id":1001,"items":[null,{"warehouse_code":"","barcode":""}]}}`,
		"\xff\xfe{}", ``, `null`, `"x"`, `{`, `{"jsonrpc":"2.0","id":"\xff","method":"\xff"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	s := New(Options{PriceApplyDelay: 10})
	tok := sellerToken(f, s, cred1001)
	f.Fuzz(func(t *testing.T, body []byte, auth bool) {
		req, e := parseEnvelope(body)
		if (req == nil) == (e == nil) {
			t.Fatalf("parseEnvelope returned %v and %v", req, e)
		}
		httpReq := httptest.NewRequest(http.MethodPost, "/jsonrpc", bytes.NewReader(body))
		if auth {
			httpReq.Header.Set("Authorization", "Bearer "+tok)
		}
		r := serve(s, httpReq)
		if r.status != http.StatusOK {
			t.Fatalf("HTTP %d for %q", r.status, body)
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(r.body, &env); err != nil {
			t.Fatalf("answer is not JSON: %v: %s", err, short(r.body))
		}
		if string(env["jsonrpc"]) != `"2.0"` || (env["result"] == nil) == (env["error"] == nil) || env["id"] == nil {
			t.Fatalf("bad envelope: %s", short(r.body))
		}
		if req != nil && !bytes.Equal(env["id"], req.id) {
			t.Fatalf("id %s echoed as %s", req.id, env["id"])
		}
		if e := env["error"]; e != nil {
			var re struct {
				Code    *int    `json:"code"`
				Message *string `json:"message"`
			}
			if json.Unmarshal(e, &re) != nil || re.Code == nil || re.Message == nil || *re.Message == "" {
				t.Fatalf("bad error member: %s", e)
			}
		}
	})
}

// FuzzB2BQuery throws arbitrary query strings at the orders list (and, with
// the same input, at the seller REST return boxes list): only 200 or 400 in
// the right body may come back.
func FuzzB2BQuery(f *testing.F) {
	for _, q := range []string{
		"", "page=1&limit=20", "limit=100&status=new", "limit=0", "limit=101", "page=-1", "page=2147483648",
		"limit=1e2", "limit=%20", "status=NEW", "status=new&status=canceled", "page=&limit=", "%zz", "a=1;b=2",
		"limit=50&page=3&status=to_delivery", "page=1000000", "page=00002&limit=+5", "status=%00", "seller_id=1001&limit=5",
		"seller_id=1001&created_from=2026-10-01T00:00:00Z&created_to=2026-09-01T00:00:00%2B03:00",
	} {
		f.Add(q)
	}
	s := New(Options{})
	b2b := b2bToken(f, s, "", cred1001)
	seller := sellerToken(f, s, cred1001)
	f.Fuzz(func(t *testing.T, query string) {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/orders", nil)
		req.URL.RawQuery = query
		req.Header.Set("Authorization", "Bearer "+b2b)
		r := serve(s, req)
		switch r.status {
		case http.StatusOK:
			var l orderList
			if err := json.Unmarshal(r.body, &l); err != nil {
				t.Fatalf("200 is not JSON: %v", err)
			}
			if l.Limit < 1 || l.Limit > 100 || len(l.Embedded.Orders) > l.Limit || l.Page < 1 {
				t.Fatalf("bad page %+v", l)
			}
		case http.StatusBadRequest:
			var e b2bErrorBody
			if err := json.Unmarshal(r.body, &e); err != nil || e.Description != descBadRequest || len(e.Errors) == 0 {
				t.Fatalf("bad 400 body: %s", r.body)
			}
		default:
			t.Fatalf("status %d for %q", r.status, query)
		}

		req = httptest.NewRequest(http.MethodGet, "/api/v2/fbs/return-boxes", nil)
		req.URL.RawQuery = query
		req.Header.Set("Authorization", "Bearer "+seller)
		r = serve(s, req)
		switch r.status {
		case http.StatusOK, http.StatusBadRequest, http.StatusForbidden:
		default:
			t.Fatalf("return boxes: status %d for %q", r.status, query)
		}
		if !json.Valid(r.body) {
			t.Fatalf("return boxes: body is not JSON: %s", r.body)
		}
	})
}
