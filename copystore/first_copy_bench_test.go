package copystore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// BenchmarkFirstCopyStore: the store's part of a first copy (SQLite), as
// the sync stores it: pages of 100 records, four a transaction, into an
// empty copy, with the price observations; at 3,000 and 30,000 records
// (P8's first sync), so a cost that grows with the copy shows as a
// difference between the two. Reported per page stored.
func BenchmarkFirstCopyStore(b *testing.B) {
	for _, pages := range []int{30, 300} {
		b.Run(fmt.Sprintf("records=%d", pages*100), func(b *testing.B) {
			data := make([][]Record, pages)
			for p := range data {
				recs := make([]apiclient.Nomenclature, 0, 100)
				for i := range 100 {
					n := p*100 + i
					recs = append(recs, apiclient.Nomenclature{WarehouseCode: fmt.Sprintf("WH-%d", n%3), Barcode: fmt.Sprintf("46%011d", n/3),
						MarketplaceSKU: fmt.Sprintf("ART-1001-%05d", n/3), SellerSKU: fmt.Sprintf("S-%d", n/3), Name: fmt.Sprintf("Кроссовки беговые модель %d чёрные", n/3),
						Brand: "Бренд", Size: "42", Price: apiclient.Money(100000 + n), Quantity: n % 17, Status: "online",
						UpdatedAt: time.Now().Add(-time.Hour)})
				}
				data[p] = mapAll(recs, recordOf)
			}
			ctx := context.Background()
			k := Key{SellerID: 1, Env: "test"}
			const perTx = 4
			for b.Loop() {
				b.StopTimer()
				s, err := New(ctx, openDBB(b, filepath.Join(b.TempDir(), "c.db")))
				if err != nil {
					b.Fatal(err)
				}
				st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for p := 0; p < pages; p += perTx {
					var batch []page
					for q := p; q < min(p+perTx, pages); q++ {
						batch = append(batch, page{num: q + 1, data: data[q], pages: pages, total: pages * 100, n: 100})
					}
					if err := s.putPages(ctx, k, &st, batch); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*pages)/1000, "ms/page")
		})
	}
}
