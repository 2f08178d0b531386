package copystore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// BenchmarkObservedPasses: the cost of the price observations to the
// sync's store (SQLite), side by side: passes of 30 pages of 100 records,
// four pages a transaction, each pass after the first changing one price
// in every 100 (a usual pass) or one in every 3 (a repricing), with the
// observations and without them. Reported per page.
func BenchmarkObservedPasses(b *testing.B) {
	for _, c := range []struct {
		every    int
		observed bool
	}{{100, false}, {100, true}, {3, false}, {3, true}} {
		observed, every := c.observed, c.every
		b.Run(fmt.Sprintf("changed=1in%d/observed=%t", every, observed), func(b *testing.B) {
			s, err := New(context.Background(), openDBB(b, filepath.Join(b.TempDir(), "c.db")))
			if err != nil {
				b.Fatal(err)
			}
			s.unobserved = !observed
			ctx := context.Background()
			const pages, perTx = 30, 4
			data := make([][]apiclient.Nomenclature, pages)
			for p := range data {
				for i := range 100 {
					n := p*100 + i
					data[p] = append(data[p], apiclient.Nomenclature{WarehouseCode: fmt.Sprintf("WH-%d", n%3), Barcode: fmt.Sprintf("46%011d", n),
						MarketplaceSKU: fmt.Sprintf("ART-1001-%05d", n/3), SellerSKU: fmt.Sprintf("S-%d", n), Name: fmt.Sprintf("Кроссовки беговые модель %d чёрные", n),
						Brand: "Бренд", Size: "42", Price: apiclient.Money(100000 + n), Quantity: n % 17, Status: "online",
						UpdatedAt: time.Now().Add(-time.Hour)})
				}
			}
			k := Key{SellerID: 1, Env: "test"}
			pass := 0
			for b.Loop() {
				pass++
				for p := range data {
					for i := pass % every; i < len(data[p]); i += every {
						data[p][i].Price = apiclient.Money(100000 + pass*1000 + p*100 + i)
					}
				}
				st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
				if err != nil {
					b.Fatal(err)
				}
				for p := 0; p < pages; p += perTx {
					var batch []page
					for q := p; q < min(p+perTx, pages); q++ {
						batch = append(batch, page{num: q + 1, data: mapAll(data[q], recordOf), pages: pages, total: pages * 100, n: 100})
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
