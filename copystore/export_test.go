package copystore

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestExportKeyset: an export read in keyset pages lists exactly the
// records, in exactly the order, of one query of the whole list, for every
// sort in both directions, with filters and searches, across many page
// boundaries, ties on the sort key included.
func TestExportKeyset(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		s.exportPage = 23
		first, err := s.Nomenclature(ctx, k, Query{Limit: 1})
		if err != nil || len(first) != 1 {
			t.Fatalf("%v %v", first, err)
		}
		queries := []Query{{}, {Q: "крос", Sort: "-price"}, {Q: "черн"}, {Status: "online", Sort: "name"},
			{StockMax: new(5), Sort: "-quantity"}, {PriceMin: 100000, Sort: "brand"}, {Warehouse: first[0].Warehouse, Sort: "-updated"}}
		keys := make([]string, 0, len(NomenclatureSorts))
		for key := range NomenclatureSorts {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			queries = append(queries, Query{Sort: key}, Query{Sort: "-" + key})
		}
		tiesCrossed := 0
		for _, q := range queries {
			want := q
			want.Limit = MaxLimit
			all, err := s.Nomenclature(ctx, k, want)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			if len(all) >= MaxLimit {
				t.Fatalf("%+v: %d records, more than one reference query holds", q, len(all))
			}
			var got []int64
			err = s.ExportNomenclature(ctx, k, q, func(r *Record) error {
				got = append(got, r.ID)
				return nil
			})
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			ids := make([]int64, len(all))
			for i, r := range all {
				ids[i] = r.ID
			}
			if !slices.Equal(got, ids) {
				t.Errorf("%+v: export lists %d records, the query %d, or in another order", q, len(got), len(ids))
			}
			if col := NomenclatureSorts[strings.TrimPrefix(q.Sort, "-")]; col != "" {
				for i := s.exportPage - 1; i+1 < len(all); i += s.exportPage {
					a, _ := sortValue(col, &all[i])
					b, _ := sortValue(col, &all[i+1])
					if a == b {
						tiesCrossed++
					}
				}
			}
		}
		if tiesCrossed == 0 {
			t.Error("no page boundary fell inside a tie of the sort key")
		}
	})
}

// TestExportHoldsNoConnection: while the export's caller works on a record
// (a client taking its time), the export holds no database connection.
func TestExportHoldsNoConnection(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		s, k := synced(t, b, m, 1001)
		s.exportPage = 50
		n := 0
		err := s.ExportNomenclature(context.Background(), k, Query{Sort: "-price"}, func(r *Record) error {
			n++
			if bulk, r := s.bulk.Stats().InUse, s.db.Reader().Stats().InUse; bulk+r != 0 {
				t.Fatalf("record %d: %d bulk and %d read connections in use", n, bulk, r)
			}
			return nil
		})
		if err != nil || n != 3*productsInTests {
			t.Fatalf("%d records, %v", n, err)
		}
	})
}

// TestExportStopsWhenRevoked: a copy revoked while its export runs is not
// read past the page under way.
func TestExportStopsWhenRevoked(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		s.exportPage = 50
		n := 0
		err := s.ExportNomenclature(ctx, k, Query{}, func(r *Record) error {
			if n++; n == 10 {
				return s.Revoke(ctx, k)
			}
			return nil
		})
		if !errors.Is(err, ErrRevoked) || n != 50 {
			t.Fatalf("after %d records: %v, want ErrRevoked after the page of 50", n, err)
		}
	})
}
