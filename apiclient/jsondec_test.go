package apiclient

import (
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// The decoder keeps encoding/json's tolerance of marketplace data.
func TestUnmarshalTolerance(t *testing.T) {
	var o Order
	body := "{\"ID\": 7, \"orderNr\": \"A\xffB\", \"status\": \"new\", \"status\": \"confirmed\", \"fullSum\": \"12.50\", \"unknown\": {\"deep\": [1, 2]}}"
	if err := unmarshal([]byte(body), &o); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if o.ID != "7" {
		t.Errorf("ID = %q, want 7 (names match regardless of case)", o.ID)
	}
	if o.OrderNr != "A\uFFFDB" {
		t.Errorf("OrderNr = %q, want invalid UTF-8 replaced by U+FFFD", o.OrderNr)
	}
	if o.Status != "confirmed" {
		t.Errorf("Status = %q, want the last of repeated names", o.Status)
	}
	if o.FullSum != 1250 {
		t.Errorf("FullSum = %d kopecks, want 1250", o.FullSum)
	}

	var w orderListWire
	if err := jsonv2.Unmarshal([]byte(`{"_embedded":{"orders":[{"id":1,"itemQuantity":2,"items":[{"id":9,"sku":"S"}]}]}}`), &w, withoutItemsOptions); err != nil {
		t.Fatal(err)
	}
	if got := w.Embedded.Orders.items[0]; got.ID != "1" || got.ItemQuantity != 2 || got.Items != nil {
		t.Errorf("summary order = %+v, want id 1, 2 items counted, none decoded", got)
	}
}

func TestJSONErrorReason(t *testing.T) {
	long := strings.Repeat("я", 200)
	tests := []struct {
		name, body string
		v          any
		want       string
	}{
		{"syntax", `{"page": x}`, &orderListWire{}, "invalid JSON at offset 9"},
		{"truncated", `{"page": 1, "_embedded": {"orders": [{"id": 1`, &orderListWire{}, "truncated JSON"},
		{"type", `{"page": "one"}`, &orderListWire{}, "field page: JSON string where int was expected"},
		{"nested type", `[{}, {"id": true}]`, &[]Order{}, "field 1.id: JSON bool where apiclient.OrderID was expected"},
		{"money", `{"_embedded": {"orders": [{"fullSum": "lots"}]}}`, &struct {
			E struct {
				O []Order `json:"orders"`
			} `json:"_embedded"`
		}{}, "field _embedded.orders.0.fullSum: "},
		{"long path", `{"` + long + `": 1}`, &map[string]int{}, ""},
		{"long path typed", `{"` + long + `": "x"}`, &map[string]int{}, "field " + strings.Repeat("я", 40) + "…: JSON string where int was expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := unmarshal([]byte(tt.body), tt.v)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unmarshal: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("unmarshal succeeded, want %q", tt.want)
			}
			got := jsonErrorReason(err)
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("reason = %q, want prefix %q", got, tt.want)
			}
			if strings.Contains(got, "lots") || len(got) > 200 {
				t.Errorf("reason %q quotes the body or is unbounded", got)
			}
		})
	}
}

// The JSON-RPC envelope and its result are decoded in one pass; what the
// two-pass decoding reported is still reported.
func TestRPCEnvelopeOnePass(t *testing.T) {
	type res struct {
		Total int      `json:"total"`
		Items []string `json:"items"`
	}
	tests := []struct {
		name, body string
		present    bool
		want       res
		wantErr    string
	}{
		{"result", `{"jsonrpc":"2.0","id":"ID","result":{"total":2,"items":["a","b"]}}`, true, res{2, []string{"a", "b"}}, ""},
		{"result before id", `{"result":{"total":1},"id":"ID","jsonrpc":"2.0"}`, true, res{Total: 1}, ""},
		{"null result", `{"jsonrpc":"2.0","id":"ID","result":null}`, false, res{}, ""},
		{"no result", `{"jsonrpc":"2.0","id":"ID"}`, false, res{}, ""},
		{"result of the wrong type", `{"jsonrpc":"2.0","id":"ID","result":{"total":"two"}}`, true, res{}, "result: field total: JSON string where int was expected"},
		{"result not an object", `{"jsonrpc":"2.0","id":"ID","result":[1]}`, true, res{}, "result: JSON array where "},
		{"another id", `{"jsonrpc":"2.0","id":"OTHER","result":{"total":2}}`, true, res{}, "id does not match"},
		{"error object", `{"jsonrpc":"2.0","id":"ID","error":{"code":-32602,"message":"Invalid params"}}`, false, res{}, "Invalid params"},
		{"truncated", `{"jsonrpc":"2.0","id":"ID","result":{"total":2`, true, res{}, "truncated JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got res
			w, err := decodeRPCEnvelope(fuzzResponse(200, "application/json", []byte(tt.body)), "ID", "v1.x", &got)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if w.Result.present != tt.present {
				t.Errorf("present = %v, want %v", w.Result.present, tt.present)
			}
			if got.Total != tt.want.Total || strings.Join(got.Items, ",") != strings.Join(tt.want.Items, ",") {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
		})
	}
}
