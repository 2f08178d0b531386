package copystore

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// repeatSource is an AccountSource whose pages after the first repeat the
// first page's first record, order and box (a list whose pages overlap,
// as the marketplace's v2 lists do), and repeat it once more within the
// same page.
type repeatSource struct {
	AccountSource
	firstRec   apiclient.Nomenclature
	firstOrder apiclient.Order
	firstBox   apiclient.ReturnBox
}

func (r *repeatSource) Credential() Credential { return r.AccountSource.Credential }

func (r *repeatSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	recs, pages, total, err := r.AccountSource.NomenclaturePage(ctx, page, limit)
	if err != nil || len(recs) == 0 {
		return recs, pages, total, err
	}
	if page == 1 {
		r.firstRec = recs[0]
		return recs, pages, total, nil
	}
	return append([]apiclient.Nomenclature{r.firstRec, r.firstRec}, recs...), pages, total, nil
}

func (r *repeatSource) OrdersPage(ctx context.Context, page, limit int) ([]apiclient.Order, int, int, error) {
	orders, pages, total, err := r.AccountSource.OrdersPage(ctx, page, limit)
	if err != nil || len(orders) == 0 {
		return orders, pages, total, err
	}
	if page == 1 {
		r.firstOrder = orders[0]
		return orders, pages, total, nil
	}
	return append([]apiclient.Order{r.firstOrder, r.firstOrder}, orders...), pages, total, nil
}

func (r *repeatSource) BoxesPage(ctx context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	boxes, pages, total, err := r.AccountSource.BoxesPage(ctx, page, limit)
	if err != nil || len(boxes) == 0 {
		return boxes, pages, total, err
	}
	if page == 1 {
		r.firstBox = boxes[0]
		return boxes, pages, total, nil
	}
	return append([]apiclient.ReturnBox{r.firstBox, r.firstBox}, boxes...), pages, total, nil
}

// TestDuplicatesAcrossPages: a record, order or box that comes again on a
// later page (and twice within it) is stored once, and every count of
// the copy counts it once, on both databases.
func TestDuplicatesAcrossPages(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 40})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		want := func(t *testing.T, s *Store, k Key) [3]int {
			t.Helper()
			y := &Syncer{Store: s, Lock: b.lock, PageLimit: 25}
			if err := y.Run(ctx, k, m.source(1001)); err != nil {
				t.Fatal(err)
			}
			return rowCounts(t, s, k)
		}
		s := b.open()
		plain := want(t, s, testKey(1001))

		k := testKey(1001)
		src := &repeatSource{AccountSource: m.source(1001)}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 25}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatalf("run with repeated records: %v", err)
		}
		if got := rowCounts(t, s, k); got != plain {
			t.Errorf("rows with repeated records: %v, want %v", got, plain)
		}
		n, err := s.CountNomenclature(ctx, k, Query{})
		if err != nil || n != plain[0] {
			t.Errorf("record count %d (%v), want %d", n, err, plain[0])
		}
		ov, err := s.Overview(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		sum := func(m map[string]int) (n int) {
			for _, v := range m {
				n += v
			}
			return n
		}
		if got := [3]int{sum(ov.RecordsByStatus), sum(ov.OrdersByStatus), sum(ov.BoxesByStatus)}; got != plain {
			t.Errorf("overview counts %v, want %v", got, plain)
		}
	})
}
