package bulkjobs

import (
	"reflect"
	"testing"
)

// TestRetryTable: the rows kept, as typed, with the edited cells
// replaced and their lines kept; the full header of the kind.
func TestRetryTable(t *testing.T) {
	items := []Item{
		{Seq: 1, Line: 2, State: ItemRejected, Typed: `{"sku":"A","price":"100","sale":"90"}`},
		{Seq: 2, Line: 3, State: ItemAccepted, Typed: `{"sku":"B","price":"200"}`},
		{Seq: 3, Line: 7, State: ItemUnsent},
	}
	keep := func(it Item) bool { return it.State != ItemAccepted }
	tb, m := RetryTable("prices", items, map[int]map[string]string{1: {"price": "110"}, 3: {"sale": "5"}}, keep)
	want := [][]string{{"A", "110", "90", "", ""}, {"", "", "5", "", ""}}
	if !reflect.DeepEqual(tb.Rows, want) || !reflect.DeepEqual(tb.Lines, []int{2, 7}) || m.Cell(tb.Rows[0], "price") != "110" {
		t.Errorf("prices: rows %q lines %v, want %q at 2 and 7", tb.Rows, tb.Lines, want)
	}
	items = []Item{{Seq: 1, Line: 4, Typed: `{"warehouse":"W","barcode":"111","quantity":"3","status":"active"}`}}
	tb, m = RetryTable("stock", items, map[int]map[string]string{1: {"quantity": "4"}}, func(Item) bool { return true })
	if len(tb.Rows) != 1 || m.Cell(tb.Rows[0], "warehouse") != "W" || m.Cell(tb.Rows[0], "quantity") != "4" || m.Cell(tb.Rows[0], "status") != "active" {
		t.Errorf("stock: rows %q", tb.Rows)
	}
	if f := EditFields("stock"); !reflect.DeepEqual(f, []string{"quantity", "status"}) {
		t.Errorf("stock edits %v", f)
	}
}
