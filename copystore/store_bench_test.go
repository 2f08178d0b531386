package copystore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// BenchmarkStorePages: the sync's store alone (SQLite), a first pass of
// 30 pages of 100 records then a refresh of the same records, in
// batches of pagesPerTx pages a transaction. Reported per page.
func BenchmarkStorePages(b *testing.B) {
	for _, perTx := range []int{1, 4} {
		b.Run(fmt.Sprintf("perTx=%d", perTx), func(b *testing.B) {
			s, err := New(context.Background(), openDBB(b, filepath.Join(b.TempDir(), "c.db")))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			const pages = 30
			data := make([][]apiclient.Nomenclature, pages)
			for p := range data {
				for i := range 100 {
					n := p*100 + i
					data[p] = append(data[p], apiclient.Nomenclature{WarehouseCode: fmt.Sprintf("WH-%d", n%3), Barcode: fmt.Sprintf("46%011d", n),
						MarketplaceSKU: fmt.Sprintf("ART-1001-%05d", n/3), SellerSKU: fmt.Sprintf("S-%d", n), Name: fmt.Sprintf("Кроссовки беговые модель %d чёрные", n),
						Brand: "Бренд", Size: "42", Price: apiclient.Money(100000 + n), Quantity: n % 17, Status: "online", UpdatedAt: time.Now()})
				}
			}
			recs := make([][]Record, pages)
			for p := range data {
				recs[p] = mapAll(data[p], recordOf)
			}
			k := Key{SellerID: 1, Env: "test"}
			b.ResetTimer()
			for b.Loop() {
				st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
				if err != nil {
					b.Fatal(err)
				}
				for p := 0; p < pages; p += perTx {
					var batch []page
					for q := p; q < min(p+perTx, pages); q++ {
						batch = append(batch, page{num: q + 1, data: recs[q], pages: pages, total: pages * 100, n: 100})
					}
					if err := s.putPages(ctx, k, &st, batch); err != nil {
						b.Fatal(err)
					}
				}
				if err := s.finishPass(ctx, k, st); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*pages)/1000, "ms/page")
		})
	}
}

func openDBB(b *testing.B, url string) *sqldbDB {
	b.Helper()
	db, err := sqldbOpen(url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

type sqldbDB = sqldb.DB

func sqldbOpen(url string) (*sqldb.DB, error) { return sqldb.Open(context.Background(), url) }

// BenchmarkDeepPage: a page of 50 sorted by descending price (SQLite,
// 20,000 records) near the start and near the end of the list, by offset
// and by cursor: the cursor's cost does not grow with the depth.
func BenchmarkDeepPage(b *testing.B) {
	s := newBackend(b, filepath.Join(b.TempDir(), "c.db")).open()
	k := Key{SellerID: 1001, Env: "test"}
	const n = 20_000
	fillPlanCopy(b, s, k, n)
	ctx := context.Background()
	deep, err := s.Nomenclature(ctx, k, Query{Sort: "-price", Offset: n - 100, Limit: 1})
	if err != nil || len(deep) != 1 {
		b.Fatal(deep, err)
	}
	after, _ := CursorAt("-price", &deep[0])
	before := after
	before.Before = true
	for _, c := range []struct {
		name string
		q    Query
	}{
		{"offset=50", Query{Sort: "-price", Offset: 50}},
		{"offset=deep", Query{Sort: "-price", Offset: n - 100}},
		{"cursor=after-deep", Query{Sort: "-price", Cursor: &after}},
		{"cursor=before-deep", Query{Sort: "-price", Cursor: &before}},
		{"cursor=end", Query{Sort: "-price", Cursor: &Cursor{Sort: "-price", Before: true, End: true}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.NomenclaturePage(ctx, k, c.q, func(*Record) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
