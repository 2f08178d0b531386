package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sellerdesk/sellerdesk/apiclient"
)

func TestUnexpectedResponses(t *testing.T) {
	big := `{"page":1,"pages":1,"_embedded":{"orders":[` + strings.Repeat(`{"id":1},`, 400) + `{"id":2}]}}`
	tests := []struct {
		name       string
		handler    http.HandlerFunc
		wantStatus int
		wantReason string
		also       error // another sentinel the error must match
	}{
		{
			name: "html 502",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(502)
				io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
			},
			wantStatus: 502, wantReason: "HTML page instead of JSON",
		},
		{
			name: "html 503 page is unavailable",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(503)
				io.WriteString(w, "<html>down</html>")
			},
			wantStatus: 503, wantReason: "HTML page instead of JSON", also: apiclient.ErrUnavailable,
		},
		{
			name: "wrong content type",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				io.WriteString(w, emptyOrders)
			},
			wantStatus: 200, wantReason: "content type is not JSON",
		},
		{
			name: "invalid json",
			handler: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, `{"page": 1, "pages": x}`)
			},
			wantStatus: 200, wantReason: "invalid JSON at offset",
		},
		{
			name: "truncated json",
			handler: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, `{"page": 1, "_embedded": {"orders": [{"id": 1`)
			},
			wantStatus: 200, wantReason: "truncated JSON",
		},
		{
			name: "body cut by the connection",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", "1000")
				w.WriteHeader(200)
				io.WriteString(w, `{"page": 1, "_embed`)
				w.(http.Flusher).Flush()
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
			},
			wantStatus: 200, wantReason: "body truncated",
		},
		{
			name: "empty body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
			},
			wantStatus: 200, wantReason: "empty body",
		},
		{
			name: "empty 500",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(500)
			},
			wantStatus: 500, wantReason: "empty body",
		},
		{
			name: "oversized body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, big)
			},
			wantStatus: 200, wantReason: "larger than the size limit",
		},
		{
			name: "oversized body announced by content length",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", fmt.Sprint(len(big)))
				writeJSON(w, 200, big)
			},
			wantStatus: 200, wantReason: "larger than the size limit",
		},
		{
			name: "wrong type in field",
			handler: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, `{"page": "one"}`)
			},
			wantStatus: 200, wantReason: "field page",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMarket()
			m.b2b = tt.handler
			acct, _ := serve(t, m, func(c *clientConfig) {
				c.opts.MaxResponseBytes = 2048
				c.opts.RetryBudget = -1
			})
			_, err := acct.B2B.ListOrders(context.Background(), nil)
			if !errors.Is(err, apiclient.ErrUnexpectedResponse) {
				t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
			}
			if tt.also != nil && !errors.Is(err, tt.also) {
				t.Errorf("err = %v, want it to match %v too", err, tt.also)
			}
			var ue *apiclient.UnexpectedResponseError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %T, want *UnexpectedResponseError", err)
			}
			if ue.Status != tt.wantStatus {
				t.Errorf("Status = %d, want %d", ue.Status, tt.wantStatus)
			}
			if !strings.Contains(ue.Reason, tt.wantReason) {
				t.Errorf("Reason = %q, want it to contain %q", ue.Reason, tt.wantReason)
			}
			if ue.RequestID == "" || !strings.Contains(err.Error(), ue.RequestID) {
				t.Errorf("request id missing: %v", err)
			}
			if strings.Contains(err.Error(), "<html") || strings.Contains(err.Error(), `"id":1`) {
				t.Errorf("error quotes the body: %v", err)
			}
		})
	}
}

func TestRPCResponseIDMismatch(t *testing.T) {
	m := newMarket()
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		rpcResult(w, "3f1c4e9a-0000-4000-8000-000000000000", `{"page":1,"pages":1,"nomenclatures":[{"barcode":"x"}]}`)
	}
	acct, _ := serve(t, m)
	l, err := acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1})
	if l != nil || !errors.Is(err, apiclient.ErrUnexpectedResponse) {
		t.Fatalf("got %v, %v; want ErrUnexpectedResponse and no result", l, err)
	}
	if !strings.Contains(err.Error(), "id does not match") {
		t.Errorf("err = %v", err)
	}
}

func TestRPCRequestIDsAreUUIDv4(t *testing.T) {
	m := newMarket()
	var ids []string
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		ids = append(ids, req.ID)
		rpcResult(w, req.ID, `{"page":1,"pages":1,"nomenclatures":[]}`)
	}
	acct, _ := serve(t, m)
	for range 3 {
		if _, err := acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1}); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if len(id) != 36 || id[14] != '4' || seen[id] {
			t.Errorf("id %q is not a fresh UUIDv4", id)
		}
		seen[id] = true
	}
}

func TestRPCNullIDOnlyForProtocolErrors(t *testing.T) {
	for _, tc := range []struct {
		code     int
		wantRPC  bool
		sentinel error
	}{
		{code: -32700, wantRPC: true},
		{code: 404, wantRPC: false, sentinel: apiclient.ErrUnexpectedResponse},
	} {
		m := newMarket()
		m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"x"}}`, tc.code)
		}
		acct, _ := serve(t, m)
		_, err := acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1})
		var re *apiclient.RPCError
		if got := errors.As(err, &re); got != tc.wantRPC {
			t.Errorf("code %d: err = %v, RPCError %v want %v", tc.code, err, got, tc.wantRPC)
		}
		if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
			t.Errorf("code %d: err = %v, want %v", tc.code, err, tc.sentinel)
		}
	}
}

func TestErrorShapes(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(m *market)
		call     func(a *apiclient.Account) error
		sentinel error
		check    func(t *testing.T, err error)
	}{
		{
			name: "b2b 400 with field errors",
			setup: func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 400, `{"code":0,"description":"This value is not valid.","errors":[{"field":"limit","message":"must be between 1 and 100"}]}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.B2B.ListOrders(context.Background(), &apiclient.ListOrdersOptions{Limit: 1000})
				return err
			},
			sentinel: apiclient.ErrValidation,
			check: func(t *testing.T, err error) {
				var be *apiclient.B2BError
				if !errors.As(err, &be) || be.Status != 400 || be.Description != "This value is not valid." || be.RequestID == "" {
					t.Errorf("err = %#v", be)
				}
				want := []apiclient.FieldError{{Field: "limit", Message: "must be between 1 and 100"}}
				if d := cmp.Diff(want, apiclient.FieldErrors(err)); d != "" {
					t.Errorf("FieldErrors (-want +got):\n%s", d)
				}
			},
		},
		{
			name: "b2b 403",
			setup: func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 403, `{"code":0,"description":"Access denied","errors":[]}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.B2B.ListOrders(context.Background(), nil)
				return err
			},
			sentinel: apiclient.ErrForbidden,
		},
		{
			name: "b2b 404",
			setup: func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 404, `{"code":0,"description":"Not found","errors":[]}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.B2B.ListOrders(context.Background(), nil)
				return err
			},
			sentinel: apiclient.ErrNotFound,
		},
		{
			name: "gift certificate error",
			setup: func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 400, `{"code":32602,"message":"Invalid params","description":"code is malformed","errors":["code: must be 16 characters"]}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.B2B.GiftCertificate(context.Background(), "bad")
				return err
			},
			sentinel: apiclient.ErrValidation,
			check: func(t *testing.T, err error) {
				var ge *apiclient.GiftCertificateError
				if !errors.As(err, &ge) || ge.Code != 32602 || len(ge.Errors) != 1 {
					t.Errorf("err = %#v", err)
				}
			},
		},
		{
			name: "gift certificate shape on another b2b path",
			setup: func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 500, `{"code":32603,"message":"Internal error","description":"","errors":["boom"]}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.B2B.ListOrders(context.Background(), nil)
				return err
			},
			check: func(t *testing.T, err error) {
				var ge *apiclient.GiftCertificateError
				if !errors.As(err, &ge) || ge.Code != 32603 {
					t.Errorf("err = %#v", err)
				}
			},
		},
		{
			name: "rpc invalid params with data",
			setup: func(m *market) {
				m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
					rpcError(w, req.ID, -32602, "Invalid params", `{"param":"limit","reason":"must be between 1 and 100"}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1, Limit: 1000})
				return err
			},
			sentinel: apiclient.ErrValidation,
			check: func(t *testing.T, err error) {
				want := []apiclient.FieldError{{Field: "limit", Message: "must be between 1 and 100"}}
				if d := cmp.Diff(want, apiclient.FieldErrors(err)); d != "" {
					t.Errorf("FieldErrors (-want +got):\n%s", d)
				}
				var re *apiclient.RPCError
				if !errors.As(err, &re) || re.Method != "v1.nomenclatures.list" {
					t.Errorf("err = %#v", err)
				}
			},
		},
		{
			name: "rpc business 403",
			setup: func(m *market) {
				m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
					rpcError(w, req.ID, 403, "Forbidden", `{"seller_id":2}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 2})
				return err
			},
			sentinel: apiclient.ErrForbidden,
		},
		{
			name: "rpc business 404",
			setup: func(m *market) {
				m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
					rpcError(w, req.ID, 404, "Not found", "")
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{})
				return err
			},
			sentinel: apiclient.ErrNotFound,
		},
		{
			name: "rest validation",
			setup: func(m *market) {
				m.rest = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 400, `{"error":{"code":"VALIDATION_FAILED","message":"Validation failed","details":[{"field":"status","issue":"unknown status"}]}}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 1, Status: "x"})
				return err
			},
			sentinel: apiclient.ErrValidation,
			check: func(t *testing.T, err error) {
				want := []apiclient.FieldError{{Field: "status", Message: "unknown status"}}
				if d := cmp.Diff(want, apiclient.FieldErrors(err)); d != "" {
					t.Errorf("FieldErrors (-want +got):\n%s", d)
				}
				var re *apiclient.RESTError
				if !errors.As(err, &re) || re.Code != "VALIDATION_FAILED" || re.RequestID == "" {
					t.Errorf("err = %#v", err)
				}
			},
		},
		{
			name: "rest forbidden",
			setup: func(m *market) {
				m.rest = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 403, `{"error":{"code":"FORBIDDEN","message":"Forbidden"}}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 2})
				return err
			},
			sentinel: apiclient.ErrForbidden,
		},
		{
			name: "rest not found",
			setup: func(m *market) {
				m.rest = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 404, `{"error":{"code":"NOT_FOUND","message":"Not found"}}`)
				}
			},
			call: func(a *apiclient.Account) error {
				_, err := a.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 1})
				return err
			},
			sentinel: apiclient.ErrNotFound,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMarket()
			tt.setup(m)
			acct, _ := serve(t, m)
			err := tt.call(acct)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("err = %v, want %v", err, tt.sentinel)
			}
			if msg := err.Error(); msg != strings.ToValidUTF8(msg, "") || !strings.HasPrefix(msg, "apiclient: ") {
				t.Errorf("message %q", msg)
			}
			if tt.check != nil {
				tt.check(t, err)
			}
		})
	}
}

func TestItemErrorShapes(t *testing.T) {
	m := newMarket()
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		rpcResult(w, req.ID, `{"updated":1,"error_count":2,"errors":[
			{"warehouse_code":"W1","barcode":"4600000000017","error":{"code":404,"message":"unknown barcode"}},
			{"marketplaceSku":"MP002XW1CJV9R360","code":400,"messages":["price must be positive","more than 2 decimals"]}
		],"extra":"ignored"}`)
	}
	acct, _ := serve(t, m)
	want := &apiclient.UpdateResult{Updated: 1, ErrorCount: 2, Errors: []apiclient.ItemError{
		{WarehouseCode: "W1", Barcode: "4600000000017", Code: 404, Messages: []string{"unknown barcode"}},
		{MarketplaceSKU: "MP002XW1CJV9R360", Code: 400, Messages: []string{"price must be positive", "more than 2 decimals"}},
	}}
	for _, call := range []func() (*apiclient.UpdateResult, error){
		func() (*apiclient.UpdateResult, error) {
			return acct.Seller.StoreNomenclatures(context.Background(), &apiclient.StoreRequest{SellerID: 1})
		},
		func() (*apiclient.UpdateResult, error) {
			return acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{})
		},
	} {
		got, err := call()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("result (-want +got):\n%s", d)
		}
	}
	if got := want.Errors[1].Message(); got != "price must be positive; more than 2 decimals" {
		t.Errorf("Message() = %q", got)
	}
}
