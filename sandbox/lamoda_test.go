package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const lamodaID = "550e8400-e29b-41d4-a716-446655440000"

// lamodaRPC calls a method at its own path with a 36-character id.
func lamodaRPC(t *testing.T, s http.Handler, token, method string, params any) result {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": lamodaID, "method": method, "params": params})
	var hdr []string
	if token != "" {
		hdr = bearer(token)
	}
	return doReq(t, s, http.MethodPost, "/jsonrpc/"+strings.Replace(method, ".", "/", 1), string(body), hdr...)
}

// rpcErrorOf returns the error member's code and data.
func rpcErrorOf(t *testing.T, r result) (int, map[string]any) {
	t.Helper()
	var env struct {
		Error *struct {
			Code int            `json:"code"`
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error == nil {
		t.Fatalf("want an error member: %s", r.body)
	}
	return env.Error.Code, env.Error.Data
}

func lamodaSellerToken(t *testing.T, s *Sandbox, c Credential) string {
	t.Helper()
	r := lamodaRPC(t, s, "", "v1.tokens.create", map[string]string{"clientId": c.ClientID, "clientSecret": c.ClientSecret, "grantType": "client_credentials"})
	var env struct {
		Result struct {
			AccessToken, TokenType string
			ExpiresIn              int
		} `json:"result"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Result.AccessToken == "" || env.Result.TokenType != "bearer" || env.Result.ExpiresIn != 900 {
		t.Fatalf("tokens.create: %s", r.body)
	}
	return env.Result.AccessToken
}

func TestLamodaStrict(t *testing.T) {
	s := New(Options{Profile: ProfileLamoda})
	q := url.Values{"client_id": {cred1001.ClientID}, "client_secret": {cred1001.ClientSecret}, "grant_type": {"client_credentials"}}

	t.Run("B2B token: GET with the query, POST refused", func(t *testing.T) {
		if r := doReq(t, s, http.MethodGet, "/auth/token?"+q.Encode(), ""); r.status != 200 || !strings.Contains(string(r.body), `"access_token"`) {
			t.Errorf("GET: %d %s", r.status, r.body)
		}
		body, _ := json.Marshal(map[string]string{"client_id": cred1001.ClientID, "client_secret": cred1001.ClientSecret, "grant_type": "client_credentials"})
		if r := doReq(t, s, http.MethodPost, "/auth/token", string(body)); r.status != http.StatusMethodNotAllowed || r.header.Get("Allow") != "GET" {
			t.Errorf("POST: %d, Allow %q; want 405, GET", r.status, r.header.Get("Allow"))
		}
		// The contract profile still takes both.
		if r := doReq(t, New(Options{}), http.MethodPost, "/auth/token", string(body)); r.status != 200 {
			t.Errorf("contract POST: %d", r.status)
		}
	})
	tok := lamodaSellerToken(t, s, cred1001)

	t.Run("ids of 36 characters only", func(t *testing.T) {
		for _, id := range []any{"t-1", strings.Repeat("x", 37), 12345678, nil} {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "v1.nomenclatures.list", "params": map[string]any{"country": "RU"}})
			r := doReq(t, s, http.MethodPost, "/jsonrpc/v1/nomenclatures.list", string(body), bearer(tok)...)
			if code, _ := rpcErrorOf(t, r); code != codeInvalidRequest {
				t.Errorf("id %v: code %d, want -32600", id, code)
			}
		}
	})
	t.Run("missing country or partner_id names the field", func(t *testing.T) {
		cases := []struct {
			method string
			params map[string]any
			field  string
		}{
			{"v1.nomenclatures.list", map[string]any{"page": 1}, "country"},
			{"v1.nomenclatures.list", map[string]any{"country": "DE"}, "country"},
			{"v1.nomenclatures.set-prices", map[string]any{"country": "RU", "prices": []any{}}, "partner_id"},
			{"v1.nomenclatures.set-prices", map[string]any{"partner_id": 1001, "prices": []any{}}, "country"},
		}
		for _, c := range cases {
			code, data := rpcErrorOf(t, lamodaRPC(t, s, tok, c.method, c.params))
			if code != codeInvalidParams || data["param"] != c.field {
				t.Errorf("%s %v: code %d data %v, want -32602 naming %s", c.method, c.params, code, data, c.field)
			}
		}
	})
	t.Run("methods at their own paths only", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": lamodaID, "method": "v1.nomenclatures.list", "params": map[string]any{"country": "RU"}})
		if r := doReq(t, s, http.MethodPost, "/jsonrpc", string(body), bearer(tok)...); r.status != http.StatusNotFound {
			t.Errorf("root: %d", r.status)
		}
		if code, _ := rpcErrorOf(t, doReq(t, s, http.MethodPost, "/jsonrpc/v1/nomenclatures.set-prices", string(body), bearer(tok)...)); code != codeMethodNotFound {
			t.Errorf("method not matching its path: %d", code)
		}
		if code, _ := rpcErrorOf(t, lamodaRPC(t, s, tok, "v1.nomenclatures.store", map[string]any{})); code != codeMethodNotFound {
			t.Errorf("store: %d, want -32601 (not emulated)", code)
		}
	})
	t.Run("orders: string ids, Moscow creation time, filter=status=", func(t *testing.T) {
		b2b := doReq(t, s, http.MethodGet, "/auth/token?"+q.Encode(), "")
		var bt struct {
			AccessToken string `json:"access_token"`
		}
		_ = json.Unmarshal(b2b.body, &bt)
		r := doReq(t, s, http.MethodGet, "/api/v1/orders?limit=2&filter=status%3Dnew", "", bearer(bt.AccessToken)...)
		var page struct {
			Embedded struct {
				Orders []map[string]any `json:"orders"`
			} `json:"_embedded"`
		}
		if err := json.Unmarshal(r.body, &page); err != nil || len(page.Embedded.Orders) != 2 {
			t.Fatalf("%d %s", r.status, short(r.body))
		}
		o := page.Embedded.Orders[0]
		id, _ := o["id"].(string)
		created, _ := o["createdAt"].(string)
		if !strings.HasPrefix(id, o["orderNr"].(string)+"-") || o["status"] != "new" || len(created) != 19 || created[10] != ' ' {
			t.Errorf("order %v", o)
		}
		if r := doReq(t, s, http.MethodGet, "/api/v1/orders?status=new", "", bearer(bt.AccessToken)...); r.status != 400 {
			t.Errorf("status=: %d, want 400", r.status)
		}
	})
	t.Run("return boxes: sellerId, the twin's shape", func(t *testing.T) {
		r := doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?sellerId=1001&limit=3", "", bearer(tok)...)
		var page struct {
			Total int              `json:"total"`
			Boxes []map[string]any `json:"boxes"`
		}
		if err := json.Unmarshal(r.body, &page); err != nil || r.status != 200 || len(page.Boxes) != 3 || page.Total != boxesPerSeller {
			t.Errorf("%d %s", r.status, short(r.body))
		}
		if r := doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001", "", bearer(tok)...); r.status != 400 || !strings.Contains(string(r.body), "sellerId") {
			t.Errorf("seller_id: %d %s", r.status, r.body)
		}
	})
}

// A card's price applies to all of its sizes; a steep drop needs force and
// is reported as a fraud warning until then.
func TestLamodaSetPricesByCard(t *testing.T) {
	s := New(Options{Profile: ProfileLamoda})
	tok := lamodaSellerToken(t, s, cred1001)
	prods := s.Products(1001)
	parent := prods[0].ParentSKU
	var sizes []Product
	for _, p := range prods {
		if p.ParentSKU == parent {
			sizes = append(sizes, p)
		}
	}
	if len(sizes) < 2 {
		t.Fatalf("card %s has %d sizes, want several", parent, len(sizes))
	}
	set := func(price string, force bool) map[string]any {
		params := map[string]any{"country": "RU", "partner_id": 1001, "prices": []any{
			map[string]any{"lamoda_parent_sku": parent, "price": json.RawMessage(price)},
			map[string]any{"lamoda_parent_sku": "MP000UNKNOWN"},
		}}
		if force {
			params["force"] = true
		}
		var res map[string]any
		rpcResultOf(t, lamodaRPC(t, s, tok, "v1.nomenclatures.set-prices", params), &res)
		return res
	}
	cur := sizes[0].Price
	half := fmt.Sprintf("%d.%02d", cur/100*4/10, 0) // 40 % of the price: a steep drop
	res := set(half, false)
	if res["success_count"] != json.Number("0") || res["error_count"] != json.Number("2") || len(res["fraud_validation_results"].([]any)) != 1 {
		t.Fatalf("without force: %v", res)
	}
	if got := s.Products(1001)[0].Price; got != cur {
		t.Fatalf("price changed to %d without force", got)
	}
	res = set(half, true)
	if res["success_count"] != json.Number("1") || res["error_count"] != json.Number("1") {
		t.Fatalf("with force: %v", res)
	}
	errs := res["errors"].([]any)
	if e := errs[0].(map[string]any); e["lamodaParentSku"] != "MP000UNKNOWN" || e["code"] != json.Number("404") {
		t.Errorf("item error %v", e)
	}
	for _, p := range s.Products(1001) {
		if p.ParentSKU == parent && p.Price != cur/100*4/10*100 {
			t.Errorf("size %s at %d, want the card's new price", p.MarketplaceSKU, p.Price)
		}
	}
	if code, _ := rpcErrorOf(t, lamodaRPC(t, s, tok, "v1.nomenclatures.set-prices", map[string]any{"country": "RU", "partner_id": 1002,
		"prices": []any{map[string]any{"lamoda_parent_sku": parent, "price": 100}}})); code != codeForbidden {
		t.Errorf("another seller's partner_id: %d", code)
	}
}
