package browse

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestListsLiveUntilFullCopy: before the first full copy the lists are
// read live (the copy's search ignored, the page gate not entered); once
// it exists they are read from the copy, with its search, inside the
// gate, and without a list call to the marketplace.
func TestListsLiveUntilFullCopy(t *testing.T) {
	r := newRig(t)
	reader := New(r.copy, nil)
	ctx := context.Background()
	entered := 0
	live, err := r.seller(reader, &entered).Orders(ctx, Query{Page: 1, Limit: 20, Copy: copystore.Query{Q: "no-such-order"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Orders) != 20 || live.Total < 100 || entered != 0 {
		t.Fatalf("live page: %d orders of %d, gate entered %d times", len(live.Orders), live.Total, entered)
	}

	r.synced(t)
	before := r.requests(sandbox.RouteB2BOrders)
	nr := live.Orders[3].Nr
	page, err := r.seller(reader, &entered).Orders(ctx, Query{Page: 1, Limit: 20, Copy: copystore.Query{Q: nr}})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Orders) != 1 || page.Orders[0].Nr != nr || page.Total != 1 || page.Pages != 1 {
		t.Fatalf("search %s in the copy: %+v", nr, page)
	}
	if !reflect.DeepEqual(page.Orders[0], live.Orders[3]) {
		t.Errorf("the copy's row %+v, the marketplace's %+v", page.Orders[0], live.Orders[3])
	}
	if entered != 1 {
		t.Errorf("gate entered %d times, want 1", entered)
	}
	if n := r.requests(sandbox.RouteB2BOrders) - before; n != 0 {
		t.Errorf("%d orders requests for a page from the copy", n)
	}
}

// TestListsLiveBeforeFirstCopy: while the first pass of the copy has not
// finished (here its sync fails at once), every list is read live.
func TestListsLiveBeforeFirstCopy(t *testing.T) {
	r := newRig(t)
	s := r.beforeCopy()
	ctx := context.Background()
	boxes, err := s.Boxes(ctx, Query{Page: 1, Limit: 5, Status: "shipped"})
	if err != nil {
		t.Fatal(err)
	}
	if len(boxes.Boxes) == 0 {
		t.Fatal("no shipped boxes")
	}
	for _, b := range boxes.Boxes {
		if b.Status != "shipped" || b.ShippedAt.IsZero() {
			t.Errorf("box %+v", b)
		}
	}
	p, err := s.Nomenclature(ctx, Query{Page: 2, Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Records) != 200 || p.Page != 2 || p.Pages != (p.Total+199)/200 || p.Ends != nil {
		t.Errorf("live page of 200: %d records, page %d of %d, total %d, ends %v", len(p.Records), p.Page, p.Pages, p.Total, p.Ends)
	}
	if st, err := s.States(ctx); Complete(st) || err != nil {
		t.Errorf("states before the first copy: %v %v", st, err)
	}
}

// TestLiveReadTakesSellerLock: a live read waits for the per-seller lock
// the sync reads under; while another holds it, the read ends with its
// context, having sent nothing.
func TestLiveReadTakesSellerLock(t *testing.T) {
	r := newRig(t)
	unlock, err := r.db.LockSeller(context.Background(), r.key.SellerID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	s := New(r.copy, nil).For(r.key, Access{Account: r.acct, Source: r.src, Live: func() context.Context { return ctx }})
	before := r.requests(sandbox.RouteB2BOrders)
	if _, err := s.Orders(context.Background(), Query{Page: 1, Limit: 20}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read under a held lock: %v", err)
	}
	if n := r.requests(sandbox.RouteB2BOrders) - before; n != 0 {
		t.Errorf("%d orders requests sent without the lock", n)
	}
	unlock()
	if _, err := r.seller(New(r.copy, nil), nil).Orders(context.Background(), Query{Page: 1, Limit: 20}); err != nil {
		t.Fatalf("read once the lock is free: %v", err)
	}
}

// TestStatesReadOncePerRequest: the dispatch and the freshness line of one
// request share the sync states read for it.
func TestStatesReadOncePerRequest(t *testing.T) {
	r := newRig(t)
	s := r.seller(New(r.copy, nil), nil)
	ctx := context.Background()
	first, err := s.States(ctx)
	if err != nil || Complete(first) {
		t.Fatalf("states before a copy: %v %v", first, err)
	}
	r.synced(t)
	again, err := s.States(ctx)
	if err != nil || Complete(again) {
		t.Fatalf("the request's states were read again: complete %v, %v", Complete(again), err)
	}
	if ok, err := s.FromCopy(ctx); ok || err != nil {
		t.Errorf("the request read from the copy its states did not describe: %v %v", ok, err)
	}
	if ok, err := r.seller(New(r.copy, nil), nil).FromCopy(ctx); !ok || err != nil {
		t.Errorf("a new request does not read the full copy: %v %v", ok, err)
	}
}

// TestRevokedCopyRefused: a copy whose credentials the marketplace
// refused is not read: the lists answer copystore.ErrRevoked, the overview
// of a session holding several accounts marks it unavailable.
func TestRevokedCopyRefused(t *testing.T) {
	r := newRig(t).synced(t)
	ctx := context.Background()
	if err := r.copy.Store().Revoke(ctx, r.key); err != nil {
		t.Fatal(err)
	}
	reader := New(r.copy, nil)
	s := r.seller(reader, nil)
	if _, err := s.Orders(ctx, Query{Page: 1, Limit: 20}); !errors.Is(err, copystore.ErrRevoked) {
		t.Errorf("orders: %v", err)
	}
	if _, err := s.Nomenclature(ctx, Query{Page: 1, Limit: 20}); !errors.Is(err, copystore.ErrRevoked) {
		t.Errorf("nomenclature: %v", err)
	}
	if _, err := s.Overview(ctx); !errors.Is(err, copystore.ErrRevoked) {
		t.Errorf("overview: %v", err)
	}
	if g, err := reader.Glance(ctx, r.key); err != nil || !g.Unavailable {
		t.Errorf("glance: %+v %v", g, err)
	}
}

// TestUnknownSortReadsListOrder: a sort a list does not have reads the
// list in its default order rather than failing the page.
func TestUnknownSortReadsListOrder(t *testing.T) {
	r := newRig(t).synced(t)
	s := r.seller(New(r.copy, nil), nil)
	ctx := context.Background()
	want, err := s.Orders(ctx, Query{Page: 2, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Orders(ctx, Query{Page: 2, Limit: 20, Copy: copystore.Query{Sort: "-colour"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(nrs(got.Orders), nrs(want.Orders)) {
		t.Errorf("unknown sort: %v, want %v", nrs(got.Orders), nrs(want.Orders))
	}
	boxes, err := s.Boxes(ctx, Query{Page: 1, Limit: 10, Copy: copystore.Query{Sort: "colour"}})
	if err != nil || len(boxes.Boxes) == 0 {
		t.Errorf("boxes by an unknown sort: %d, %v", len(boxes.Boxes), err)
	}
	p, err := s.Nomenclature(ctx, Query{Page: 1, Limit: 10, Copy: copystore.Query{Sort: "colour"}})
	if err != nil || len(p.Records) != 10 || p.Ends != nil {
		t.Errorf("nomenclature by an unknown sort: %d records, ends %v, %v", len(p.Records), p.Ends, err)
	}
}

func nrs(os []Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.Nr
	}
	return out
}

// TestNomenclatureCursorPages: the pager's cursors lead to the same pages
// as their page numbers, the last one read from the end; a cursor of
// another sort is ignored.
func TestNomenclatureCursorPages(t *testing.T) {
	r := newRig(t).synced(t)
	reader := New(r.copy, nil)
	ctx := context.Background()
	sorted := copystore.Query{Sort: "-price"}
	first, err := r.seller(reader, nil).Nomenclature(ctx, Query{Page: 1, Limit: 50, Copy: sorted})
	if err != nil {
		t.Fatal(err)
	}
	if first.Ends == nil || first.Pages < 4 {
		t.Fatalf("first page: ends %v, %d pages", first.Ends, first.Pages)
	}
	for _, p := range []int{2, 3, first.Pages} {
		cur := first.Ends.CursorTo(1, p, first.Pages, 50)
		if cur == "" {
			t.Fatalf("no cursor from page 1 to %d", p)
		}
		byCursor, err := r.seller(reader, nil).Nomenclature(ctx, Query{Page: p, Limit: 50, Copy: sorted, Cursor: cur})
		if err != nil {
			t.Fatal(err)
		}
		byNumber, err := r.seller(reader, nil).Nomenclature(ctx, Query{Page: p, Limit: 50, Copy: sorted})
		if err != nil {
			t.Fatal(err)
		}
		if byCursor.Page != p || !slices.Equal(keys(byCursor.Records), keys(byNumber.Records)) {
			t.Errorf("page %d by cursor (page %d) differs from by number", p, byCursor.Page)
		}
	}
	if first.Ends.CursorTo(1, 1, first.Pages, 50) != "" || first.Ends.CursorTo(5, 9, 20, 50) != "" {
		t.Error("a cursor for the first page or a page not next to this one")
	}
	other := first.Ends.CursorTo(1, 2, first.Pages, 50)
	p, err := r.seller(reader, nil).Nomenclature(ctx, Query{Page: 3, Limit: 50, Copy: copystore.Query{Sort: "name"}, Cursor: other})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.seller(reader, nil).Nomenclature(ctx, Query{Page: 3, Limit: 50, Copy: copystore.Query{Sort: "name"}})
	if !slices.Equal(keys(p.Records), keys(want.Records)) {
		t.Error("a cursor of another sort placed the page")
	}
}

func keys(recs []Record) []string {
	out := make([]string, len(recs))
	for i, n := range recs {
		out[i] = n.WarehouseCode + "|" + n.Barcode
	}
	return out
}

// TestOverviewCopyMatchesLive: the overview from a full copy counts what
// the marketplace's lists count, and says what needs action.
func TestOverviewCopyMatchesLive(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	live := r.liveCounts(t)
	if Total(live.Orders) == 0 || Total(live.Boxes) == 0 || Total(live.Nomenclature) == 0 {
		t.Fatalf("live counts %+v", live)
	}
	r.synced(t)
	copied, err := r.seller(New(r.copy, nil), nil).Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !Complete(copied.Sync) {
		t.Fatalf("overview from the copy: %+v", copied)
	}
	for _, c := range [][2][]Count{{live.Orders, copied.Orders}, {live.Boxes, copied.Boxes}, {live.Nomenclature, copied.Nomenclature}} {
		if !slices.Equal(c[0], c[1]) {
			t.Errorf("live %v, copy %v", c[0], c[1])
		}
	}
	if copied.NewOrders != live.Orders[0].Count {
		t.Errorf("new orders %d, live count %d", copied.NewOrders, live.Orders[0].Count)
	}
}

// TestCountsOf: the known statuses in their order, zero included, then
// the others by name.
func TestCountsOf(t *testing.T) {
	got := countsOf([]string{"b", "a"}, map[string]int{"a": 2, "z": 1, "c": 4})
	want := []Count{{"b", 0}, {"a", 2}, {"c", 4}, {"z", 1}}
	if !slices.Equal(got, want) || Total(got) != 7 {
		t.Errorf("%v", got)
	}
}

// TestEachRecord: the whole filtered catalogue from the copy, in its
// sort; live, every record page by page, and ErrTooManyPages past the
// bound.
func TestEachRecord(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	live := 0
	// Before the first copy, which cannot finish (beforeCopy): a pass
	// that finished before the second walk would serve it.
	if err := r.beforeCopy().EachRecord(ctx, Query{}, 1000, func(Record) error { live++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := r.beforeCopy().EachRecord(ctx, Query{}, 1, func(Record) error { return nil }); !errors.Is(err, ErrTooManyPages) {
		t.Errorf("a live walk past its bound: %v", err)
	}
	r.synced(t)
	var prices []int64
	err := r.seller(New(r.copy, nil), nil).EachRecord(ctx, Query{Copy: copystore.Query{Sort: "-price", Status: "online"}}, 1, func(n Record) error {
		if n.Status != "online" {
			t.Errorf("record %s|%s in status %s", n.WarehouseCode, n.Barcode, n.Status)
		}
		prices = append(prices, int64(n.Price))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(prices) == 0 || len(prices) >= live || !slices.IsSortedFunc(prices, func(a, b int64) int { return int(b - a) }) {
		t.Errorf("%d online records of %d, sorted by price down: %v", len(prices), live, slices.IsSortedFunc(prices, func(a, b int64) int { return int(b - a) }))
	}
}

// TestReadAhead: a page read live is read by the function ReadAhead
// returns, when the caller runs it; a page from the copy is not read
// ahead.
func TestReadAhead(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	var ahead Ahead
	read, err := r.beforeCopy().ReadAhead(ctx, Query{Page: 2, Limit: 20}, &ahead)
	if err != nil || read == nil {
		t.Fatalf("live page: %v %v", read == nil, err)
	}
	if ahead.Done {
		t.Fatal("read before the caller ran it")
	}
	read()
	if !ahead.Done || ahead.Err != nil || len(ahead.Page.Records) != 20 || ahead.Page.Page != 2 {
		t.Fatalf("read ahead: %+v", ahead)
	}
	r.synced(t)
	if read, err := r.seller(New(r.copy, nil), nil).ReadAhead(ctx, Query{Page: 2, Limit: 20}, &ahead); read != nil || err != nil {
		t.Errorf("a page from the copy read ahead: %v", err)
	}
}
