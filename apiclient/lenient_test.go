package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// wildOrders is one orders page as the marketplace writes it in the wild:
// string and number ids, timestamps in four forms, nulls for optional
// fields, and three records that cannot be read among the good ones.
const wildOrders = `{"page":1,"limit":20,"pages":1,"total":7,"_embedded":{"orders":[
 {"id":"RU260807-188386-001C","orderNr":"RU260807-188386","status":"new","fullSum":"1234.00","createdAt":"2026-11-20 10:00:00","updatedAt":"2026-11-20T10:05:00.123456+03:00","items":[{"id":"IT-1","sku":"S1","paidPrice":"10.00"}]},
 {"id":{"not":"an id"},"orderNr":"RU-BAD-ID","createdAt":"2026-11-20T10:00:00Z"},
 {"id":188387,"orderNr":"RU260807-188387","status":"confirmed","paymentMethod":null,"fullSum":99.5,"deliveryPrice":null,"createdAt":"2026-11-20T07:00:00Z","updatedAt":null,"isConfirmed":null,"items":null},
 "not an order",
 {"id":3,"orderNr":"RU-BAD-TIME","createdAt":"yesterday"},
 {"id":"4","orderNr":"RU260807-188389","createdAt":"2026-11-20T10:00:00","items":[{"id":77,"sku":"S2"},{"id":null,"sku":"S3"}]},
 {"id":5,"orderNr":"RU260807-188390","createdAt":"2026-11-20 10:00:00.5","itemQuantity":2}
]}}`

func TestListOrdersWildRecords(t *testing.T) {
	msk := apiclient.MarketplaceLocation
	want := []apiclient.Order{
		{ID: "RU260807-188386-001C", OrderNr: "RU260807-188386", Status: "new", FullSum: 123400,
			CreatedAt: time.Date(2026, 11, 20, 7, 0, 0, 0, time.UTC),
			UpdatedAt: time.Date(2026, 11, 20, 7, 5, 0, 123456000, time.UTC),
			Items:     []apiclient.OrderItem{{ID: "IT-1", SKU: "S1", PaidPrice: 1000}}},
		{ID: "188387", OrderNr: "RU260807-188387", Status: "confirmed", FullSum: 9950,
			CreatedAt: time.Date(2026, 11, 20, 7, 0, 0, 0, time.UTC)},
		{ID: "4", OrderNr: "RU260807-188389", CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, msk),
			Items: []apiclient.OrderItem{{ID: "77", SKU: "S2"}, {ID: "", SKU: "S3"}}},
		{ID: "5", OrderNr: "RU260807-188390", CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 5e8, msk), ItemQuantity: 2},
	}
	for _, withoutItems := range []bool{false, true} {
		t.Run(map[bool]string{false: "with items", true: "without items"}[withoutItems], func(t *testing.T) {
			m := newMarket()
			m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, wildOrders) }
			acct, _ := serve(t, m)
			var skips apiclient.Skips
			ctx := apiclient.WithSkips(context.Background(), &skips)
			list, err := acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{WithoutItems: withoutItems})
			if err != nil {
				t.Fatalf("ListOrders: %v", err)
			}
			wantHere := want
			if withoutItems {
				wantHere = make([]apiclient.Order, len(want))
				for i, o := range want {
					o.Items = nil
					wantHere[i] = o
				}
			}
			if diff := cmp.Diff(wantHere, list.Orders, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("orders (-want +got):\n%s", diff)
			}
			if list.Skipped != 3 || list.Total != 7 {
				t.Errorf("Skipped = %d, Total = %d; want 3 skipped of 7", list.Skipped, list.Total)
			}
			wantReason := "field _embedded.orders.1.id: JSON object where apiclient.OrderID was expected"
			if list.SkipReason != wantReason {
				t.Errorf("SkipReason = %q, want %q", list.SkipReason, wantReason)
			}
			if list.RequestID == "" {
				t.Error("RequestID is empty")
			}
			reason, reqID := skips.First()
			if skips.Count() != 3 || reason != wantReason || reqID != list.RequestID {
				t.Errorf("Skips = %d, %q, %q; want 3, the list's reason and request id", skips.Count(), reason, reqID)
			}
		})
	}
}

// Every list decode leaves out what it cannot read: nomenclature and
// return boxes too.
func TestListWildRecordsEveryList(t *testing.T) {
	m := newMarket()
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		rpcResult(w, req.ID, `{"page":1,"limit":3,"pages":1,"total":3,"nomenclatures":[
			{"seller_id":1001,"barcode":"1","marketplaceSku":"MP1","price":"100.00","salePrice":null,"updatedAt":"2026-11-20 10:00:00","brand":null},
			{"seller_id":1001,"barcode":"2","marketplaceSku":"MP2","price":"n/a"},
			{"seller_id":"1001","barcode":"3","marketplaceSku":"MP3"},
			{"seller_id":1001,"barcode":"4","marketplaceSku":"MP4","quantity":5,"updatedAt":"2026-11-20T10:00:00.25Z"}]}`)
	}
	m.rest = func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"data":[
			{"code":"B-1","status":"shipped","item_quantity":2,"created_at":"2026-11-20 10:00:00","updated_at":"2026-11-20T10:00:00Z","shipped_at":"2026-11-21 09:30:00"},
			{"code":"B-2","item_quantity":"many"},
			{"code":"B-3","status":"in_progress","created_at":"2026-11-20T10:00:00+03:00","shipped_at":null},
			[1, 2, 3]],
			"pagination":{"page":1,"limit":20,"pages":1,"total":4}}`)
	}
	acct, _ := serve(t, m)
	var skips apiclient.Skips
	ctx := apiclient.WithSkips(context.Background(), &skips)

	noms, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1001})
	if err != nil {
		t.Fatalf("ListNomenclatures: %v", err)
	}
	var skus []string
	for _, n := range noms.Nomenclatures {
		skus = append(skus, n.MarketplaceSKU)
	}
	if strings.Join(skus, ",") != "MP1,MP4" || noms.Skipped != 2 {
		t.Errorf("records %v, skipped %d; want MP1,MP4 and 2 skipped", skus, noms.Skipped)
	}
	if got := noms.Nomenclatures[0]; !got.UpdatedAt.Equal(time.Date(2026, 11, 20, 7, 0, 0, 0, time.UTC)) || got.Price != 10000 || got.SalePrice != 0 {
		t.Errorf("first record = %+v", got)
	}
	if !strings.HasPrefix(noms.SkipReason, "field result.nomenclatures.1.price") && !strings.HasPrefix(noms.SkipReason, "field nomenclatures.1.price") {
		t.Errorf("SkipReason = %q", noms.SkipReason)
	}

	boxes, err := acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: 1001})
	if err != nil {
		t.Fatalf("ReturnBoxes.List: %v", err)
	}
	if len(boxes.Boxes) != 2 || boxes.Boxes[0].Code != "B-1" || boxes.Boxes[1].Code != "B-3" || boxes.Skipped != 2 {
		t.Fatalf("boxes = %+v", boxes)
	}
	b := boxes.Boxes[0]
	if b.ShippedAt == nil || !b.ShippedAt.Equal(time.Date(2026, 11, 21, 6, 30, 0, 0, time.UTC)) || !b.CreatedAt.Equal(time.Date(2026, 11, 20, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("box B-1 times: created %v, shipped %v", b.CreatedAt, b.ShippedAt)
	}
	if boxes.Boxes[1].ShippedAt != nil {
		t.Errorf("box B-3 shipped_at null decoded as %v", boxes.Boxes[1].ShippedAt)
	}
	if skips.Count() != 4 {
		t.Errorf("Skips.Count() = %d, want 4 across both calls", skips.Count())
	}

	// The iterators skip the same records and go on.
	var n int
	for _, err := range acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1001}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 || skips.Count() != 6 {
		t.Errorf("AllNomenclatures yielded %d, skips %d; want 2 and 6", n, skips.Count())
	}
}

// What is not a record problem still fails the whole answer: broken JSON,
// or a list member of the wrong kind.
func TestListWildAnswerStillFails(t *testing.T) {
	for name, body := range map[string]string{
		"syntax error in a record": `{"page":1,"_embedded":{"orders":[{"id":1},{"id":2,,}]}}`,
		"orders not a list":        `{"page":1,"_embedded":{"orders":{"id":1}}}`,
		"page of the wrong kind":   `{"page":"one","_embedded":{"orders":[]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			m := newMarket()
			m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) }
			acct, _ := serve(t, m)
			_, err := acct.B2B.ListOrders(context.Background(), nil)
			if !errors.Is(err, apiclient.ErrUnexpectedResponse) {
				t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
			}
		})
	}
}

func TestParseTimestamp(t *testing.T) {
	utc := func(h, m, s, ns int) time.Time { return time.Date(2026, 11, 20, h, m, s, ns, time.UTC) }
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2026-11-20T10:00:00Z", utc(10, 0, 0, 0)},
		{"2026-11-20T10:00:00.123Z", utc(10, 0, 0, 123e6)},
		{"2026-11-20T10:00:00+03:00", utc(7, 0, 0, 0)},
		{"2026-11-20T10:00:00.5+03:00", utc(7, 0, 0, 5e8)},
		{"2026-11-20 10:00:00", utc(7, 0, 0, 0)},
		{" 2026-11-20 10:00:00 ", utc(7, 0, 0, 0)},
		{"2026-11-20 10:00:00.250", utc(7, 0, 0, 25e7)},
		{"2026-11-20T10:00:00", utc(7, 0, 0, 0)},
		{"2026-11-20 10:00", utc(7, 0, 0, 0)},
		{"2026-11-20", time.Date(2026, 11, 19, 21, 0, 0, 0, time.UTC)},
		{"2026-11-20 10:00:00+03:00", utc(7, 0, 0, 0)},
		{"2026-11-20 10:00:00+0300", utc(7, 0, 0, 0)},
		{"2026-11-20T10:00:00+0300", utc(7, 0, 0, 0)},
		{"2026-11-20 10:00:00+03", utc(7, 0, 0, 0)},
	}
	for _, tt := range tests {
		got, err := apiclient.ParseTimestamp(tt.in)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "20.11.2026 10:00", "2026-13-01 10:00:00", "2026-11-20 25:00:00", strings.Repeat("2", 100)} {
		if got, err := apiclient.ParseTimestamp(bad); err == nil {
			t.Errorf("ParseTimestamp(%q) = %v, want an error", bad, got)
		} else if bad != "" && strings.Contains(err.Error(), bad) {
			t.Errorf("error %q quotes the input", err)
		}
	}
}

// Identifiers read with encoding/json accept what the client's decoder
// accepts.
func TestOrderIDUnmarshalJSON(t *testing.T) {
	for in, want := range map[string]apiclient.OrderID{`"RU-1"`: "RU-1", `188386`: "188386", `null`: ""} {
		var id apiclient.OrderID
		if err := jsonUnmarshal([]byte(in), &id); err != nil || id != want {
			t.Errorf("unmarshal %s = %q, %v; want %q", in, id, err, want)
		}
	}
	var id apiclient.OrderItemID
	if err := jsonUnmarshal([]byte(`{"x":1}`), &id); err == nil {
		t.Errorf("an object was accepted as an id: %q", id)
	}
}
