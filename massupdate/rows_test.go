package massupdate

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckPrices(t *testing.T) {
	rows := []PriceInput{
		{SKU: "A", OrigPrice: "10.00", Price: "10"},            // unchanged ("10" is 10.00)
		{SKU: "B", OrigPrice: "10.00", Price: "12.50"},         // sent
		{SKU: "C", OrigPrice: "10.00", Price: "-1"},            // invalid
		{SKU: "B", OrigPrice: "10.00", Price: "13.00"},         // edited twice
		{SKU: "D", OrigPrice: "10.00", Price: "9", Sale: "11"}, // sale above price
	}
	c := CheckPrices(rows)
	if got := len(c.Send); got != 1 || c.Send[0].MarketplaceSKU != "B" || c.Send[0].Price != 12_50 {
		t.Errorf("to send %+v; want B at 12.50", c.Send)
	}
	if diff := cmp.Diff([]string{"B", "C", "D"}, slices.Sorted(maps.Keys(c.Inputs))); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	want := map[string]map[string]string{
		"B": {"price": "This SKU appears twice in the form; change it in one row only."},
		"C": {"price": "The price must be above zero."},
		"D": {"sale": "The sale price may not exceed the price (9.00): lower it."},
	}
	if diff := cmp.Diff(want, shown(c.Invalid)); diff != "" {
		t.Errorf("invalid (-want +got):\n%s", diff)
	}
}

func TestCheckStock(t *testing.T) {
	rows := []StockInput{
		{Warehouse: "W", Barcode: "1", OrigQty: "3", OrigStatus: "online", Qty: "003", Status: "online"}, // unchanged
		{Warehouse: "W", Barcode: "2", OrigQty: "3", OrigStatus: "online", Qty: "4", Status: "online"},
		{Warehouse: "W", Barcode: "2", OrigQty: "3", OrigStatus: "online", Qty: "5", Status: "online"},
		{Warehouse: "W", Barcode: "3", OrigQty: "3", OrigStatus: "online", Qty: "3", Status: "gone"},
	}
	c := CheckStock(rows)
	if len(c.Send) != 1 || c.Send[0].Barcode != "2" || *c.Send[0].Quantity != 4 {
		t.Errorf("to send %+v; want W|2 at 4", c.Send)
	}
	want := map[string]map[string]string{
		"W|2": {"quantity": "This row appears twice in the form; change it once."},
		"W|3": {"status": "Choose one of the listed statuses."},
	}
	if diff := cmp.Diff(want, shown(c.Invalid)); diff != "" {
		t.Errorf("invalid (-want +got):\n%s", diff)
	}
}
