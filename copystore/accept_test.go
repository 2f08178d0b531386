package copystore

import (
	"context"
	"testing"
	"time"
)

// TestAcceptStock: an accepted quantity or status is in the record at
// once, marked pending (a part not changed is neither written nor
// marked); a pass that started before it keeps it, and one that starts
// after takes what the marketplace shows and clears the mark.
func TestAcceptStock(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4300)
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		src := catalogue(60, 0)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		one, two := src.recs[7], src.recs[8]
		get := func(barcode string) Record {
			t.Helper()
			recs, err := s.Nomenclature(ctx, k, Query{Q: barcode})
			if err != nil || len(recs) != 1 {
				t.Fatalf("%s: %d records, %v", barcode, len(recs), err)
			}
			return recs[0]
		}
		// Accepted an hour from now: a pass that starts now started
		// before it.
		later := time.Now().Add(time.Hour)
		s.SetClock(func() time.Time { return later })
		if err := s.Accept(ctx, k, []Change{
			{Warehouse: one.WarehouseCode, Barcode: one.Barcode, Quantity: new(one.Quantity + 40), Status: "archived"},
			{Warehouse: two.WarehouseCode, Barcode: two.Barcode, Quantity: new(two.Quantity + 50)},
		}); err != nil {
			t.Fatal(err)
		}
		check := func(when string, pending bool) {
			t.Helper()
			r := get(one.Barcode)
			if pending && (r.Quantity != one.Quantity+40 || r.Status != "archived" || !r.QuantityPending || !r.StatusPending) {
				t.Errorf("%s: the accepted stock and status are not pending in the copy: %+v", when, r)
			}
			if !pending && (r.Quantity != one.Quantity || r.Status != one.Status || r.QuantityPending || r.StatusPending) {
				t.Errorf("%s: the marketplace's values are not in the copy: %+v", when, r)
			}
			r = get(two.Barcode)
			if r.StatusPending || r.Status != two.Status {
				t.Errorf("%s: a status not changed is marked or changed: %+v", when, r)
			}
			if pending != r.QuantityPending || pending && r.Quantity != two.Quantity+50 {
				t.Errorf("%s: quantity %d pending %v", when, r.Quantity, r.QuantityPending)
			}
		}
		check("accepted", true)
		checkCounts(t, s, k, "accepted")
		s.SetClock(time.Now)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		check("after a pass that started before", true)
		checkCounts(t, s, k, "after a pass that started before")
		s.SetClock(func() time.Time { return later.Add(time.Second) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		check("after a pass that started after", false)
		checkCounts(t, s, k, "after a pass that started after")
	})
}
