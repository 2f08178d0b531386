package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRPCEnvelope(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	invalid := func(id, reason string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"` + reason + `"}}}`
	}
	parse := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"reason":"request body is not valid JSON"}}}`
	list := `"method":"v1.nomenclatures.list","params":{"seller_id":1001,"limit":1}`
	tests := []struct {
		name, body, want string // want "" = a result with the id echoed
		id               string
	}{
		{"string id", `{"jsonrpc":"2.0","id":"5f0c2b9e-1c1e-4d3a-9a53-0d6f9f1b2c3d",` + list + `}`, "", `"5f0c2b9e-1c1e-4d3a-9a53-0d6f9f1b2c3d"`},
		{"integer id", `{"jsonrpc":"2.0","id":42,` + list + `}`, "", `42`},
		{"float id echoed raw", `{"jsonrpc":"2.0","id":1.50e3,` + list + `}`, "", `1.50e3`},
		{"negative id", `{"jsonrpc":"2.0","id":-7,` + list + `}`, "", `-7`},
		{"null id", `{"jsonrpc":"2.0","id":null,` + list + `}`, "", `null`},
		{"no id", `{"jsonrpc":"2.0",` + list + `}`, "", `null`},
		{"escaped string id", `{"jsonrpc":"2.0","id":"a\"b\u00e9<>",` + list + `}`, "", `"a\"b\u00e9<>"`},
		{"unparsable", `{"jsonrpc":"2.0",`, parse, ""},
		{"empty body", ``, parse, ""},
		{"garbage", `hello`, parse, ""},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,` + list + `} x`, parse, ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,` + list + `}]`, invalid("null", "batch requests are not supported; send requests one at a time"), ""},
		{"empty batch", `[]`, invalid("null", "batch requests are not supported; send requests one at a time"), ""},
		{"scalar", `42`, invalid("null", "request must be a JSON object"), ""},
		{"null body", `null`, invalid("null", "request must be a JSON object"), ""},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},` + list + `}`, invalid("null", "id must be a string, a number or null"), ""},
		{"bool id", `{"jsonrpc":"2.0","id":true,` + list + `}`, invalid("null", "id must be a string, a number or null"), ""},
		{"missing jsonrpc", `{"id":3,` + list + `}`, invalid("3", `jsonrpc must be the string \"2.0\"`), ""},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,` + list + `}`, invalid("3", `jsonrpc must be the string \"2.0\"`), ""},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":3,` + list + `}`, invalid("3", `jsonrpc must be the string \"2.0\"`), ""},
		{"missing method", `{"jsonrpc":"2.0","id":"m"}`, invalid(`"m"`, "method must be a string"), ""},
		{"method number", `{"jsonrpc":"2.0","id":"m","method":7}`, invalid(`"m"`, "method must be a string"), ""},
		{"params array", `{"jsonrpc":"2.0","id":"p","method":"v1.nomenclatures.list","params":[1001]}`, invalid(`"p"`, "params must be an object"), ""},
		{"params string", `{"jsonrpc":"2.0","id":"p","method":"v1.nomenclatures.list","params":"x"}`, invalid(`"p"`, "params must be an object"), ""},
		{"params null", `{"jsonrpc":"2.0","id":"p","method":"v1.nomenclatures.list","params":null}`, invalid(`"p"`, "params must be an object"), ""},
		{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"v1.nomenclatures.delete","params":{}}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found","data":{"method":"v1.nomenclatures.delete"}}}`, ""},
		{"method case matters", `{"jsonrpc":"2.0","id":9,"method":"V1.Nomenclatures.List","params":{}}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found","data":{"method":"V1.Nomenclatures.List"}}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := doReq(t, s, http.MethodPost, "/jsonrpc", tc.body, bearer(tok)...)
			if r.status != http.StatusOK {
				t.Fatalf("HTTP %d, want 200", r.status)
			}
			if tc.want != "" {
				expect(t, r, http.StatusOK, tc.want)
				return
			}
			var env map[string]json.RawMessage
			if err := json.Unmarshal(r.body, &env); err != nil {
				t.Fatal(err)
			}
			if string(env["id"]) != tc.id || string(env["jsonrpc"]) != `"2.0"` || env["result"] == nil || env["error"] != nil {
				t.Fatalf("id %s, want %s; body %s", env["id"], tc.id, r.body)
			}
		})
	}
	t.Run("GET is 405", func(t *testing.T) {
		r := doReq(t, s, http.MethodGet, "/jsonrpc", "")
		expect(t, r, 405, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"JSON-RPC requests must use POST"}}}`)
	})
	t.Run("unknown path under /jsonrpc", func(t *testing.T) {
		r := doReq(t, s, http.MethodPost, "/jsonrpc/v2/x", `{}`)
		expect(t, r, 404, `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found","data":{"path":"/jsonrpc/v2/x"}}}`)
	})
	t.Run("tokens path only serves tokens", func(t *testing.T) {
		r := doReq(t, s, http.MethodPost, "/jsonrpc/v1/tokens.create", `{"jsonrpc":"2.0","id":1,`+list+`}`, bearer(tok)...)
		expect(t, r, 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":{"method":"v1.nomenclatures.list"}}}`)
	})
}

func TestRPCTokensCreate(t *testing.T) {
	s := New(Options{})
	good := map[string]any{"client_id": "test-1003", "client_secret": "sandbox-secret-1003", "grant_type": "client_credentials"}
	for _, path := range []string{"/jsonrpc", "/jsonrpc/v1/tokens.create"} {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "x", "method": "v1.tokens.create", "params": good})
		r := doReq(t, s, http.MethodPost, path, string(body))
		var got struct {
			Result map[string]any `json:"result"`
		}
		_ = json.Unmarshal(r.body, &got)
		if got.Result["token_type"] != "Bearer" || got.Result["expires_in"] != 900.0 || got.Result["access_token"] == "" || len(got.Result) != 3 {
			t.Fatalf("%s: %s", path, r.body)
		}
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	perr := func(param, reason string) string {
		return `{"jsonrpc":"2.0","id":"t-1","error":{"code":-32602,"message":"Invalid params","data":{"param":"` + param + `","reason":"` + reason + `"}}}`
	}
	tests := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"wrong secret", with("client_secret", "x"), `{"jsonrpc":"2.0","id":"t-1","error":{"code":401,"message":"Unauthorized","data":{"reason":"invalid client_id or client_secret"}}}`},
		{"unknown client", with("client_id", "nobody"), `{"jsonrpc":"2.0","id":"t-1","error":{"code":401,"message":"Unauthorized","data":{"reason":"invalid client_id or client_secret"}}}`},
		{"missing client_id", with("client_id", nil), perr("client_id", "client_id is required")},
		{"number secret", with("client_secret", 5), perr("client_secret", "client_secret must be a string")},
		{"empty grant", with("grant_type", ""), perr("grant_type", "grant_type must not be empty")},
		{"wrong grant", with("grant_type", "password"), perr("grant_type", `grant_type must be \"client_credentials\"`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, rpc(t, s, "", "v1.tokens.create", tc.params), 200, tc.want)
		})
	}
	if got := s.Counters().TokensIssued["seller"]; got != 2 {
		t.Fatalf("seller tokens = %d, want 2", got)
	}
}

type nomList struct {
	Page, Limit, Pages, Total int
	Nomenclatures             []nomenclatureJSON
}

func listNoms(t *testing.T, s *Sandbox, tok string, seller int64, page, limit int) nomList {
	t.Helper()
	var l nomList
	r := rpc(t, s, tok, "v1.nomenclatures.list", map[string]any{"seller_id": seller, "page": page, "limit": limit})
	var env struct {
		Result *nomList `json:"result"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Result == nil {
		t.Fatalf("list: %s", short(r.body))
	}
	l = *env.Result
	return l
}

func TestRPCList(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	all := map[string]bool{}
	warehouses := map[string]bool{}
	for page := 1; page <= 6; page++ {
		l := listNoms(t, s, tok, 1001, page, 100)
		if l.Total != 600 || l.Pages != 6 || l.Page != page || l.Limit != 100 {
			t.Fatalf("page %d: %+v", page, l)
		}
		for _, n := range l.Nomenclatures {
			all[n.WarehouseCode+"/"+n.Barcode] = true
			warehouses[n.WarehouseCode] = true
			if n.SellerID != 1001 || n.MarketplaceSKU == "" || n.Price <= 0 || n.SalePrice > n.Price {
				t.Fatalf("bad record %+v", n)
			}
		}
	}
	if len(all) != 600 || len(warehouses) != 3 {
		t.Fatalf("%d distinct records, %d warehouses", len(all), len(warehouses))
	}
	// Raw shape: every field of the house record, prices with 2 decimals.
	r := rpc(t, s, tok, "v1.nomenclatures.list", map[string]any{"seller_id": 1001, "limit": 1})
	if !strings.Contains(string(r.body), `.00,"salePrice":`) && !strings.Contains(string(r.body), `.50,"salePrice":`) {
		t.Errorf("price not written with 2 decimals: %s", r.body)
	}
	var raw struct {
		Result struct {
			Nomenclatures []map[string]any `json:"nomenclatures"`
		} `json:"result"`
	}
	_ = json.Unmarshal(r.body, &raw)
	var keys []string
	for k := range raw.Result.Nomenclatures[0] {
		keys = append(keys, k)
	}
	if len(keys) != 14 {
		t.Errorf("record fields = %v", keys)
	}

	perr := func(param, reason string) string {
		return `{"jsonrpc":"2.0","id":"t-1","error":{"code":-32602,"message":"Invalid params","data":{"param":"` + param + `","reason":"` + reason + `"}}}`
	}
	tests := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"missing seller", map[string]any{}, perr("seller_id", "seller_id is required")},
		{"string seller", map[string]any{"seller_id": "1001"}, perr("seller_id", "seller_id must be an integer")},
		{"float seller", map[string]any{"seller_id": 1001.5}, perr("seller_id", "seller_id must be an integer")},
		{"zero seller", map[string]any{"seller_id": 0}, perr("seller_id", "seller_id must be between 1 and 9007199254740991")},
		{"limit 0", map[string]any{"seller_id": 1001, "limit": 0}, perr("limit", "limit must be between 1 and 100")},
		{"limit 101", map[string]any{"seller_id": 1001, "limit": 101}, perr("limit", "limit must be between 1 and 100")},
		{"page 0", map[string]any{"seller_id": 1001, "page": 0}, perr("page", "page must be between 1 and 1000000")},
		{"page string", map[string]any{"seller_id": 1001, "page": "2"}, perr("page", "page must be an integer")},
		{"another seller", map[string]any{"seller_id": 1002}, `{"jsonrpc":"2.0","id":"t-1","error":{"code":403,"message":"Forbidden","data":{"seller_id":1002,"reason":"seller_id 1002 is not the seller of this token"}}}`},
		{"unknown seller", map[string]any{"seller_id": 4242}, `{"jsonrpc":"2.0","id":"t-1","error":{"code":403,"message":"Forbidden","data":{"seller_id":4242,"reason":"seller_id 4242 is not the seller of this token"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expect(t, rpc(t, s, tok, "v1.nomenclatures.list", tc.params), 200, tc.want) })
	}
	if l := listNoms(t, s, tok, 1001, 7, 100); len(l.Nomenclatures) != 0 || l.Total != 600 {
		t.Fatalf("past the end: %+v", l)
	}
}

func storeItems(t *testing.T, s *Sandbox, tok string, seller int64, items ...map[string]any) result {
	t.Helper()
	return rpc(t, s, tok, "v1.nomenclatures.store", map[string]any{"seller_id": seller, "items": items})
}

func TestRPCStore(t *testing.T) {
	s := New(Options{Start: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)})
	p := s.Products(1001)
	other := s.Products(1002)[0]
	wh := s.Warehouses(1001)
	s.Advance(time.Hour)
	tok := sellerToken(t, s, cred1001)

	r := storeItems(t, s, tok, 1001,
		map[string]any{"warehouse_code": wh[0], "barcode": p[0].Barcode, "quantity": 7},                             // ok
		map[string]any{"warehouse_code": wh[1], "barcode": p[0].Barcode, "status": "disabled"},                      // ok
		map[string]any{"warehouse_code": wh[2], "barcode": p[0].Barcode, "quantity": -1},                            // negative
		map[string]any{"warehouse_code": wh[2], "barcode": p[0].Barcode, "quantity": 2.5, "status": "online"},       // non-integer: not half-applied
		map[string]any{"warehouse_code": wh[2], "barcode": p[1].Barcode, "quantity": "5"},                           // string
		map[string]any{"warehouse_code": wh[2], "barcode": p[1].Barcode, "status": "sold_out"},                      // unknown status
		map[string]any{"warehouse_code": wh[2], "barcode": "0000000000000", "quantity": 1},                          // unknown barcode
		map[string]any{"warehouse_code": "XXX-1", "barcode": p[1].Barcode, "quantity": 1},                           // unknown warehouse
		map[string]any{"warehouse_code": "MSK-1002", "barcode": other.Barcode, "quantity": 1},                       // another seller's warehouse
		map[string]any{"warehouse_code": wh[2], "barcode": p[1].Barcode},                                            // nothing to do
		map[string]any{"warehouse_code": wh[2], "barcode": p[2].Barcode, "quantity": 2000000},                       // too many
		map[string]any{"warehouse_code": wh[2], "barcode": p[3].Barcode, "quantity": 0, "status": "online", "x": 1}, // ok
	)
	qtyMsg := "quantity must be a non-negative integer"
	stMsg := "status must be one of online, in_moderation, rejected, disabled"
	a := func(w, b string, code int, msg string) string {
		return fmt.Sprintf(`{"warehouse_code":%q,"barcode":%q,"error":{"code":%d,"message":%q}}`, w, b, code, msg)
	}
	expect(t, r, 200, `{"jsonrpc":"2.0","id":"t-1","result":{"updated":3,"error_count":9,"errors":[`+strings.Join([]string{
		a(wh[2], p[0].Barcode, 400, qtyMsg),
		a(wh[2], p[0].Barcode, 400, qtyMsg),
		a(wh[2], p[1].Barcode, 400, qtyMsg),
		a(wh[2], p[1].Barcode, 400, stMsg),
		a(wh[2], "0000000000000", 404, "nomenclature not found: warehouse "+wh[2]+", barcode 0000000000000"),
		a("XXX-1", p[1].Barcode, 404, "nomenclature not found: warehouse XXX-1, barcode "+p[1].Barcode),
		a("MSK-1002", other.Barcode, 403, "warehouse MSK-1002 does not belong to seller 1001"),
		a(wh[2], p[1].Barcode, 400, "nothing to update: give quantity or status"),
		a(wh[2], p[2].Barcode, 400, "quantity must not exceed 1000000"),
	}, ",")+`]}}`)

	l := listNoms(t, s, tok, 1001, 1, 12)
	byKey := map[string]nomenclatureJSON{}
	for _, n := range l.Nomenclatures {
		byKey[n.WarehouseCode+"/"+n.Barcode] = n
	}
	before := New(Options{})
	beforeTok := sellerToken(t, before, cred1001)
	orig := map[string]nomenclatureJSON{}
	for _, n := range listNoms(t, before, beforeTok, 1001, 1, 12).Nomenclatures {
		orig[n.WarehouseCode+"/"+n.Barcode] = n
	}
	k0, k1, k2 := wh[0]+"/"+p[0].Barcode, wh[1]+"/"+p[0].Barcode, wh[2]+"/"+p[0].Barcode
	if byKey[k0].Quantity != 7 || !byKey[k0].UpdatedAt.Equal(s.Now()) {
		t.Errorf("quantity not stored: %+v", byKey[k0])
	}
	if byKey[k1].Status != "disabled" || byKey[k1].Quantity != orig[k1].Quantity {
		t.Errorf("status not stored: %+v", byKey[k1])
	}
	if diff := cmp.Diff(orig[k2], byKey[k2]); diff != "" {
		t.Errorf("invalid items changed the record (half-applied):\n%s", diff)
	}
	k3 := wh[2] + "/" + p[3].Barcode
	if byKey[k3].Quantity != 0 || byKey[k3].Status != "online" {
		t.Errorf("quantity 0 not stored: %+v", byKey[k3])
	}

	perr := func(param, reason string) string {
		return `{"jsonrpc":"2.0","id":"t-1","error":{"code":-32602,"message":"Invalid params","data":{"param":"` + param + `","reason":"` + reason + `"}}}`
	}
	reqErrs := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"missing seller", map[string]any{"items": []any{}}, perr("seller_id", "seller_id is required")},
		{"missing items", map[string]any{"seller_id": 1001}, perr("items", "items is required")},
		{"empty items", map[string]any{"seller_id": 1001, "items": []any{}}, perr("items", "items must not be empty")},
		{"items object", map[string]any{"seller_id": 1001, "items": map[string]any{}}, perr("items", "items must be an array")},
		{"item not object", map[string]any{"seller_id": 1001, "items": []any{map[string]any{"warehouse_code": "a", "barcode": "b"}, 5}}, perr("items[1]", "must be an object")},
		{"item without barcode", map[string]any{"seller_id": 1001, "items": []any{map[string]any{"warehouse_code": "a"}}}, perr("items[0].barcode", "barcode must be a non-empty string")},
		{"item with numeric warehouse", map[string]any{"seller_id": 1001, "items": []any{map[string]any{"warehouse_code": 1, "barcode": "b"}}}, perr("items[0].warehouse_code", "warehouse_code must be a non-empty string")},
		{"another seller", map[string]any{"seller_id": 1002, "items": []any{map[string]any{"warehouse_code": "MSK-1002", "barcode": other.Barcode, "quantity": 1}}},
			`{"jsonrpc":"2.0","id":"t-1","error":{"code":403,"message":"Forbidden","data":{"seller_id":1002,"reason":"seller_id 1002 is not the seller of this token"}}}`},
	}
	for _, tc := range reqErrs {
		t.Run(tc.name, func(t *testing.T) { expect(t, rpc(t, s, tok, "v1.nomenclatures.store", tc.params), 200, tc.want) })
	}
	many := make([]any, maxItems+1)
	for i := range many {
		many[i] = map[string]any{"warehouse_code": wh[0], "barcode": p[0].Barcode, "quantity": 1}
	}
	expect(t, rpc(t, s, tok, "v1.nomenclatures.store", map[string]any{"seller_id": 1001, "items": many}), 200, perr("items", "items must not have more than 1000 entries"))
}

func setPrices(t *testing.T, s *Sandbox, tok string, prices ...map[string]any) result {
	t.Helper()
	return rpc(t, s, tok, "v1.nomenclatures.set-prices", map[string]any{"prices": prices})
}

// rawPrices sends set-prices with a literal prices array (to control number text).
func rawPrices(t *testing.T, s *Sandbox, tok, prices string) result {
	t.Helper()
	return doReq(t, s, http.MethodPost, "/jsonrpc", `{"jsonrpc":"2.0","id":"t-1","method":"v1.nomenclatures.set-prices","params":{"prices":`+prices+`}}`, bearer(tok)...)
}

func TestRPCSetPrices(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	p := s.Products(1001)
	other := s.Products(1002)[0]
	sku := func(i int) string { return p[i].MarketplaceSKU }
	price := func(i int) string { return money(p[i].Price).String() }
	half := func(i int) string { return money(p[i].Price / 2).String() }

	body := `[` + strings.Join([]string{
		`{"marketplaceSku":"` + sku(0) + `","price":` + half(0) + `}`, // ok, sale = price
		`{"marketplaceSku":"` + sku(1) + `","price":` + price(1) + `,"salePrice":` + money(p[1].Price*8/1000*100).String() + `,"saleStartDate":"2026-11-10","saleEndDate":"2026-11-20"}`, // ok
		`{"marketplaceSku":"` + sku(2) + `","price":0}`,
		`{"marketplaceSku":"` + sku(2) + `","price":-5,"salePrice":1.005}`,
		`{"marketplaceSku":"` + sku(3) + `","price":10.001}`,
		`{"marketplaceSku":"` + sku(3) + `","price":1000,"salePrice":1000.01}`,
		`{"marketplaceSku":"` + sku(3) + `","price":1000,"saleStartDate":"2026-11-20","saleEndDate":"2026-11-19"}`,
		`{"marketplaceSku":"` + sku(3) + `","price":1000,"saleStartDate":"20.11.2026"}`,
		`{"marketplaceSku":"` + sku(3) + `","price":"1000"}`,
		`{"marketplaceSku":"` + sku(3) + `"}`,
		`{"marketplaceSku":"` + sku(3) + `","price":1e30}`,
		`{"marketplaceSku":"` + sku(3) + `","price":1000.` + strings.Repeat("0", 40) + `1}`,
		`{"marketplaceSku":"` + sku(3) + `","price":100000000}`,
		`{"marketplaceSku":"MP000NOSUCHSKU00","price":100}`,
		`{"marketplaceSku":"` + other.MarketplaceSKU + `","price":100}`,
		`{"marketplaceSku":"` + sku(4) + `","price":` + money(p[4].Price/10-1).String() + `}`,
		`{"marketplaceSku":"` + sku(5) + `","price":` + price(5) + `,"salePrice":` + money(p[5].Price/10-1).String() + `}`,
		`{"marketplaceSku":"` + sku(6) + `","price":` + money(p[6].Price/100).String() + `e2,"salePrice":` + money(p[6].Price/2+1).String() + `0}`, // ok: exponent; "x.xx0" has 2 decimals
	}, ",") + `]`
	r := rawPrices(t, s, tok, body)
	b := func(sku string, code int, msgs ...string) string {
		m, _ := json.Marshal(msgs)
		return fmt.Sprintf(`{"marketplaceSku":%q,"code":%d,"messages":%s}`, sku, code, m)
	}
	guard := func(field string, v, cur money) string {
		return fmt.Sprintf("%s %s is more than 90%% below the current price %s", field, v, cur)
	}
	expect(t, r, 200, `{"jsonrpc":"2.0","id":"t-1","result":{"updated":3,"error_count":15,"errors":[`+strings.Join([]string{
		b(sku(2), 400, "price must be greater than 0"),
		b(sku(2), 400, "price must be greater than 0", "salePrice must have at most 2 decimal places"),
		b(sku(3), 400, "price must have at most 2 decimal places"),
		b(sku(3), 400, "salePrice must not exceed price"),
		b(sku(3), 400, "saleEndDate must not be before saleStartDate"),
		b(sku(3), 400, "saleStartDate must be a date in YYYY-MM-DD format"),
		b(sku(3), 400, "price must be a number"),
		b(sku(3), 400, "price is required"),
		b(sku(3), 400, "price is out of range"),
		b(sku(3), 400, "price is out of range"),
		b(sku(3), 400, "price must not exceed 99999999.99"),
		b("MP000NOSUCHSKU00", 404, "product MP000NOSUCHSKU00 not found"),
		b(other.MarketplaceSKU, 404, "product "+other.MarketplaceSKU+" not found"),
		b(sku(4), 422, guard("price", money(p[4].Price/10-1), money(p[4].Price))),
		b(sku(5), 422, guard("salePrice", money(p[5].Price/10-1), money(p[5].Price))),
	}, ",")+`]}}`)

	// Applied at once (delay 0): the next list shows the new prices.
	after := s.Products(1001)
	check := func(i int, price, sale int64) {
		t.Helper()
		if after[i].Price != price || after[i].SalePrice != sale || after[i].PriceUpdateStatus != "OK" {
			t.Errorf("product %d: %+v, want price %d sale %d", i, after[i], price, sale)
		}
	}
	check(0, p[0].Price/2, p[0].Price/2)
	check(1, p[1].Price, p[1].Price*8/1000*100)
	check(6, p[6].Price/100*100, p[6].Price/2+1)
	for _, i := range []int{2, 3, 4, 5} {
		check(i, p[i].Price, p[i].SalePrice)
	}
	l := listNoms(t, s, tok, 1001, 1, 3)
	for _, n := range l.Nomenclatures { // the three warehouse records of product 0
		if n.MarketplaceSKU != sku(0) || int64(n.Price) != p[0].Price/2 || int64(n.SalePrice) != p[0].Price/2 || n.PriceUpdateStatus != "OK" {
			t.Errorf("list after set-prices: %+v", n)
		}
	}

	perr := func(param, reason string) string {
		return `{"jsonrpc":"2.0","id":"t-1","error":{"code":-32602,"message":"Invalid params","data":{"param":"` + param + `","reason":"` + reason + `"}}}`
	}
	expect(t, rawPrices(t, s, tok, `[]`), 200, perr("prices", "prices must not be empty"))
	expect(t, rawPrices(t, s, tok, `{}`), 200, perr("prices", "prices must be an array"))
	expect(t, rawPrices(t, s, tok, `[{"price":1}]`), 200, perr("prices[0].marketplaceSku", "marketplaceSku must be a non-empty string"))
	expect(t, rawPrices(t, s, tok, `[{"marketplaceSku":"a","price":1},"x"]`), 200, perr("prices[1]", "must be an object"))
	expect(t, rpc(t, s, tok, "v1.nomenclatures.set-prices", map[string]any{}), 200, perr("prices", "prices is required"))
	expect(t, rpc(t, s, tok, "v1.nomenclatures.set-prices", map[string]any{"seller_id": 1002, "prices": []any{map[string]any{"marketplaceSku": other.MarketplaceSKU, "price": 1}}}), 200,
		`{"jsonrpc":"2.0","id":"t-1","error":{"code":403,"message":"Forbidden","data":{"seller_id":1002,"reason":"seller_id 1002 is not the seller of this token"}}}`)
}

func TestRPCSetPricesProcessing(t *testing.T) {
	s := New(Options{PriceApplyDelay: 30 * time.Second})
	tok := sellerToken(t, s, cred1002)
	p := s.Products(1002)[0]
	newPrice, newSale := money(p.Price/2+1), money(p.Price/3)
	r := setPrices(t, s, tok, map[string]any{"marketplaceSku": p.MarketplaceSKU, "price": json.Number(newPrice.String()), "salePrice": json.Number(newSale.String())})
	var res updateResult[itemErrorB]
	rpcResultOf(t, r, &res)
	if res.Updated != 1 || res.ErrorCount != 0 || len(res.Errors) != 0 {
		t.Fatalf("%s", r.body)
	}
	first := listNoms(t, s, tok, 1002, 1, 1).Nomenclatures[0]
	if first.PriceUpdateStatus != "PROCESSING" || int64(first.Price) != p.Price {
		t.Fatalf("during PROCESSING: %+v", first)
	}
	s.Advance(29 * time.Second)
	if n := listNoms(t, s, tok, 1002, 1, 1).Nomenclatures[0]; n.PriceUpdateStatus != "PROCESSING" {
		t.Fatalf("too early: %+v", n)
	}
	s.Advance(time.Second)
	n := listNoms(t, s, tok, 1002, 1, 1).Nomenclatures[0]
	if n.PriceUpdateStatus != "OK" || n.Price != newPrice || n.SalePrice != newSale || !n.UpdatedAt.Equal(s.Now()) {
		t.Fatalf("after the delay: %+v", n)
	}
	// A second change while one is pending replaces it; the guard compares
	// with the price shown now.
	setPrices(t, s, tok, map[string]any{"marketplaceSku": p.MarketplaceSKU, "price": json.Number(money(newPrice - 100).String())})
	setPrices(t, s, tok, map[string]any{"marketplaceSku": p.MarketplaceSKU, "price": json.Number(money(newPrice - 200).String())})
	if n := listNoms(t, s, tok, 1002, 1, 1).Nomenclatures[0]; n.Price != newPrice || n.PriceUpdateStatus != "PROCESSING" {
		t.Fatalf("pending change shown early: %+v", n)
	}
	s.Advance(time.Minute)
	if n := listNoms(t, s, tok, 1002, 1, 1).Nomenclatures[0]; n.Price != newPrice-200 || n.SalePrice != newPrice-200 {
		t.Fatalf("latest change should win: %+v", n)
	}
}

func TestRPCStoreModerationRules(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	byStatus := map[string]nomenclatureJSON{}
	for page := 1; len(byStatus) < 4 && page <= 6; page++ {
		for _, n := range listNoms(t, s, tok, 1001, page, 100).Nomenclatures {
			if _, ok := byStatus[n.Status]; !ok {
				byStatus[n.Status] = n
			}
		}
	}
	for _, st := range []string{"online", "rejected", "in_moderation", "disabled"} {
		if _, ok := byStatus[st]; !ok {
			t.Fatalf("fixtures have no %s record for seller 1001", st)
		}
	}
	item := func(n nomenclatureJSON, status string) map[string]any {
		return map[string]any{"warehouse_code": n.WarehouseCode, "barcode": n.Barcode, "status": status}
	}
	rej, mod, on := byStatus["rejected"], byStatus["in_moderation"], byStatus["online"]
	r := storeItems(t, s, tok, 1001, item(rej, "online"), item(mod, "online"), item(on, "rejected"), item(rej, "disabled"))
	a := func(n nomenclatureJSON, msg string) string {
		return fmt.Sprintf(`{"warehouse_code":%q,"barcode":%q,"error":{"code":422,"message":%q}}`, n.WarehouseCode, n.Barcode, msg)
	}
	expect(t, r, 200, `{"jsonrpc":"2.0","id":"t-1","result":{"updated":1,"error_count":3,"errors":[`+strings.Join([]string{
		a(rej, "the product was rejected by moderation: correct its card before putting it online"),
		a(mod, "the product is still in moderation and cannot go online yet"),
		a(on, "status rejected is set by marketplace moderation, not by the seller"),
	}, ",")+`]}}`)
}
