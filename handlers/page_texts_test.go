package handlers

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// TestPageTextsMatch: the texts written into one buffer for a page are
// what the per-value functions make (row key, price, sale price in the
// page's language, quantity), and each row keeps its own after the later
// rows are written.
func TestPageTextsMatch(t *testing.T) {
	t.Parallel()
	recs := []browse.Record{
		{WarehouseCode: "MSK-1", Barcode: "4600000000017", Quantity: 5},
		{WarehouseCode: "Склад №1", Barcode: "a|b x\x00\xff", Quantity: -3},
		{WarehouseCode: "", Barcode: "", Quantity: math.MaxInt},
		{WarehouseCode: "W", Barcode: "1", Quantity: math.MinInt},
		{WarehouseCode: "W", Barcode: "2", Quantity: 0},
	}
	prices := [][2]int64{{129950, 99900}, {0, 0}, {math.MaxInt64, math.MaxInt64 - 1}, {math.MinInt64 + 1, 5}, {100, 200}}
	for i := range recs {
		recs[i].Price, recs[i].SalePrice = prices[i][0], prices[i][1]
	}
	for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
		p := newPageTexts(recs)
		got := make([]rowTexts, len(recs))
		for i, n := range recs {
			got[i] = p.row(l, n)
		}
		for i, n := range recs {
			want := rowTexts{key: rowKey(n.WarehouseCode + "|" + n.Barcode), price: format.MoneyIn(l, int64(n.Price)),
				sale: saleTextIn(l, n.Price, n.SalePrice), qty: strconv.Itoa(n.Quantity)}
			if got[i] != want {
				t.Errorf("%s, row %d: %+v, want %+v", l, i, got[i], want)
			}
		}
	}
}

// TestPageTextsOneAllocation: a page's texts cost one allocation, however
// many rows, where each value made its own string before.
func TestPageTextsOneAllocation(t *testing.T) {
	recs := make([]browse.Record, 50)
	for i := range recs {
		recs[i] = browse.Record{WarehouseCode: "Склад-" + strconv.Itoa(i), Barcode: strings.Repeat("46", 7) + strconv.Itoa(i),
			Price: int64(123456789 + i), SalePrice: int64(1000 + i), Quantity: 1000000 + i}
	}
	var sink rowTexts
	n := testing.AllocsPerRun(20, func() {
		p := newPageTexts(recs)
		for _, r := range recs {
			sink = p.row(i18n.RU, r)
		}
	})
	if n > 2 { // the buffer, and the pageTexts if it escapes
		t.Errorf("%v allocations for 50 rows' texts, want at most 2", n)
	}
	_ = sink
}

// TestSellerStatusOptionsPerLanguage: a row's status choices are what
// sellerStatusOptions gives, in the request's language; those of a
// status the marketplace defines are built once per language, any other
// status's every time (nothing unbounded is kept).
func TestSellerStatusOptionsPerLanguage(t *testing.T) {
	t.Parallel()
	a := &App{}
	for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
		ctx := i18n.WithLang(context.Background(), l)
		for _, st := range append(slices.Clone(massupdate.Statuses), "", "weird-status") {
			got, want := a.sellerStatusOptionsIn(ctx, st), sellerStatusOptions(ctx, st)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %q: %+v, want %+v", l, st, got, want)
			}
			again := a.sellerStatusOptionsIn(ctx, st)
			shared := len(got) > 0 && &again[0] == &got[0]
			if known := slices.Contains(massupdate.Statuses, st); shared != known {
				t.Errorf("%s, %q: built once %v, want %v", l, st, shared, known)
			}
		}
	}
	if a.sellerStatusOptionsIn(i18n.WithLang(context.Background(), i18n.RU), "online")[0].Label ==
		a.sellerStatusOptionsIn(i18n.WithLang(context.Background(), i18n.EN), "online")[0].Label {
		t.Error("one label for both languages")
	}
	if a.sellerOptions.has(sellerOptionsKey{i18n.RU, "weird-status"}) {
		t.Error("an unknown status was kept")
	}
}
