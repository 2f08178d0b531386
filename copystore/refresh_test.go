package copystore

import (
	"context"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestRefreshRewritesOnlyChangedSearchText: a pass that reads a record
// unchanged leaves SQLite's full-text index as it was (no segment
// written); one that reads a new name makes the new words findable and
// the old ones not, on both databases.
func TestRefreshRewritesOnlyChangedSearchText(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(78)
		pass := func(name string) {
			t.Helper()
			st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			recs := []apiclient.Nomenclature{
				{WarehouseCode: "WH-1", Barcode: "4600000000017", MarketplaceSKU: "MP-1", Name: name, Status: "online"},
				{WarehouseCode: "WH-2", Barcode: "4600000000024", MarketplaceSKU: "MP-2", Name: "Куртка зимняя", Status: "online"},
			}
			if err := s.putPage(ctx, k, &st, 1, 1, len(recs), mapAll(recs, recordOf)); err != nil {
				t.Fatal(err)
			}
			if err := s.finishPass(ctx, k, st); err != nil {
				t.Fatal(err)
			}
		}
		found := func(q string) int {
			t.Helper()
			n, err := s.CountNomenclature(ctx, k, Query{Q: q})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		segments := func() (n, size int64) {
			t.Helper()
			if s.pg {
				return 0, 0
			}
			if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(length(block)), 0) FROM catalog_nomenclature_fts_data`).Scan(&n, &size); err != nil {
				t.Fatal(err)
			}
			return n, size
		}
		pass("Кроссовки беговые")
		n0, size0 := segments()
		pass("Кроссовки беговые")
		if n, size := segments(); n != n0 || size != size0 {
			t.Errorf("an unchanged pass rewrote the full-text index: %d rows %d bytes, was %d rows %d bytes", n, size, n0, size0)
		}
		if found("бег") != 1 || found("куртк") != 1 {
			t.Errorf("after an unchanged pass: бег %d, куртк %d", found("бег"), found("куртк"))
		}
		pass("Кеды летние")
		if found("бег") != 0 || found("кеды") != 1 || found("летн") != 1 || found("куртк") != 1 {
			t.Errorf("after a rename: бег %d, кеды %d, летн %d, куртк %d", found("бег"), found("кеды"), found("летн"), found("куртк"))
		}
	})
}
