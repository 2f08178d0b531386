package copystore

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// BenchmarkForgetPostgres: Forget of a copy of 100,000 records on
// PostgreSQL (SELLERDESK_TEST_POSTGRES_URL; skipped without it), with the
// counts kept by the row triggers of step 7 (the schema migrated to step
// 9) and by the statement triggers of step 10. Run it once
// (-benchtime=1x): the row triggers take minutes.
func BenchmarkForgetPostgres(b *testing.B) {
	const records, chunk = 100_000, 5_000
	for _, c := range []struct {
		name  string
		steps int
	}{{"row_triggers", 9}, {"statement_triggers", len(migrations.Postgres)}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			db, err := sqldb.Open(ctx, sqldbtest.PostgresURL(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			s, err := newStore(ctx, db, sqldb.Steps{SQLite: migrations.SQLite[:c.steps], Postgres: migrations.Postgres[:c.steps]})
			if err != nil {
				b.Fatal(err)
			}
			k := Key{SellerID: 1, Env: "test"}
			for range b.N {
				b.StopTimer()
				if err := s.Remember(ctx, k); err != nil {
					b.Fatal(err)
				}
				// One statement a chunk, each its own transaction: the
				// row triggers' cost grows with the rows of a transaction.
				for from := 0; from < records; from += chunk {
					if _, err := s.w.ExecContext(ctx, `INSERT INTO catalog_nomenclature
						(seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, seller_sku, name, brand, size,
						 price, sale_price, quantity, status, price_status, updated_at, seen_gen, search)
						SELECT $1, $2, 'WH' || i % 3, 'BC' || i, 'SKU' || i / 3, '', 'S' || i, 'Кроссовки ' || i, 'Бренд', '42',
						 1000 + i, 900 + i, i % 7 - 2, (ARRAY['online', 'offline', 'rejected', 'new', 'archived'])[i % 5 + 1], '', 0, 1,
						 'кроссовки ' || i
						FROM generate_series($3::bigint, $4::bigint) AS i`, k.SellerID, k.Env, from, from+chunk-1); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				if err := s.Forget(ctx, k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
