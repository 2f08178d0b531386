package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestAuthErrorInOKBody: an auth error inside a 200 answer is a 401: a
// read renews the token once and is sent again; a second one is an error
// matching ErrUnauthorized; a write renews the token but is not replayed
// (its outcome is not known), its error matching ErrUnauthorized and
// ErrOutcomeUnknown.
func TestAuthErrorInOKBody(t *testing.T) {
	bodies := map[string]string{
		"message":        `{"error":{"message":"invalid_grant"}}`,
		"oauth":          `{"error":"invalid_grant","error_description":"The access token provided has expired"}`,
		"rest code":      `{"error":{"code":"UNAUTHORIZED","message":"token expired"}}`,
		"invalid_token":  `{"error":{"code":"invalid_token","message":"expired"}}`,
		"numeric status": `{"error":{"code":401,"message":"Unauthorized"}}`,
	}
	for name, body := range bodies {
		t.Run("read once/"+name, func(t *testing.T) {
			m := newMarket()
			var seen []string
			m.b2b = func(w http.ResponseWriter, r *http.Request) {
				seen = append(seen, bearer(r))
				if bearer(r) == "b2b-tok-1" {
					writeJSON(w, 200, body)
					return
				}
				writeJSON(w, 200, emptyOrders)
			}
			acct, _ := serve(t, m)
			if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(seen, ","); got != "b2b-tok-1,b2b-tok-2" {
				t.Errorf("tokens sent = %s, want a renewed token on the second try", got)
			}
		})
	}
	t.Run("read twice", func(t *testing.T) {
		m := newMarket()
		m.rest = func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, bodies["message"])
		}
		acct, _ := serve(t, m)
		_, err := acct.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 1})
		if !errors.Is(err, apiclient.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		if m.sellerTokenCalls.Load() != 2 || m.apiCalls.Load() != 2 {
			t.Errorf("token calls %d, api calls %d; want 2 and 2", m.sellerTokenCalls.Load(), m.apiCalls.Load())
		}
	})
	t.Run("write", func(t *testing.T) {
		m := newMarket()
		m.b2b = func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, bodies["message"])
		}
		acct, _ := serve(t, m)
		_, err := acct.B2B.ResendNotifications(context.Background(), &apiclient.ResendRequest{OrderNrs: []string{"RU0001"}})
		if !errors.Is(err, apiclient.ErrUnauthorized) || !errors.Is(err, apiclient.ErrOutcomeUnknown) {
			t.Fatalf("err = %v, want ErrUnauthorized and ErrOutcomeUnknown", err)
		}
		if m.apiCalls.Load() != 1 {
			t.Errorf("the write was sent %d times, want once", m.apiCalls.Load())
		}
		if m.b2bTokenCalls.Load() != 2 {
			t.Errorf("token calls %d, want 2 (the token renewed for the next call)", m.b2bTokenCalls.Load())
		}
		// The next call uses the renewed token without asking for one more.
		m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, emptyOrders) }
		if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if m.b2bTokenCalls.Load() != 2 {
			t.Errorf("token calls %d after the next read, want still 2", m.b2bTokenCalls.Load())
		}
	})
	t.Run("rpc error named invalid_grant", func(t *testing.T) {
		m := newMarket()
		var seen []string
		m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
			seen = append(seen, bearer(r))
			if bearer(r) == "seller-tok-1" {
				rpcError(w, req.ID, -32000, "invalid_grant", "")
				return
			}
			rpcResult(w, req.ID, `{"page":1,"limit":20,"pages":1,"total":0,"nomenclatures":[]}`)
		}
		acct, _ := serve(t, m)
		if _, err := acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(seen, ","); got != "seller-tok-1,seller-tok-2" {
			t.Errorf("tokens sent = %s, want a renewed token on the second try", got)
		}
	})
	t.Run("data with an empty error is data", func(t *testing.T) {
		m := newMarket()
		m.b2b = func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"error":null,"page":1,"limit":20,"pages":1,"total":0,"_embedded":{"orders":[]}}`)
		}
		acct, _ := serve(t, m)
		if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if m.b2bTokenCalls.Load() != 1 || m.apiCalls.Load() != 1 {
			t.Errorf("token calls %d, api calls %d; want 1 and 1", m.b2bTokenCalls.Load(), m.apiCalls.Load())
		}
	})
}
