package handlers

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// overlay lays the typed values and outcomes over the fetched rows, lists
// the edits the page no longer shows (but not an accepted price off the
// page), and moves an accepted row's baseline to what was sent.
func TestOverlayPrices(t *testing.T) {
	t.Parallel()
	rows := []pages.PriceRow{{SKU: "A", Price: "10.00", OrigPrice: "10.00"}, {SKU: "B", Price: "20.00", OrigPrice: "20.00"}, {SKU: "C"}}
	index := map[string]int{"A": 0, "B": 1, "C": 2}
	st := formState[massupdate.PriceInput]{
		inputs: map[string]massupdate.PriceInput{
			"A": {SKU: "A", OrigPrice: "10.00", Price: "11.00"},
			"B": {SKU: "B", OrigPrice: "20.00", Price: "x"},
			"C": {SKU: "C", OrigPrice: "5.00", Price: "6.00"},
			"Y": {SKU: "Y", OrigPrice: "1.00", Price: "2.00"}, // accepted, off the page
			"Z": {SKU: "Z", OrigPrice: "1.00", Price: "3.00"}, // unsent, off the page
		},
		invalid: map[string]map[string]i18n.Msgs{"B": {"price": i18n.Plain("Enter a number, like 1299.50.")}},
		report: &massupdate.Report{Outcomes: map[string]massupdate.Outcome{
			"A": {State: massupdate.Accepted}, "C": {State: massupdate.Rejected, Messages: i18n.Plain("no")},
			"Y": {State: massupdate.Accepted}, "Z": {State: massupdate.Unsent},
		}},
	}
	got := overlay(rows, index, st, priceRows(context.Background(), 0))
	want := []pages.PriceRow{
		{SKU: "A", Price: "11.00", OrigPrice: "11.00", Result: pages.RowResult{State: "accepted", Before: "10.00", After: "11.00"}},
		{SKU: "B", Price: "x", OrigPrice: "20.00", Errors: map[string]i18n.Msgs{"price": i18n.Plain("Enter a number, like 1299.50.")}, Result: pages.RowResult{State: "invalid"}},
		{SKU: "C", Price: "6.00", OrigPrice: "5.00", Result: pages.RowResult{State: "rejected", Messages: i18n.Plain("no")}},
		{SKU: "Z", Name: "(no longer on this page)", Price: "3.00", OrigPrice: "1.00", Result: pages.RowResult{State: "unsent"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// The nomenclature keeps every edited record listed, accepted or not, and
// an item error keyed by SKU rejects its record late.
func TestOverlayStock(t *testing.T) {
	t.Parallel()
	rows := []pages.NomenclatureRow{{Key: "W_1", Quantity: "3", OrigQuantity: "3", Status: "online", OrigStatus: "online"}}
	index := map[string]int{"W|1": 0}
	rep := &massupdate.Report{
		Outcomes:  map[string]massupdate.Outcome{"W|1": {State: massupdate.Accepted}, "W|9": {State: massupdate.Accepted}},
		Accepted:  2,
		Unmatched: map[string]i18n.Msgs{"SKU1": i18n.Plain("refused by SKU")},
	}
	st := formState[massupdate.StockInput]{
		inputs: map[string]massupdate.StockInput{
			"W|1": {Warehouse: "W", Barcode: "1", OrigQty: "3", OrigStatus: "online", Qty: "4", Status: "online"},
			"W|9": {Warehouse: "W", Barcode: "9", OrigQty: "1", OrigStatus: "online", Qty: "2", Status: "online"},
		},
		report: rep,
	}
	st.matchLate("W|1", "SKU1")
	got := overlay(rows, index, st, stockRows(context.Background()))
	if len(got) != 2 || got[0].Result.State != "rejected" || !cmp.Equal(got[0].Result.Messages, i18n.Plain("refused by SKU")) {
		t.Fatalf("rows %+v; want W|1 rejected late and W|9 listed", got)
	}
	if got[1].Key != "W_9" || got[1].Result.State != "accepted" || got[1].OrigQuantity != "2" {
		t.Errorf("off-page row %+v; want accepted with its baseline moved", got[1])
	}
	if rep.Accepted != 1 || rep.Rejected != 1 {
		t.Errorf("counts %d accepted, %d rejected; want 1 and 1", rep.Accepted, rep.Rejected)
	}
}
