package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"
)

func TestFaultWildRecords(t *testing.T) {
	s := New(Options{})
	tok := b2bToken(t, s, "", cred1001)
	s.InjectFault(Fault{Route: RouteB2BOrders, Kind: FaultWildRecords})
	r := doReq(t, s, http.MethodGet, "/api/v1/orders?limit=3", "", bearer(tok)...)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, short(r.body))
	}
	var body struct {
		Total    int `json:"total"`
		Embedded struct {
			Orders []map[string]any `json:"orders"`
		} `json:"_embedded"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	orders := body.Embedded.Orders
	if len(orders) != 4 {
		t.Fatalf("%d records, want the 3 asked for and one unreadable", len(orders))
	}
	first := orders[0]
	if _, ok := first["id"].(string); !ok {
		t.Errorf("first id = %#v, want a string", first["id"])
	}
	if s, _ := first["createdAt"].(string); len(s) != len("2006-01-02 15:04:05") || s[10] != ' ' {
		t.Errorf("first createdAt = %q, want YYYY-MM-DD hh:mm:ss", s)
	}
	if v, ok := first["paymentMethod"]; !ok || v != nil {
		t.Errorf("paymentMethod = %#v, want null", v)
	}
	if _, ok := orders[1]["id"].(map[string]any); !ok {
		t.Errorf("second record = %v, want the unreadable one", orders[1])
	}
	if _, ok := orders[2]["id"].(float64); !ok {
		t.Errorf("third record's id = %#v, want it untouched", orders[2]["id"])
	}

	// Once: the next answer is the plain one; the state is the same.
	r = doReq(t, s, http.MethodGet, "/api/v1/orders?limit=3", "", bearer(tok)...)
	if err := json.Unmarshal(r.body, &body); err != nil || len(body.Embedded.Orders) != 3 {
		t.Fatalf("after the fault: %v, %d records", err, len(body.Embedded.Orders))
	}

	// The nomenclature list inside a JSON-RPC result and the return boxes too.
	seller := sellerToken(t, s, cred1001)
	s.InjectFault(Fault{Kind: FaultWildRecords, Times: 2})
	rr := rpc(t, s, seller, "v1.nomenclatures.list", map[string]any{"seller_id": 1001, "limit": 2})
	var res struct {
		Nomenclatures []map[string]any `json:"nomenclatures"`
	}
	rpcResultOf(t, rr, &res)
	if len(res.Nomenclatures) != 3 || res.Nomenclatures[1]["price"] != "n/a" {
		t.Errorf("nomenclatures = %v", res.Nomenclatures)
	}
	rb := doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001&limit=2", "", bearer(seller)...)
	var boxes struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(rb.body, &boxes); err != nil || len(boxes.Data) != 3 || boxes.Data[1]["item_quantity"] != "many" {
		t.Errorf("boxes = %v (%v)", boxes.Data, err)
	}
}
