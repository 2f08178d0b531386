package copystore

import (
	"context"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestAcceptStock: an accepted quantity or status is in the record at
// once, marked pending (a part not changed is neither written nor
// marked); a pass that started before it keeps it, and one that starts
// after takes what the marketplace shows and clears the mark.
func TestAcceptStock(t *testing.T) {
	t.Parallel()
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

// TestConfirm: a read outside a pass that started after an accepted
// change is the marketplace's word on it: the mark is cleared and the
// values read kept (a price still processing stays pending); a read that
// started before the change leaves it pending.
func TestConfirm(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4301)
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		src := catalogue(30, 0)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		one, two, three := src.recs[4], src.recs[5], src.recs[6]
		accepted := time.Now()
		s.SetClock(func() time.Time { return accepted })
		if err := s.Accept(ctx, k, []Change{
			{Warehouse: one.WarehouseCode, Barcode: one.Barcode, Quantity: new(50), Status: "archived"},
			{Warehouse: two.WarehouseCode, Barcode: two.Barcode, Quantity: new(60), Status: "archived"},
			{Warehouse: three.WarehouseCode, Barcode: three.Barcode, Quantity: new(70)},
			{SKU: one.MarketplaceSKU, Price: new(int64(7000)), SalePrice: 6000},
			{SKU: two.MarketplaceSKU, Price: new(int64(8000)), SalePrice: 0},
		}); err != nil {
			t.Fatal(err)
		}
		read := func(r apiclient.Nomenclature, qty int, status string, price int64, priceStatus string) apiclient.Nomenclature {
			r.Quantity, r.Status, r.Price, r.SalePrice, r.PriceUpdateStatus = qty, status, apiclient.Money(price), apiclient.Money(price), priceStatus
			return r
		}
		// Read after the changes: the first as accepted, the second with
		// another quantity (the marketplace's word) and its price still
		// processing.
		after := []apiclient.Nomenclature{read(one, 50, "archived", 7000, "OK"), read(two, 59, "archived", 8000, "PROCESSING")}
		if err := s.Confirm(ctx, k, accepted.Add(time.Millisecond), after); err != nil {
			t.Fatal(err)
		}
		// Read before the third change.
		if err := s.Confirm(ctx, k, accepted.Add(-time.Second), []apiclient.Nomenclature{read(three, 1, three.Status, 1, "OK")}); err != nil {
			t.Fatal(err)
		}
		get := func(r apiclient.Nomenclature) Record {
			t.Helper()
			recs, err := s.Nomenclature(ctx, k, Query{Q: r.Barcode})
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			return recs[0]
		}
		if r := get(one); r.QuantityPending || r.StatusPending || r.Pending != nil || r.Price != 7000 || r.Quantity != 50 || r.Status != "archived" {
			t.Errorf("not confirmed: %+v", r)
		}
		if r := get(two); r.QuantityPending || r.StatusPending || r.Quantity != 59 || r.Pending == nil || r.Pending.Price != 8000 {
			t.Errorf("the read's quantity is not kept, or a price still processing is no longer pending: %+v", r)
		}
		if r := get(three); !r.QuantityPending || r.Quantity != 70 {
			t.Errorf("a read that started before the change confirmed it: %+v", r)
		}
		checkCounts(t, s, k, "after a confirmation")
	})
}
