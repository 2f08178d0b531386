package copystore

import (
	"context"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestPricePointsObserved: an accepted price change is a point at once; a
// pass reading the accepted prices, or the old ones while the change is
// processing, adds none; a price changed at the marketplace is a point
// when a pass reads it; the first pass and unchanged passes add none.
func TestPricePointsObserved(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4400)
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		src := catalogue(30, 0)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		points := func(sku string) []PricePoint {
			t.Helper()
			ps, err := s.PricePoints(ctx, k, sku, false)
			if err != nil {
				t.Fatal(err)
			}
			return ps
		}
		one, two := src.recs[3], src.recs[9] // SKU00001, SKU00003
		if ps := points(one.MarketplaceSKU); len(ps) != 0 {
			t.Fatalf("the first pass observed changes: %+v", ps)
		}
		base := time.Now().Add(time.Hour)
		s.SetClock(func() time.Time { return base })
		if err := s.Accept(ctx, k, []Change{{SKU: one.MarketplaceSKU, Price: new(int64(7000)), SalePrice: 6000}}); err != nil {
			t.Fatal(err)
		}
		// The same prices accepted again are no change.
		s.SetClock(func() time.Time { return base.Add(time.Minute) })
		if err := s.Accept(ctx, k, []Change{{SKU: one.MarketplaceSKU, Price: new(int64(7000)), SalePrice: 6000}}); err != nil {
			t.Fatal(err)
		}
		// The first change of each record also keeps the prices it
		// replaced, since the marketplace's last change of the record.
		ps := points(one.MarketplaceSKU)
		if len(ps) != 4 || ps[3].Price != 7000 || ps[3].SalePrice != 6000 || !ps[3].At.Equal(base.Truncate(time.Millisecond)) ||
			ps[0].Price != int64(one.Price) || ps[0].SalePrice != int64(one.SalePrice) || !ps[0].At.Equal(one.UpdatedAt) {
			t.Fatalf("after Accept: %+v", ps)
		}
		// A pass still reading the old prices (processing), then one
		// reading the accepted prices: no point.
		for i := 3; i < 6; i++ {
			src.recs[i].PriceUpdateStatus = "PROCESSING"
		}
		s.SetClock(func() time.Time { return base.Add(2 * time.Minute) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		for i := 3; i < 6; i++ {
			src.recs[i].Price, src.recs[i].SalePrice, src.recs[i].PriceUpdateStatus = apiclient.Money(7000), apiclient.Money(6000), "OK"
		}
		// The marketplace changed the other product's price itself.
		src.recs[9].Price = apiclient.Money(12345)
		s.SetClock(func() time.Time { return base.Add(3 * time.Minute) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if ps := points(one.MarketplaceSKU); len(ps) != 4 {
			t.Errorf("a pass reading the accepted or the processing prices added points: %+v", ps)
		}
		ps = points(two.MarketplaceSKU)
		if len(ps) != 2 || ps[0].Price != int64(two.Price) || !ps[0].At.Equal(two.UpdatedAt) ||
			ps[1].Price != 12345 || ps[1].SalePrice != int64(two.SalePrice) || !ps[1].At.Equal(base.Add(3*time.Minute).Truncate(time.Millisecond)) {
			t.Errorf("a price changed at the marketplace: %+v", ps)
		}
		// The marketplace refusing the accepted prices (a pass after the
		// change reading other prices, not processing) is a point back:
		// the lowest of the product's records (12345, 1010, 1011).
		s.SetClock(func() time.Time { return base.Add(210 * time.Second) })
		if err := s.Accept(ctx, k, []Change{{SKU: two.MarketplaceSKU, Price: new(int64(99)), SalePrice: 0}}); err != nil {
			t.Fatal(err)
		}
		s.SetClock(func() time.Time { return base.Add(4 * time.Minute) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if ps = points(two.MarketplaceSKU); len(ps) != 6 || ps[4].Price != 99 || ps[5].Price != 1010 {
			t.Errorf("a refused change: %+v", ps)
		}
		// Another account's copy sees none of them.
		other := Key{SellerID: k.SellerID + 1, Env: k.Env}
		if ps, err := s.PricePoints(ctx, other, one.MarketplaceSKU, false); err != nil || len(ps) != 0 {
			t.Errorf("another seller's points: %+v %v", ps, err)
		}
		// Forget deletes them.
		if err := s.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		if ps := points(one.MarketplaceSKU); len(ps) != 0 {
			t.Errorf("forget kept the points: %+v", ps)
		}
	})
}

// TestPrunePricePoints: points older than the window go, and each record
// keeps only its newest points, pruned in batches smaller than the work.
func TestPrunePricePoints(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4401)
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		src := catalogue(6, 0) // SKU00000 and SKU00001, three records each
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for i := range 10 {
			at := start.Add(time.Duration(i) * 24 * time.Hour)
			s.SetClock(func() time.Time { return at })
			if err := s.Accept(ctx, k, []Change{{SKU: "SKU00000", Price: new(int64(5000 + i)), SalePrice: 0}}); err != nil {
				t.Fatal(err)
			}
		}
		// 10 days of 3 records and their 3 first prices: 33 points. Now
		// is day 9; keep 6 days (days 3..9, 7 per record), then at most
		// 4 per record.
		n, err := s.prunePricePoints(ctx, 6*24*time.Hour, 4, 2)
		if err != nil {
			t.Fatal(err)
		}
		if n != 33-12 {
			t.Errorf("pruned %d points, want 21", n)
		}
		ps, err := s.PricePoints(ctx, k, "SKU00000", false)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 4 || ps[0].Price != 5006 || ps[3].Price != 5009 {
			t.Errorf("left %+v, want the newest four days", ps)
		}
	})
}
