package copystore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

const productsInTests = 200 // 600 records: 6 pages of 100

// synced returns a store holding a full copy of seller's lists.
func synced(t *testing.T, b backend, m *market, seller int64) (*Store, Key) {
	t.Helper()
	s := b.open()
	k := testKey(seller)
	y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
	if err := y.Run(context.Background(), k, m.source(seller)); err != nil {
		t.Fatal(err)
	}
	return s, k
}

func TestSyncAndSearch(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		products := m.sb.Products(1001)
		n, err := s.CountNomenclature(ctx, k, Query{})
		if err != nil || n != 3*len(products) {
			t.Fatalf("%d records (%v), want %d", n, err, 3*len(products))
		}
		states, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if st := states[KindNomenclature]; !st.Complete() || st.Running || st.Pages != 6 || st.Total != 600 || st.NextPage != 7 {
			t.Errorf("state %+v", st)
		}

		// Every search finds exactly the records whose words one of the
		// query's words prefixes, worked out here the obvious way.
		p := products[7]
		for _, q := range []string{"крос", "КРОССОВКИ", "Кроссовки", "черн", "чёрн", "платье черн", "sneak", p.Barcode, p.Barcode[:9], p.MarketplaceSKU, strings.ToLower(p.MarketplaceSKU[:7]), p.SellerSKU, "ART-1001-0001", "<script>", "zara"} {
			want := 0
			for _, p := range products {
				ok := true
				for _, w := range words(q) {
					ok = ok && hasWordPrefix(w, p.Name, p.Brand, p.MarketplaceSKU, p.SellerSKU, p.Barcode)
				}
				if ok {
					want += 3
				}
			}
			got, err := s.CountNomenclature(ctx, k, Query{Q: q})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if got != want {
				t.Errorf("search %q: %d records, want %d", q, got, want)
			}
			if q == "крос" && want == 0 {
				t.Fatal("the fixtures have no Кроссовки")
			}
			recs, err := s.Nomenclature(ctx, k, Query{Q: q, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				for _, w := range words(q) {
					if !hasWordPrefix(w, r.Name, r.Brand, r.MarketplaceSKU, r.SellerSKU, r.Barcode) {
						t.Errorf("search %q found %q %q", q, r.Name, r.MarketplaceSKU)
					}
				}
			}
		}
		if got, _ := s.CountNomenclature(ctx, k, Query{Q: p.Barcode}); got != 3 {
			t.Errorf("barcode %s: %d records, want its 3 warehouses", p.Barcode, got)
		}

		// Another seller's copy shares the index, never the rows.
		other := Key{SellerID: 1002, Env: k.Env}
		if got, _ := s.CountNomenclature(ctx, other, Query{Q: "крос"}); got != 0 {
			t.Errorf("seller 1002's empty copy found %d records", got)
		}
	})
}

func TestSortAndFilter(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		all, err := s.Nomenclature(ctx, k, Query{Limit: MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		for i, tc := range []struct {
			q    Query
			keep func(r Record) bool
			less func(a, b Record) int
		}{
			{Query{Sort: "price"}, nil, func(a, b Record) int { return cmpInt(a.Price, b.Price) }},
			{Query{Sort: "-price"}, nil, func(a, b Record) int { return cmpInt(b.Price, a.Price) }},
			{Query{Sort: "-quantity", Status: "rejected"}, func(r Record) bool { return r.Status == "rejected" }, func(a, b Record) int { return cmpInt(b.Quantity, a.Quantity) }},
			{Query{Sort: "name", Warehouse: "SPB-1001"}, func(r Record) bool { return r.Warehouse == "SPB-1001" }, func(a, b Record) int { return strings.Compare(a.Name, b.Name) }},
			{Query{StockMax: new(0)}, func(r Record) bool { return r.Quantity == 0 }, nil},
			{Query{StockMax: new(5), Sort: "quantity"}, func(r Record) bool { return r.Quantity <= 5 }, func(a, b Record) int { return cmpInt(a.Quantity, b.Quantity) }},
			{Query{PriceMin: 100000, PriceMax: 500000}, func(r Record) bool { return r.Price >= 100000 && r.Price <= 500000 }, nil},
			{Query{Q: "крос", Sort: "-price", Status: "online"}, func(r Record) bool { return r.Status == "online" && hasWordPrefix("крос", r.Name) }, func(a, b Record) int { return cmpInt(b.Price, a.Price) }},
		} {
			t.Run(fmt.Sprintf("%d%s", i, tc.q.Sort), func(t *testing.T) {
				want := 0
				for _, r := range all {
					if tc.keep == nil || tc.keep(r) {
						want++
					}
				}
				if n, _ := s.CountNomenclature(ctx, k, tc.q); n != want || want == 0 {
					t.Errorf("count %d, want %d (not 0)", n, want)
				}
				q := tc.q
				q.Limit = 50
				page, err := s.Nomenclature(ctx, k, q)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) != min(50, want) {
					t.Errorf("%d rows", len(page))
				}
				for i, r := range page {
					if tc.keep != nil && !tc.keep(r) {
						t.Errorf("row %+v does not match", r)
					}
					if i > 0 && tc.less != nil && tc.less(page[i-1], r) > 0 {
						t.Errorf("rows %d and %d out of order", i-1, i)
					}
				}
				// The next page continues the order without overlap.
				q.Offset = 50
				next, err := s.Nomenclature(ctx, k, q)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range next {
					if slices.ContainsFunc(page, func(p Record) bool { return p.ID == r.ID }) {
						t.Errorf("row %d on two pages", r.ID)
					}
				}
				if len(next) > 0 && len(page) > 0 && tc.less != nil && tc.less(page[len(page)-1], next[0]) > 0 {
					t.Error("page 2 does not continue page 1's order")
				}
			})
		}
		if _, err := s.Nomenclature(ctx, k, Query{Sort: "secret; DROP TABLE x"}); !errors.Is(err, ErrBadSort) {
			t.Errorf("bad sort: %v", err)
		}
	})
}

func cmpInt[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestOrdersAndBoxes(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 10})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		nrs := m.sb.OrderNumbers(1001, "")
		if n, _ := s.CountOrders(ctx, k, Query{}); n != len(nrs) {
			t.Fatalf("%d orders, want %d", n, len(nrs))
		}
		nr := nrs[10]
		for _, q := range []string{nr, strings.ToLower(nr[:9]), nr[:len(nr)-2]} {
			got, err := s.Orders(ctx, k, Query{Q: q})
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, o := range nrs {
				if strings.HasPrefix(strings.ToLower(o), strings.ToLower(q)) {
					want++
				}
			}
			if len(got) != min(want, 50) || !slices.ContainsFunc(got, func(o Order) bool { return o.OrderNr == nr }) {
				t.Errorf("search %q: %d orders, want %d with %s", q, len(got), want, nr)
			}
		}
		newOnes := m.sb.OrderNumbers(1001, "new")
		if n, _ := s.CountOrders(ctx, k, Query{Status: "new"}); n != len(newOnes) {
			t.Errorf("%d new orders, want %d", n, len(newOnes))
		}
		all, err := s.Orders(ctx, k, Query{Limit: MaxLimit, Sort: "created"})
		if err != nil {
			t.Fatal(err)
		}
		from, to := all[20].CreatedAt, all[40].CreatedAt
		got, err := s.Orders(ctx, k, Query{From: from, To: to, Limit: MaxLimit, Sort: "-sum"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < 15 {
			t.Errorf("%d orders between %s and %s", len(got), from, to)
		}
		for i, o := range got {
			if o.CreatedAt.Before(from) || !o.CreatedAt.Before(to) || (i > 0 && got[i-1].FullSum < o.FullSum) {
				t.Errorf("order %+v out of range or order", o)
			}
		}

		codes := m.sb.ReturnBoxCodes(1001)
		boxes, err := s.Boxes(ctx, k, Query{Q: strings.ToLower(codes[3])})
		if err != nil || len(boxes) != 1 || boxes[0].Code != codes[3] {
			t.Errorf("box %s: %+v %v", codes[3], boxes, err)
		}
		loading, err := s.Boxes(ctx, k, Query{Status: "loading", Limit: MaxLimit})
		if err != nil || len(loading) == 0 {
			t.Fatalf("loading boxes: %d %v", len(loading), err)
		}
		if n, err := s.CountBoxes(ctx, k, Query{Status: "loading"}); err != nil || n != len(loading) {
			t.Errorf("count of loading boxes %d (%v), want %d", n, err, len(loading))
		}
		ov, err := s.Overview(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if ov.BoxesLoading != len(loading) || ov.NewOrders != len(newOnes) || ov.RecordsByStatus["online"] == 0 {
			t.Errorf("overview %+v", ov)
		}
	})
}

// TestSyncResume: a sync interrupted mid-way (the instance stopped while
// page 3 was in flight) is resumed by a new instance from page 3, and the
// pages already stored are not read again.
func TestSyncResume(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		k := testKey(1001)
		ctx, cancel := context.WithCancel(context.Background())
		release := m.sb.HoldAfter(sandbox.RouteRPCList, 2)
		defer release()
		first := &Syncer{Store: b.open(), Lock: b.lock, PageLimit: 100} // 6 pages
		before := m.sb.Counters().Requests[sandbox.RouteRPCList]
		done := make(chan error, 1)
		go func() { done <- first.Run(ctx, k, m.source(1001)) }()
		s := b.open() // a restarted instance
		waitFor(t, func() bool {
			st, _ := s.SyncStates(context.Background(), k)
			return m.sb.Held(sandbox.RouteRPCList) == 1 && st[KindNomenclature].NextPage == 3
		})
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		release()

		st, _ := s.SyncStates(context.Background(), k)
		if got := st[KindNomenclature]; !got.Running || got.NextPage != 3 || got.Complete() {
			t.Fatalf("state after the interruption: %+v", got)
		}
		n, _ := s.CountNomenclature(context.Background(), k, Query{})
		if n != 200 {
			t.Fatalf("%d records stored before the interruption, want 200", n)
		}
		mid := m.sb.Counters().Requests[sandbox.RouteRPCList]
		second := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
		if err := second.Run(context.Background(), k, m.source(1001)); err != nil {
			t.Fatal(err)
		}
		end := m.sb.Counters().Requests[sandbox.RouteRPCList]
		if mid-before != 3 || end-mid != 4 {
			t.Errorf("requests: %d before the interruption (want 3: two pages and the held one), %d after (want 4: pages 3 to 6)", mid-before, end-mid)
		}
		st, _ = s.SyncStates(context.Background(), k)
		if got := st[KindNomenclature]; got.Running || !got.Complete() || got.Gen != 1 {
			t.Errorf("state after resuming: %+v", got)
		}
		if n, _ := s.CountNomenclature(context.Background(), k, Query{}); n != 600 {
			t.Errorf("%d records, want 600", n)
		}
	})
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a backstop, not a measurement
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 30 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestSync429: a 429 during a sync is waited out for its Retry-After, and
// the wait is recorded where the pages show it while it lasts.
func TestSync429(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		k := testKey(1001)
		s := b.open()
		m.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultRateLimit, RetryAfter: "7"})
		defer m.sb.ClearFaults()
		var waits []time.Duration
		var seen SyncState
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100, Sleep: func(ctx context.Context, d time.Duration) error {
			waits = append(waits, d)
			st, err := s.SyncStates(ctx, k)
			seen = st[KindNomenclature]
			return err
		}}
		if err := y.Run(context.Background(), k, m.source(1001)); err != nil {
			t.Fatal(err)
		}
		if len(waits) != 1 || waits[0] < 6*time.Second || waits[0] > 8*time.Second {
			t.Errorf("waits %v, want one of about 7s", waits)
		}
		if seen.WaitUntil.IsZero() || seen.Waits != 1 || !seen.Running {
			t.Errorf("state during the wait: %+v", seen)
		}
		st, _ := s.SyncStates(context.Background(), k)
		if got := st[KindNomenclature]; !got.WaitUntil.IsZero() || got.Waits != 1 || !got.Complete() {
			t.Errorf("state after: %+v", got)
		}
		if n, _ := s.CountNomenclature(context.Background(), k, Query{}); n != 600 {
			t.Errorf("%d records", n)
		}
	})
}

// TestTwoSyncersNeverOverlap: two instances syncing one seller at once take
// turns: never two requests in flight, no page read twice.
func TestTwoSyncersNeverOverlap(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		k := testKey(1002)
		m.sb.ResetCounters()
		release := m.sb.HoldAfter(sandbox.RouteRPCList, 1)
		a := &Syncer{Store: b.open(), Lock: b.lock, PageLimit: 100}
		c := &Syncer{Store: b.open(), Lock: b.lock, PageLimit: 100}
		errs := make(chan error, 2)
		go func() { errs <- a.Run(context.Background(), k, m.source(1002)) }()
		go func() { errs <- c.Run(context.Background(), k, m.source(1002)) }()
		// One request is held at the gate; the other syncer must be
		// waiting for the lock, not at the marketplace.
		waitFor(t, func() bool { return m.sb.Held(sandbox.RouteRPCList) == 1 })
		if got := m.sb.Counters().Requests[sandbox.RouteRPCList]; got != 2 {
			t.Errorf("%d list requests with one held, want 2", got)
		}
		release()
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		cn := m.sb.Counters()
		if got := cn.MaxInFlight[sandbox.RouteRPCList+"/1002"]; got != 1 {
			t.Errorf("max in flight %d, want 1", got)
		}
		if got := cn.Requests[sandbox.RouteRPCList]; got != 6 {
			t.Errorf("%d list requests, want 6 (each page once)", got)
		}
		if n, _ := a.Store.CountNomenclature(context.Background(), k, Query{}); n != 600 {
			t.Errorf("%d records", n)
		}
	})
}

// TestPending: an accepted price change shows at once as pending, and as
// confirmed after the next read.
func TestPending(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 50})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		p := m.sb.Products(1001)[4]
		newPrice := p.Price + 10000
		if err := s.Accept(ctx, k, []Change{{SKU: p.MarketplaceSKU, Price: new(int64(newPrice)), SalePrice: newPrice}}); err != nil {
			t.Fatal(err)
		}
		recs, err := s.Nomenclature(ctx, k, Query{Q: p.MarketplaceSKU})
		if err != nil || len(recs) != 3 {
			t.Fatalf("%d records %v", len(recs), err)
		}
		for _, r := range recs {
			if r.Pending == nil || r.Pending.Price != newPrice || r.Price != p.Price {
				t.Fatalf("not pending: %+v", r)
			}
		}
		src := m.source(1001)
		sale := apiclient.Money(newPrice)
		res, err := src.Account.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: 1001, Prices: []apiclient.PriceUpdate{{
			MarketplaceSKU: p.MarketplaceSKU, Price: apiclient.Money(newPrice), SalePrice: &sale}}})
		if err != nil || len(res.Errors) > 0 {
			t.Fatalf("set prices: %+v %v", res, err)
		}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		recs, _ = s.Nomenclature(ctx, k, Query{Q: p.MarketplaceSKU})
		for _, r := range recs {
			if r.Pending != nil || r.Price != newPrice {
				t.Errorf("not confirmed: %+v", r)
			}
		}
		// A change the marketplace never applied is dropped by a read that
		// started after it.
		q := m.sb.Products(1001)[5]
		if err := s.Accept(ctx, k, []Change{{SKU: q.MarketplaceSKU, Price: new(int64(1)), SalePrice: 1}}); err != nil {
			t.Fatal(err)
		}
		s.SetClock(func() time.Time { return time.Now().Add(time.Second) })
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		recs, _ = s.Nomenclature(ctx, k, Query{Q: q.MarketplaceSKU})
		for _, r := range recs {
			if r.Pending != nil || r.Price != q.Price {
				t.Errorf("refused change still pending: %+v", r)
			}
		}
	})
}

type forbiddenSource struct{ Source }

func (forbiddenSource) NomenclaturePage(context.Context, int, int) ([]apiclient.Nomenclature, int, int, error) {
	return nil, 0, 0, fmt.Errorf("list: %w", apiclient.ErrForbidden)
}

// TestAccess: a 403 during a sync cuts access to the copy at once; using
// it (Touch) does not restore it, a new login (Grant) does; Forget deletes it; a copy unused for 30 days
// is deleted.
func TestAccess(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		if err := s.Touch(ctx, k); err != nil {
			t.Fatal(err)
		}
		y := &Syncer{Store: s, Lock: b.lock}
		if err := y.Run(ctx, k, forbiddenSource{m.source(1001)}); !errors.Is(err, apiclient.ErrForbidden) {
			t.Fatalf("run: %v", err)
		}
		if _, err := s.Nomenclature(ctx, k, Query{}); !errors.Is(err, ErrRevoked) {
			t.Errorf("records after a 403: %v", err)
		}
		if _, err := s.Overview(ctx, k); !errors.Is(err, ErrRevoked) {
			t.Errorf("overview after a 403: %v", err)
		}
		// Every count reads the flag in its own statement: the kept
		// counts, the version of a remembered one, a count of its own.
		for _, q := range []Query{{}, {Status: "online"}, {Q: "кросс"}, {Warehouse: "nope"}} {
			if _, err := s.NomenclaturePage(ctx, k, q, func(*Record) error { return nil }); !errors.Is(err, ErrRevoked) {
				t.Errorf("records %+v after a 403: %v", q, err)
			}
		}
		for _, q := range []Query{{}, {Status: "new"}, {Q: "1"}} {
			if _, _, err := s.OrdersPage(ctx, k, q); !errors.Is(err, ErrRevoked) {
				t.Errorf("orders %+v after a 403: %v", q, err)
			}
			if _, err := s.CountBoxes(ctx, k, q); !errors.Is(err, ErrRevoked) {
				t.Errorf("boxes %+v after a 403: %v", q, err)
			}
		}
		if _, _, err := s.BoxesPage(ctx, k, Query{}); !errors.Is(err, ErrRevoked) {
			t.Errorf("return boxes after a 403: %v", err)
		}
		if err := s.Touch(ctx, k); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Nomenclature(ctx, k, Query{}); !errors.Is(err, ErrRevoked) {
			t.Errorf("records after a 403 and a page view: %v", err)
		}
		if err := s.Grant(ctx, k, CredentialOf("demo-1001", "test", "sandbox-secret-1001")); err != nil {
			t.Fatal(err)
		}
		if n, err := s.CountNomenclature(ctx, k, Query{}); err != nil || n != 60 {
			t.Errorf("after a new login: %d %v", n, err)
		}

		other, k2 := synced(t, b, m, 1002)
		if err := other.Touch(ctx, k2); err != nil {
			t.Fatal(err)
		}
		if err := s.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.CountNomenclature(ctx, k, Query{}); n != 0 {
			t.Errorf("%d records after forget", n)
		}
		if st, _ := s.SyncStates(ctx, k); len(st) != 0 {
			t.Errorf("sync state after forget: %+v", st)
		}
		other.SetClock(func() time.Time { return time.Now().Add(UnusedFor + time.Hour) })
		// In chunks, as a forget: a large copy never holds the writer long.
		other.purgeChunk = 25
		var chunks atomic.Int32
		other.beforePurgeChunk = func() error { chunks.Add(1); return nil }
		if _, err := other.DeleteUnused(ctx); err != nil {
			t.Fatal(err)
		}
		if n, _ := other.CountNomenclature(ctx, k2, Query{}); n != 0 {
			t.Errorf("%d records of a copy unused for 30 days", n)
		}
		if rows := rowCounts(t, other, k2); rows != [3]int{} || chunks.Load() < 3 {
			t.Errorf("the unused copy: %v rows left, deleted in %d chunks", rows, chunks.Load())
		}
		var records int
		if err := other.r.QueryRowContext(ctx, other.q(`SELECT COUNT(*) FROM catalog_copies WHERE seller_id = ? AND env = ?`), k2.SellerID, k2.Env).Scan(&records); err != nil || records != 0 {
			t.Errorf("the unused copy's record: %d left (%v)", records, err)
		}
	})
}

// TestTouchWritesOncePerMinute: page views record the copy's use at most
// once per touchEvery, so they do not each queue for the writer; a view
// after that writes the new time.
func TestTouchWritesOncePerMinute(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(7001)
		t0 := time.UnixMilli(1_800_000_000_000)
		usedAt := func() time.Time {
			t.Helper()
			var ms int64
			if err := s.r.QueryRowContext(ctx, s.q(`SELECT used_at FROM catalog_copies WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&ms); err != nil {
				t.Fatal(err)
			}
			return time.UnixMilli(ms)
		}
		for _, c := range []struct {
			at, want time.Time
		}{{t0, t0}, {t0.Add(30 * time.Second), t0}, {t0.Add(touchEvery - time.Millisecond), t0}, {t0.Add(touchEvery), t0.Add(touchEvery)}} {
			s.SetClock(func() time.Time { return c.at })
			if err := s.Touch(ctx, k); err != nil {
				t.Fatal(err)
			}
			if got := usedAt(); !got.Equal(c.want) {
				t.Errorf("touched at %v: used at %v, want %v", c.at, got, c.want)
			}
		}
	})
}

// TestListPages: OrdersPage and BoxesPage answer what the count and the
// page read apart answer, for filters, sorts and a page past the first.
func TestListPages(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		for _, q := range []Query{{}, {Status: "new"}, {Sort: "-sum", Limit: 5, Offset: 5}, {Q: "zz-none"}} {
			n, page, err := s.OrdersPage(ctx, k, q)
			wantN, errN := s.CountOrders(ctx, k, q)
			want, errP := s.Orders(ctx, k, q)
			if err != nil || errN != nil || errP != nil || n != wantN || !reflect.DeepEqual(page, want) {
				t.Errorf("orders %+v: %d %d rows %v; apart %d %d rows %v %v", q, n, len(page), err, wantN, len(want), errN, errP)
			}
		}
		if _, _, err := s.OrdersPage(ctx, k, Query{Sort: "nope"}); !errors.Is(err, ErrBadSort) {
			t.Errorf("orders, unknown sort: %v", err)
		}
		for _, q := range []Query{{}, {Status: "loading"}, {Sort: "code", Limit: 2, Offset: 1}} {
			n, page, err := s.BoxesPage(ctx, k, q)
			wantN, errN := s.CountBoxes(ctx, k, q)
			want, errP := s.Boxes(ctx, k, q)
			if err != nil || errN != nil || errP != nil || n != wantN || !reflect.DeepEqual(page, want) {
				t.Errorf("boxes %+v: %d %d rows %v; apart %d %d rows %v %v", q, n, len(page), err, wantN, len(want), errN, errP)
			}
		}
	})
}
