package copystore

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// copyView is what the reads of one copy show: the counts and one search,
// kept to compare a colleague's copy before and after a forget of another.
type copyView struct {
	records, zeroStock, orders, boxes int
	search                            []int64
	overview                          map[string]int
}

func viewOf(t *testing.T, s *Store, k Key) copyView {
	t.Helper()
	ctx := context.Background()
	var v copyView
	var err error
	if v.records, err = s.CountNomenclature(ctx, k, Query{}); err != nil {
		t.Fatal(err)
	}
	zero := 0
	if v.zeroStock, err = s.CountNomenclature(ctx, k, Query{StockMax: &zero}); err != nil {
		t.Fatal(err)
	}
	if v.orders, err = s.CountOrders(ctx, k, Query{}); err != nil {
		t.Fatal(err)
	}
	if v.boxes, err = s.CountBoxes(ctx, k, Query{}); err != nil {
		t.Fatal(err)
	}
	recs, err := s.Nomenclature(ctx, k, Query{Q: "a", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		v.search = append(v.search, r.ID)
	}
	ov, err := s.Overview(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	v.overview = ov.RecordsByStatus
	return v
}

func sameView(a, b copyView) bool {
	return a.records == b.records && a.zeroStock == b.zeroStock && a.orders == b.orders && a.boxes == b.boxes &&
		slices.Equal(a.search, b.search) && len(a.overview) == len(b.overview) && func() bool {
		for st, n := range a.overview {
			if b.overview[st] != n {
				return false
			}
		}
		return true
	}()
}

// assertNothingReadable fails t when any read of the copy of k shows
// anything of it.
func assertNothingReadable(t *testing.T, s *Store, k Key, skus []string) {
	t.Helper()
	ctx := context.Background()
	zero := 0
	for _, q := range []Query{{}, {StockMax: &zero}, {Q: "a"}, {Status: "online"}, {Sort: "-price"}} {
		if n, err := s.CountNomenclature(ctx, k, q); err != nil || n != 0 {
			t.Errorf("count %+v of a forgotten copy: %d (%v)", q, n, err)
		}
		if recs, err := s.Nomenclature(ctx, k, q); err != nil || len(recs) != 0 {
			t.Errorf("page %+v of a forgotten copy: %d records (%v)", q, len(recs), err)
		}
		seen := 0
		total, err := s.NomenclaturePage(ctx, k, q, func(*Record) error { seen++; return nil })
		if err != nil || total != 0 || seen != 0 {
			t.Errorf("counted page %+v of a forgotten copy: %d of %d (%v)", q, seen, total, err)
		}
	}
	if n, orders, err := s.OrdersPage(ctx, k, Query{}); err != nil || n != 0 || len(orders) != 0 {
		t.Errorf("orders of a forgotten copy: %d, %d (%v)", n, len(orders), err)
	}
	if orders, err := s.Orders(ctx, k, Query{Q: "1"}); err != nil || len(orders) != 0 {
		t.Errorf("orders of a forgotten copy: %d (%v)", len(orders), err)
	}
	if n, boxes, err := s.BoxesPage(ctx, k, Query{}); err != nil || n != 0 || len(boxes) != 0 {
		t.Errorf("boxes of a forgotten copy: %d, %d (%v)", n, len(boxes), err)
	}
	found := 0
	if err := s.LookupNomenclature(ctx, k, Lookup{SKUs: skus, Cards: skus}, func(*Record) error { found++; return nil }); err != nil || found != 0 {
		t.Errorf("lookup in a forgotten copy: %d records (%v)", found, err)
	}
	for _, sku := range skus[:min(len(skus), 3)] {
		if pts, err := s.PricePoints(ctx, k, sku, false); err != nil || len(pts) != 0 {
			t.Errorf("price points of a forgotten copy: %d (%v)", len(pts), err)
		}
	}
	ov, err := s.Overview(ctx, k)
	if err != nil || len(ov.RecordsByStatus)+len(ov.OrdersByStatus)+len(ov.BoxesByStatus)+len(ov.Sync) != 0 {
		t.Errorf("overview of a forgotten copy: %+v (%v)", ov, err)
	}
	ovs, err := s.Overviews(ctx, []Key{k})
	if err != nil {
		t.Fatal(err)
	}
	if ov, err := ovs.Of(k); err != nil || len(ov.RecordsByStatus)+len(ov.OrdersByStatus)+len(ov.BoxesByStatus)+len(ov.Sync) != 0 {
		t.Errorf("overviews of a forgotten copy: %+v (%v)", ov, err)
	}
	checks, err := s.ReadChecks(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	cctx := WithChecks(ctx, checks)
	if n, err := s.CountNomenclature(cctx, k, Query{}); err != nil || n != 0 {
		t.Errorf("count under the request's checks of a forgotten copy: %d (%v)", n, err)
	}
	seen := 0
	if total, err := s.NomenclaturePage(cctx, k, Query{Q: "a"}, func(*Record) error { seen++; return nil }); err != nil || total+seen != 0 {
		t.Errorf("search under the request's checks of a forgotten copy: %d of %d (%v)", seen, total, err)
	}
	if err := s.ExportNomenclature(ctx, k, Query{}, func(*Record) error { seen++; return nil }); seen != 0 || err != nil && !errors.Is(err, ErrCopyGone) {
		t.Errorf("export of a forgotten copy: %d records (%v)", seen, err)
	}
}

// skusOf is the marketplace SKUs of the first records of the copy of k.
func skusOf(t *testing.T, s *Store, k Key) []string {
	t.Helper()
	recs, err := s.Nomenclature(context.Background(), k, Query{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.MarketplaceSKU)
	}
	return out
}

// TestForgetHidesAtOnce: once MarkForgotten returns, no read of the copy
// shows anything of it, though its rows are still being deleted; a new
// copy of the same seller (refresh now) is never mixed with them; and a
// colleague's copy, its counts and its search are untouched.
func TestForgetHidesAtOnce(t *testing.T) {
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 60})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		s.purgeChunk = 7
		a, other := testKey(1001), testKey(1002)
		a.Env = other.Env
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		for _, k := range []Key{a, other} {
			if err := y.Run(ctx, k, m.source(k.SellerID)); err != nil {
				t.Fatal(err)
			}
		}
		skus := skusOf(t, s, a)
		full := viewOf(t, s, a)
		before := viewOf(t, s, other)
		if full.records != 180 || before.records == 0 || len(before.search) == 0 {
			t.Fatalf("copies not made: %+v, %+v", full, before)
		}
		if err := s.MarkForgotten(ctx, a); err != nil {
			t.Fatal(err)
		}
		if rows := rowCounts(t, s, a); rows[0] == 0 {
			t.Fatal("the rows are gone already: this test no longer sees a forget in progress")
		}
		if pending, err := s.PurgePending(ctx, a); err != nil || !pending {
			t.Fatalf("purge pending: %v (%v)", pending, err)
		}
		assertNothingReadable(t, s, a, skus)
		if got := viewOf(t, s, other); !sameView(got, before) {
			t.Errorf("a colleague's copy changed with the forget: %+v, was %+v", got, before)
		}
		// "Refresh now" while the rows are still there: nothing of them
		// shows, and the pass that follows starts from an empty copy.
		if err := s.Remember(ctx, a); err != nil {
			t.Fatal(err)
		}
		assertNothingReadable(t, s, a, skus)
		if err := y.Run(ctx, a, m.source(a.SellerID)); err != nil {
			t.Fatal(err)
		}
		if pending, err := s.PurgePending(ctx, a); err != nil || pending {
			t.Errorf("purge still pending after a new pass: %v (%v)", pending, err)
		}
		if got := viewOf(t, s, a); got.records != full.records || got.orders != full.orders || got.boxes != full.boxes {
			t.Errorf("the new copy: %+v, want the counts of the first %+v", got, full)
		}
		if rows := rowCounts(t, s, a); rows != [3]int{full.records, full.orders, full.boxes} {
			t.Errorf("rows of the new copy: %v, want %d records, %d orders, %d boxes (no leftovers)", rows, full.records, full.orders, full.boxes)
		}
		if got := viewOf(t, s, other); !sameView(got, before) {
			t.Errorf("a colleague's copy changed: %+v, was %+v", got, before)
		}
	})
}

// TestForgetFinishesAfterRestart: a forget cut short after some of its
// deletes (a crash) is finished by the next manager started on the
// database, in the background, and a colleague's copy is untouched.
func TestForgetFinishesAfterRestart(t *testing.T) {
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 60})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		s.purgeChunk = 20
		a, other := testKey(1001), testKey(1002)
		a.Env = other.Env
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		for _, k := range []Key{a, other} {
			if err := y.Run(ctx, k, m.source(k.SellerID)); err != nil {
				t.Fatal(err)
			}
		}
		skus := skusOf(t, s, a)
		before, rowsBefore := viewOf(t, s, other), rowCounts(t, s, other)
		crash := errors.New("crash")
		var chunks atomic.Int32
		s.beforePurgeChunk = func() error {
			if chunks.Add(1) > 2 {
				return crash
			}
			return nil
		}
		if err := s.Forget(ctx, a); !errors.Is(err, crash) {
			t.Fatalf("forget cut short: %v", err)
		}
		rows := rowCounts(t, s, a)
		if rows[0] == 0 || rows[0] == 180 {
			t.Fatalf("after the crash: %v rows, want some deleted and some left", rows)
		}
		assertNothingReadable(t, s, a, skus)

		// The restart: another store on the database and its manager.
		s2 := b.open()
		s2.purgeChunk = 20
		mgr := NewManager(&Syncer{Store: s2, Lock: b.lock}, time.Hour, 0, nil)
		defer mgr.Close()
		waitFor(t, func() bool {
			pending, err := s2.PurgePending(ctx, a)
			return err == nil && !pending
		})
		if rows := rowCounts(t, s2, a); rows != [3]int{} {
			t.Errorf("after the restart: %v rows left", rows)
		}
		assertNothingReadable(t, s2, a, skus)
		if got := viewOf(t, s2, other); !sameView(got, before) || rowCounts(t, s2, other) != rowsBefore {
			t.Errorf("a colleague's copy changed: %+v, was %+v", got, before)
		}
	})
}

// TestManagerForgetReturnsAtOnce: the manager's forget returns as soon as
// the copy is hidden and deletes its rows after, in the background; its
// pages answer nothing meanwhile.
func TestManagerForgetReturnsAtOnce(t *testing.T) {
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 40})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		s.purgeChunk = 10
		k := testKey(1001)
		if err := (&Syncer{Store: s, Lock: b.lock}).Run(ctx, k, m.source(k.SellerID)); err != nil {
			t.Fatal(err)
		}
		skus := skusOf(t, s, k)
		release := make(chan struct{})
		s.beforePurgeChunk = func() error {
			<-release
			return nil
		}
		mgr := NewManager(&Syncer{Store: s, Lock: b.lock}, time.Hour, 0, nil)
		defer mgr.Close()
		if err := mgr.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		// Returned with every delete still held back by the hook.
		if rows := rowCounts(t, s, k); rows[0] != 120 {
			t.Errorf("rows when the forget returned: %v, want all 120 records still there", rows)
		}
		assertNothingReadable(t, s, k, skus)
		close(release)
		waitFor(t, func() bool {
			pending, err := s.PurgePending(ctx, k)
			return err == nil && !pending
		})
		if rows := rowCounts(t, s, k); rows != [3]int{} {
			t.Errorf("after the background purge: %v rows left", rows)
		}
	})
}
