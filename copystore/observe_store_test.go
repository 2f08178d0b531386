package copystore

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestObservationLooksRecordsUpByKey: the price observation of a full
// page looks each of the page's records up by its unique key (SQLite's
// plan), rather than scanning every record of the seller for each page,
// which made a first copy's store grow with the square of the catalogue.
func TestObservationLooksRecordsUpByKey(t *testing.T) {
	t.Parallel()
	s := newBackend(t, filepath.Join(t.TempDir(), "catalog.db")).open()
	k := testKey(4501)
	fillPlanCopy(t, s, k, 3*PageLimit)
	for _, n := range []int{1, PageLimit / 2, PageLimit} {
		args := make([]any, 0, 5*n+5)
		for i := range n {
			args = append(args, "W1", fmt.Sprintf("460%010d", i), 100, 0, "OK")
		}
		args = append(args, 1, 1, k.SellerID, k.Env, 1)
		plan := strings.Split(queryPlan(t, s, s.q(observeStatement(n)), args), "\n")
		byKey := false
		for _, step := range plan {
			if strings.Contains(step, " n ") || strings.HasSuffix(step, " n") {
				if step != "SEARCH n USING INDEX sqlite_autoindex_catalog_nomenclature_1 (seller_id=? AND env=? AND warehouse=? AND barcode=?)" {
					t.Errorf("%d records: the observation reads the copy by %q, want by each record's key; plan:\n%s", n, step, strings.Join(plan, "\n"))
				}
				byKey = true
			}
		}
		if !byKey {
			t.Errorf("%d records: the plan never reads the copy:\n%s", n, strings.Join(plan, "\n"))
		}
	}
}

// TestObservedPointsOfABatch: a batch of pages stored in one transaction
// records the points page by page, as each page finds the copy: a record
// read on two pages of one batch with two new prices has a point for each
// and one baseline (its first change); the new prices come before the
// baseline they replaced. Both databases.
func TestObservedPointsOfABatch(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(4502)
		base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		updated := base.Add(-24 * time.Hour)
		rec := func(i int, price apiclient.Money) apiclient.Nomenclature {
			return apiclient.Nomenclature{WarehouseCode: "WH-1", Barcode: fmt.Sprintf("46%011d", i), MarketplaceSKU: fmt.Sprintf("MP-%d", i),
				ParentSKU: fmt.Sprintf("CARD-%d", i/2), Name: fmt.Sprintf("Кроссовки %d", i), Status: "online", Price: price, SalePrice: price / 2,
				PriceUpdateStatus: "OK", UpdatedAt: updated}
		}
		pass := func(at time.Time, pages ...[]apiclient.Nomenclature) {
			t.Helper()
			s.SetClock(func() time.Time { return at })
			st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			var batch []page
			total := 0
			for i, p := range pages {
				batch = append(batch, page{num: i + 1, data: mapAll(p, recordOf), pages: len(pages), n: len(p)})
				total += len(p)
			}
			for i := range batch {
				batch[i].total = total
			}
			if err := s.putPages(ctx, k, &st, batch); err != nil {
				t.Fatal(err)
			}
			if err := s.finishPass(ctx, k, st); err != nil {
				t.Fatal(err)
			}
		}
		var first, second []apiclient.Nomenclature
		for i := range PageLimit {
			first = append(first, rec(i, 1000))
			second = append(second, rec(PageLimit+i, 1000))
		}
		pass(base, first, second)
		// Record 5 changes to 2000 and is read again on the second page
		// at 3000 (it moved in the marketplace's order); record 7 changes
		// once; the rest are read unchanged.
		next := base.Add(time.Hour)
		first[5].Price, first[5].SalePrice = 2000, 1000
		first[7].Price, first[7].SalePrice = 1500, 750
		moved := first[5]
		moved.Price, moved.SalePrice = 3000, 1500
		second = append(second, moved)
		pass(next, first, second)

		rows, err := s.r.QueryContext(ctx, s.q(`SELECT barcode, marketplace_sku, parent_sku, price, sale_price, observed_at FROM catalog_price_points
			WHERE seller_id = ? AND env = ? ORDER BY id`), k.SellerID, k.Env)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var bc, sku, card string
			var price, sale, at int64
			if err := rows.Scan(&bc, &sku, &card, &price, &sale, &at); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %s %s %d/%d at %s", bc, sku, card, price, sale, time.UnixMilli(at).UTC().Format(time.RFC3339)))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		at := func(tm time.Time) string { return tm.UTC().Format(time.RFC3339) }
		want := []string{
			"4600000000005 MP-5 CARD-2 2000/1000 at " + at(next),
			"4600000000007 MP-7 CARD-3 1500/750 at " + at(next),
			"4600000000005 MP-5 CARD-2 1000/500 at " + at(updated),
			"4600000000007 MP-7 CARD-3 1000/500 at " + at(updated),
			"4600000000005 MP-5 CARD-2 3000/1500 at " + at(next),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}
