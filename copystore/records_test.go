package copystore

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestWireMapping: the sync's one mapping keeps every field the copy
// stores of an order and a box, amounts in kopecks, a box not shipped
// with a zero time.
func TestWireMapping(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	o := orderOf(&apiclient.Order{ID: "7", OrderNr: "RU261102-000001", Status: "new", PaymentMethod: "card", Currency: "rub",
		FullSum: 123450, DeliveryPrice: 19900, CreatedAt: at, UpdatedAt: at.Add(time.Hour), IsConfirmed: true, ItemQuantity: 3,
		Items: []apiclient.OrderItem{{ID: "1"}}})
	want := Order{OrderNr: "RU261102-000001", Status: "new", PaymentMethod: "card", Currency: "rub", FullSum: 123450, DeliveryPrice: 19900,
		ItemQuantity: 3, IsConfirmed: true, CreatedAt: at, UpdatedAt: at.Add(time.Hour)}
	if o != want {
		t.Errorf("order %+v, want %+v", o, want)
	}
	shipped := at.Add(2 * time.Hour)
	boxes := mapAll([]apiclient.ReturnBox{
		{Code: "B-1", Status: "shipped", DimensionSymbol: "M", ItemQuantity: 2, CreatedAt: at, UpdatedAt: at, ShippedAt: &shipped},
		{Code: "B-2", Status: "loading", DimensionSymbol: "S"},
	}, boxOf)
	if boxes[0] != (Box{Code: "B-1", Status: "shipped", Dimension: "M", ItemQuantity: 2, CreatedAt: at, UpdatedAt: at, ShippedAt: shipped}) {
		t.Errorf("shipped box %+v", boxes[0])
	}
	if !boxes[1].ShippedAt.IsZero() || boxes[1].Dimension != "S" {
		t.Errorf("box not shipped %+v", boxes[1])
	}
}
