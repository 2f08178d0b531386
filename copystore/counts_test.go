package copystore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// listSource serves lists held in memory, a page at a time, so a test can
// change the catalogue between syncs.
type listSource struct {
	recs   []apiclient.Nomenclature
	orders []apiclient.Order
	boxes  []apiclient.ReturnBox
}

func pageOf[T any](all []T, page, limit int) ([]T, int, int, error) {
	pages := max(1, (len(all)+limit-1)/limit)
	from := min(len(all), (page-1)*limit)
	return all[from:min(len(all), from+limit)], pages, len(all), nil
}

func (l *listSource) NomenclaturePage(_ context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	return pageOf(l.recs, page, limit)
}

func (l *listSource) OrdersPage(_ context.Context, page, limit int) ([]apiclient.Order, int, int, error) {
	return pageOf(l.orders, page, limit)
}

func (l *listSource) BoxesPage(_ context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	return pageOf(l.boxes, page, limit)
}

var (
	countStatuses = []string{"online", "offline", "rejected", "new", "archived"}
	orderStates   = []string{"new", "confirmed", "shipped", "cancelled"}
	boxStates     = []string{"loading", "ready", "shipped"}
)

// record i of a catalogue: statuses and quantities cycle at different
// periods so every status has records in and out of stock.
func record(i int, shift int) apiclient.Nomenclature {
	return apiclient.Nomenclature{
		WarehouseCode: fmt.Sprintf("WH%d", i%3), Barcode: fmt.Sprintf("BC%05d", i), MarketplaceSKU: fmt.Sprintf("SKU%05d", i/3),
		Name: fmt.Sprintf("Кроссовки %d", i), Status: countStatuses[(i+shift)%len(countStatuses)], Quantity: (i*7 + shift) % 4,
		Price: apiclient.Money(1000 + i), SalePrice: apiclient.Money(900 + i), UpdatedAt: time.UnixMilli(1_700_000_000_000 + int64(i)),
	}
}

func catalogue(n, shift int) *listSource {
	l := &listSource{}
	for i := range n {
		l.recs = append(l.recs, record(i, shift))
	}
	for i := range n / 4 {
		l.orders = append(l.orders, apiclient.Order{OrderNr: fmt.Sprintf("RU%05d", i), Status: orderStates[(i+shift)%len(orderStates)],
			CreatedAt: time.UnixMilli(1_700_000_000_000 + int64(i))})
	}
	for i := range n / 6 {
		l.boxes = append(l.boxes, apiclient.ReturnBox{Code: fmt.Sprintf("BOX%04d", i), Status: boxStates[(i+shift)%len(boxStates)]})
	}
	return l
}

// recount counts the copy of k afresh, by status, straight from the
// tables: list to status to rows.
func recount(t *testing.T, s *Store, k Key) map[string]map[string]int {
	t.Helper()
	out := map[string]map[string]int{}
	for list, query := range map[string]string{
		"nomenclature": `SELECT status, COUNT(*) FROM catalog_nomenclature WHERE seller_id = ? AND env = ? GROUP BY status`,
		"zero_stock":   `SELECT status, COUNT(*) FROM catalog_nomenclature WHERE seller_id = ? AND env = ? AND quantity <= 0 GROUP BY status`,
		"orders":       `SELECT status, COUNT(*) FROM catalog_orders WHERE seller_id = ? AND env = ? GROUP BY status`,
		"boxes":        `SELECT status, COUNT(*) FROM catalog_boxes WHERE seller_id = ? AND env = ? GROUP BY status`,
	} {
		out[list] = map[string]int{}
		rows, err := s.r.QueryContext(context.Background(), s.q(query), k.SellerID, k.Env)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var st string
			var n int
			if err := rows.Scan(&st, &n); err != nil {
				t.Fatal(err)
			}
			out[list][st] = n
		}
		rows.Close()
	}
	return out
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// checkCounts compares every count the overview and the lists show with a
// fresh recount: the overview's per-status counts and "needs action
// today", the totals of the nomenclature (every status, with and without
// the out-of-stock filter; searches, a warehouse, a price range), orders
// and return boxes lists.
func checkCounts(t *testing.T, s *Store, k Key, when string) {
	t.Helper()
	ctx := context.Background()
	want := recount(t, s, k)
	ov, err := s.Overview(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want map[string]int
	}{{"records", ov.RecordsByStatus, want["nomenclature"]}, {"orders", ov.OrdersByStatus, want["orders"]}, {"boxes", ov.BoxesByStatus, want["boxes"]}} {
		if !maps.Equal(c.got, c.want) {
			t.Errorf("%s: overview %s by status %v, recount %v", when, c.name, c.got, c.want)
		}
	}
	if ov.ZeroStock != sum(want["zero_stock"]) || ov.NewOrders != want["orders"]["new"] || ov.Rejected != want["nomenclature"]["rejected"] ||
		ov.BoxesLoading != want["boxes"]["loading"] {
		t.Errorf("%s: needs action: zero stock %d new orders %d rejected %d loading %d, recount %d %d %d %d", when,
			ov.ZeroStock, ov.NewOrders, ov.Rejected, ov.BoxesLoading, sum(want["zero_stock"]), want["orders"]["new"], want["nomenclature"]["rejected"], want["boxes"]["loading"])
	}
	zero := 0
	for _, st := range append([]string{""}, countStatuses...) {
		for _, stock := range []*int{nil, &zero} {
			got, err := s.CountNomenclature(ctx, k, Query{Status: st, StockMax: stock})
			if err != nil {
				t.Fatal(err)
			}
			list := "nomenclature"
			if stock != nil {
				list = "zero_stock"
			}
			w := want[list][st]
			if st == "" {
				w = sum(want[list])
			}
			if got != w {
				t.Errorf("%s: %s count of status %q: %d, recount %d", when, list, st, got, w)
			}
			var rows int
			total, err := s.NomenclaturePage(ctx, k, Query{Status: st, StockMax: stock, Limit: 1}, func(*Record) error { rows++; return nil })
			if err != nil || total != w {
				t.Errorf("%s: the %s page of status %q says %d (%v), recount %d", when, list, st, total, err, w)
			}
		}
	}
	// Counts no kept count answers (a search, a warehouse, a price range)
	// are remembered by the copy's version: asked twice, the second from
	// memory, both equal a count made now.
	two := 2
	for _, q := range []Query{{Q: "кросс"}, {Q: "Кроссовки 1"}, {Q: "кросс", Status: "online"}, {Warehouse: "WH1"},
		{PriceMin: 1100, PriceMax: 1300}, {Q: "кросс", StockMax: &two}} {
		query, args := s.nomenclatureCount(k, q)
		var w int
		if err := s.r.QueryRowContext(ctx, query, args...).Scan(&w); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, err := s.CountNomenclature(ctx, k, q); err != nil || got != w {
				t.Errorf("%s: count of %+v: %d (%v), recount %d", when, q, got, err, w)
			}
		}
	}
	for _, st := range append([]string{""}, orderStates...) {
		got, err := s.CountOrders(ctx, k, Query{Status: st})
		w := want["orders"][st]
		if st == "" {
			w = sum(want["orders"])
		}
		if err != nil || got != w {
			t.Errorf("%s: orders of status %q: %d (%v), recount %d", when, st, got, err, w)
		}
	}
	for _, st := range append([]string{""}, boxStates...) {
		got, err := s.CountBoxes(ctx, k, Query{Status: st})
		w := want["boxes"][st]
		if st == "" {
			w = sum(want["boxes"])
		}
		if err != nil || got != w {
			t.Errorf("%s: boxes of status %q: %d (%v), recount %d", when, st, got, err, w)
		}
	}
}

// TestCountsExact: the counts the overview and the lists show, kept as the
// copy changes, equal a fresh recount after a first sync, after accepted
// price changes, after a sync that changes statuses and stock, drops rows
// and adds others, after a forget and after the copy is made again.
func TestCountsExact(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4242)
		other := testKey(4243) // another copy in the same tables, left alone
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 37}
		if err := y.Run(ctx, other, catalogue(90, 1)); err != nil {
			t.Fatal(err)
		}
		src := catalogue(600, 0)
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after the first sync")
		if n := sum(recount(t, s, k)["nomenclature"]); n != 600 {
			t.Fatalf("the copy holds %d records, want 600", n)
		}

		if err := s.Accept(ctx, k, []Change{{SKU: "SKU00003", Price: new(int64(5000)), SalePrice: 4000}, {SKU: "SKU00010", Price: new(int64(7000)), SalePrice: 6000}}); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after accepted changes")
		// Accepted stock and statuses move records between statuses and
		// in and out of stock; a status alone, a quantity alone, both.
		stock := []Change{
			{Warehouse: "WH0", Barcode: "BC00000", Quantity: new(0), Status: "archived"},
			{Warehouse: "WH1", Barcode: "BC00001", Status: "offline"},
			{Warehouse: "WH2", Barcode: "BC00002", Quantity: new(0)},
			{Warehouse: "WH0", Barcode: "BC00003", Quantity: new(9)},
			{Warehouse: "WH1", Barcode: "BC00004", Quantity: new(-1), Status: "new"},
		}
		if err := s.Accept(ctx, k, stock); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after accepted stock and statuses")

		// The marketplace changed: statuses and stock moved, the last
		// hundred records are gone, fifty new ones appeared, orders and
		// boxes changed status and some ended.
		next := catalogue(550, 1)
		next.recs = append(next.recs[:450], catalogue(700, 2).recs[600:650]...)
		next.orders, next.boxes = next.orders[:100], next.boxes[:80]
		if err := y.Run(ctx, k, next); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after a sync that changed the catalogue")
		if n := sum(recount(t, s, k)["nomenclature"]); n != 500 {
			t.Fatalf("the copy holds %d records, want 500", n)
		}

		if err := s.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after a forget")
		var left int
		if err := s.r.QueryRowContext(context.Background(), s.q(`SELECT COUNT(*) FROM catalog_counts WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&left); err != nil || left != 0 {
			t.Errorf("after a forget %d count rows are left (%v)", left, err)
		}
		if err := s.Remember(ctx, k); err != nil {
			t.Fatal(err)
		}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, s, k, "after the copy is made again")
		checkCounts(t, s, other, "the other copy")
		if got := slices.Sorted(maps.Keys(recount(t, s, other)["nomenclature"])); len(got) != len(countStatuses) {
			t.Fatalf("the other copy has statuses %v", got)
		}
	})
}
