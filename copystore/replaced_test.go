package copystore

import (
	"context"
	"testing"
	"time"
)

// TestAcceptKeepsReplaced: an accepted change keeps, per part, what it
// replaced, what it set and when; the passes and the read-backs since,
// confirming the change or not, keep it; the next accepted change of a
// part replaces that part's only; a record never changed has none.
func TestAcceptKeepsReplaced(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4400)
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		src := catalogue(60, 0)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		one, two := src.recs[7], src.recs[8]
		for _, r := range src.recs {
			if r.MarketplaceSKU != one.MarketplaceSKU {
				two = r // a record of another product
			}
		}
		keys := []StockKey{{one.WarehouseCode, one.Barcode}, {two.WarehouseCode, two.Barcode}}
		first := time.Now().Add(time.Hour).Truncate(time.Millisecond)
		s.SetClock(func() time.Time { return first })
		newPrice := one.Price.Kopecks() + 10_000
		if err := s.Accept(ctx, k, []Change{
			{SKU: one.MarketplaceSKU, Price: &newPrice},
			{Warehouse: one.WarehouseCode, Barcode: one.Barcode, Quantity: new(one.Quantity + 40), Status: "archived"},
		}); err != nil {
			t.Fatal(err)
		}
		want := Replaced{
			Price:    &Replacement[Prices]{Was: Prices{one.Price.Kopecks(), one.SalePrice.Kopecks()}, To: Prices{newPrice, 0}, At: first},
			Quantity: &Replacement[int]{Was: one.Quantity, To: one.Quantity + 40, At: first},
			Status:   &Replacement[string]{Was: one.Status, To: "archived", At: first},
		}
		check := func(when string, want Replaced) {
			t.Helper()
			got, err := s.Replacements(ctx, k, keys)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := got[keys[1]]; ok {
				t.Errorf("%s: a record never changed has a replaced value: %+v", when, got[keys[1]])
			}
			r, ok := got[keys[0]]
			if !ok {
				t.Fatalf("%s: the changed record keeps nothing", when)
			}
			if !same(r.Price, want.Price) || !same(r.Quantity, want.Quantity) || !same(r.Status, want.Status) {
				t.Errorf("%s: kept price %+v quantity %+v status %+v, want %+v %+v %+v", when,
					*r.Price, *r.Quantity, *r.Status, *want.Price, *want.Quantity, *want.Status)
			}
		}
		check("accepted", want)

		// A pass that started after it: the marketplace's word, the
		// pending marks go, the record of the change stays.
		s.SetClock(func() time.Time { return first.Add(time.Second) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		check("after a pass", want)
		if err := s.Confirm(ctx, k, first.Add(2*time.Second), src.recs[7:8]); err != nil {
			t.Fatal(err)
		}
		check("after a read-back", want)
		checkCounts(t, s, k, "after a read-back")

		// The next accepted quantity replaces the quantity's record
		// alone, with the quantity the record then showed.
		second := first.Add(time.Minute)
		s.SetClock(func() time.Time { return second })
		if err := s.Accept(ctx, k, []Change{{Warehouse: one.WarehouseCode, Barcode: one.Barcode, Quantity: new(3)}}); err != nil {
			t.Fatal(err)
		}
		want.Quantity = &Replacement[int]{Was: one.Quantity, To: 3, At: second}
		check("a second quantity", want)

		// A price accepted over a price still pending replaced the
		// pending one: that is what the record showed.
		again := newPrice + 500
		if err := s.Accept(ctx, k, []Change{{SKU: one.MarketplaceSKU, Price: &newPrice}}); err != nil {
			t.Fatal(err)
		}
		if err := s.Accept(ctx, k, []Change{{SKU: one.MarketplaceSKU, Price: &again, SalePrice: newPrice}}); err != nil {
			t.Fatal(err)
		}
		want.Price = &Replacement[Prices]{Was: Prices{newPrice, 0}, To: Prices{again, newPrice}, At: second}
		check("a price over a pending one", want)
		checkCounts(t, s, k, "at the end")
	})
}

// same compares two kept changes, their times as instants.
func same[T comparable](a, b *Replacement[T]) bool {
	return a != nil && b != nil && a.Was == b.Was && a.To == b.To && a.At.Equal(b.At)
}
