package copystore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// fillPlanCopy stores n synthetic records of k in pages of 100: every
// third one's name has "hoodie" (a broad search), prices repeat (ties the
// id must break), statuses and quantities vary.
func fillPlanCopy(t testing.TB, s *Store, k Key, n int) []apiclient.Nomenclature {
	t.Helper()
	ctx := context.Background()
	st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	statuses := []string{"online", "online", "online", "rejected", "disabled"}
	var all []apiclient.Nomenclature
	for p := 0; p*100 < n; p++ {
		var page []apiclient.Nomenclature
		for i := p * 100; i < min(n, (p+1)*100); i++ {
			name := fmt.Sprintf("Кроссовки %d", i)
			if i%3 == 0 {
				name = fmt.Sprintf("Hoodie чёрный %d", i)
			}
			page = append(page, apiclient.Nomenclature{
				WarehouseCode: "W1", Barcode: fmt.Sprintf("460%010d", i), MarketplaceSKU: fmt.Sprintf("MP%06d", i),
				SellerSKU: fmt.Sprintf("ART-%d", i), Name: name, Brand: "Brand", Size: "M",
				Price: apiclient.Money(100 * (i % 97)), SalePrice: apiclient.Money(90 * (i % 97)), Quantity: i % 11,
				Status: statuses[i%len(statuses)], PriceUpdateStatus: "OK", UpdatedAt: time.UnixMilli(int64(i) * 1000),
			})
		}
		if err := s.putPage(ctx, k, &st, p+1, (n+99)/100, n, mapAll(page, recordOf)); err != nil {
			t.Fatal(err)
		}
		all = append(all, page...)
	}
	if err := s.finishPass(ctx, k, st); err != nil {
		t.Fatal(err)
	}
	return all
}

// TestSortedPagePlans: a sorted, filtered page and a sorted page of a
// broad search walk the sort's index and stop after the page (issue 16's
// 50 ms targets at 100,000 records), instead of sorting every match; a
// narrow search is still driven by the full-text index. The pages are
// what sorting every match in Go gives.
func TestSortedPagePlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newBackend(t, filepath.Join(t.TempDir(), "catalog.db")).open()
	k := Key{SellerID: 1001, Env: "test"}
	other := Key{SellerID: 1002, Env: "test"}
	all := fillPlanCopy(t, s, k, 3*broadLimit)
	fillPlanCopy(t, s, other, 200)

	stock := 5
	cases := []struct {
		q    Query
		keep func(r *apiclient.Nomenclature) bool
		less func(a, b *apiclient.Nomenclature) int
		plan string // what the plan must use (and never a temporary b-tree for ORDER BY)
	}{
		{Query{Status: "online", StockMax: &stock, Sort: "-price", Offset: 50},
			func(r *apiclient.Nomenclature) bool { return r.Status == "online" && r.Quantity <= stock },
			func(a, b *apiclient.Nomenclature) int { return -int(a.Price - b.Price) }, "catalog_nomenclature_status_price"},
		{Query{Status: "online", StockMax: &stock, Sort: "name"},
			func(r *apiclient.Nomenclature) bool { return r.Status == "online" && r.Quantity <= stock },
			func(a, b *apiclient.Nomenclature) int { return strings.Compare(a.Name, b.Name) }, "catalog_nomenclature_status_name"},
		{Query{Q: "чёрн", Sort: "-price", Offset: 100},
			func(r *apiclient.Nomenclature) bool { return strings.HasPrefix(r.Name, "Hoodie") },
			func(a, b *apiclient.Nomenclature) int { return -int(a.Price - b.Price) }, "catalog_nomenclature_price"},
		// The list order (id): the first page and a filtered one read the
		// copy in id order and stop after the page.
		{Query{},
			func(r *apiclient.Nomenclature) bool { return true },
			func(a, b *apiclient.Nomenclature) int { return 0 }, "catalog_nomenclature_list"},
		{Query{Status: "online", Offset: 100},
			func(r *apiclient.Nomenclature) bool { return r.Status == "online" },
			func(a, b *apiclient.Nomenclature) int { return 0 }, "catalog_nomenclature_status_list"},
		// A broad search in the list order walks the full-text matches in
		// id order and stops after the page, rather than collecting every
		// match first.
		{Query{Q: "чёрн", Offset: 50},
			func(r *apiclient.Nomenclature) bool { return strings.HasPrefix(r.Name, "Hoodie") },
			func(a, b *apiclient.Nomenclature) int { return 0 }, "catalog_nomenclature_fts"},
		{Query{Q: "460" + fmt.Sprintf("%010d", 42), Sort: "-price"},
			func(r *apiclient.Nomenclature) bool { return r.Barcode == fmt.Sprintf("460%010d", 42) },
			func(a, b *apiclient.Nomenclature) int { return -int(a.Price - b.Price) }, "catalog_nomenclature_fts"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%+v", c.q), func(t *testing.T) {
			// Ids follow the stored order: the tie-break of the sort.
			idx := make([]int, 0, len(all))
			for i := range all {
				if c.keep(&all[i]) {
					idx = append(idx, i)
				}
			}
			desc := strings.HasPrefix(c.q.Sort, "-")
			slices.SortStableFunc(idx, func(a, b int) int {
				if d := c.less(&all[a], &all[b]); d != 0 {
					return d
				}
				if desc {
					return b - a
				}
				return a - b
			})
			want := idx[min(len(idx), c.q.Offset):min(len(idx), c.q.Offset+DefaultLimit)]
			got, err := s.Nomenclature(ctx, k, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].Barcode != all[want[i]].Barcode {
					t.Fatalf("row %d is %s, want %s", i, got[i].Barcode, all[want[i]].Barcode)
				}
			}
			n, err := s.CountNomenclature(ctx, k, c.q)
			if err != nil || n != len(idx) {
				t.Fatalf("count %d, %v; want %d", n, err, len(idx))
			}

			query, args, err := s.nomenclatureQuery(ctx, k, c.q)
			if err != nil {
				t.Fatal(err)
			}
			p := queryPlan(t, s, query, args)
			if c.q.Q != "" {
				// A search's count reads the owner index, not the rows.
				query, args := s.nomenclatureCount(k, c.q)
				if cp := queryPlan(t, s, query, args); !strings.Contains(cp, "COVERING INDEX catalog_nomenclature_owner") {
					t.Errorf("the count reads the rows:\n%s", cp)
				}
			}
			if c.q.Q != "" && c.q.Sort == "" && (strings.Contains(p, "SUBQUERY") || strings.Contains(p, "TEMP B-TREE")) {
				t.Errorf("the search collects every match before its page:\n%s", p)
			}
			if !strings.Contains(p, c.plan) || (c.plan != "catalog_nomenclature_fts" && strings.Contains(p, "TEMP B-TREE FOR ORDER BY")) {
				t.Errorf("plan does not use %s without sorting every match:\n%s", c.plan, p)
			}
		})
	}
}

func queryPlan(t *testing.T, s *Store, query string, args []any) string {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// TestFirstPassAnalyzes: on PostgreSQL a copy's first complete pass leaves
// its table analyzed, so the planner knows the rows it just filled (a
// status page then walks the status's id index instead of sorting every
// record of the status), and vacuumed, so index reads skip the rows and
// searches the full-text index's pending entries.
func TestFirstPassAnalyzes(t *testing.T) {
	t.Parallel()
	s := newBackend(t, sqldbtest.PostgresURL(t)).open()
	fillPlanCopy(t, s, Key{SellerID: 1001, Env: "test"}, 2000)
	var tuples float64
	if err := s.r.QueryRowContext(context.Background(), `SELECT reltuples FROM pg_class WHERE oid = 'catalog_nomenclature'::regclass`).Scan(&tuples); err != nil {
		t.Fatal(err)
	}
	if tuples < 2000 {
		t.Errorf("after the first pass the planner counts %v rows, want 2000 (analyzed)", tuples)
	}
	// The server's statistics record the vacuum once its backend reports
	// them (within seconds); autovacuum's own runs are counted apart.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var vacuums int
		if err := s.r.QueryRowContext(context.Background(), `SELECT vacuum_count FROM pg_stat_user_tables WHERE relid = 'catalog_nomenclature'::regclass`).Scan(&vacuums); err != nil {
			t.Fatal(err)
		}
		if vacuums > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first pass left its table unvacuumed")
		}
	}
}
