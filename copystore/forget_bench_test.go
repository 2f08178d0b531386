package copystore

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// BenchmarkForgetPostgres: forgetting a copy of 100,000 records on
// PostgreSQL (SELLERDESK_TEST_POSTGRES_URL; skipped without it), side by
// side: the forget as one transaction deleting every row
// (one_transaction), and MarkForgotten then Purge (chunked). forget_s is
// the user's wait, purge_s until the rows are deleted. Run it once
// (-benchtime=1x).
func BenchmarkForgetPostgres(b *testing.B) {
	const records, chunk = 100_000, 5_000
	ctx := context.Background()
	db, err := sqldb.Open(ctx, sqldbtest.PostgresURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s, err := New(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	for _, oneTx := range []bool{true, false} {
		name := "chunked"
		if oneTx {
			name = "one_transaction"
		}
		b.Run(name, func(b *testing.B) {
			k := testKeyB()
			for range b.N {
				b.StopTimer()
				if err := s.Remember(ctx, k); err != nil {
					b.Fatal(err)
				}
				// One statement a chunk, each its own transaction.
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
				t0 := time.Now()
				var forget time.Duration
				if oneTx {
					if err := forgetOneTransaction(ctx, s, k); err != nil {
						b.Fatal(err)
					}
					forget = time.Since(t0)
				} else {
					if err := s.MarkForgotten(ctx, k); err != nil {
						b.Fatal(err)
					}
					forget = time.Since(t0)
					if err := s.Purge(ctx, k); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(forget.Seconds(), "forget_s")
				b.ReportMetric(time.Since(t0).Seconds(), "purge_s")
			}
		})
	}
}

// testKeyB is testKey for a benchmark: an environment of its own.
func testKeyB() Key {
	b := []byte("bench")
	for range 8 {
		b = append(b, byte('a'+rand.IntN(26)))
	}
	return Key{SellerID: 1, Env: string(b)}
}

// forgetOneTransaction is the forget as one transaction deleting every
// row of k, beside which Purge is measured.
func forgetOneTransaction(ctx context.Context, s *Store, k Key) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_copies SET forgotten = 1, epoch = epoch + 1 WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env); err != nil {
			return err
		}
		return s.deleteRows(ctx, tx, k, "catalog_nomenclature", "catalog_orders", "catalog_boxes", "catalog_sync", "catalog_counts",
			"catalog_promotion_cards", "catalog_promotions", "catalog_price_points")
	})
}

// BenchmarkForgetSQLite: forgetting a copy of SELLERDESK_BENCH_FORGET
// records (default 100,000) on SQLite beside a colleague's copy of
// 10,000, side by side in one run, once each (-benchtime=1x):
//   - one_transaction: the full-text index and triggers before step 17
//     (an external content FTS5 table, deleted through its 'delete') and
//     the forget as one transaction deleting every row;
//   - chunked: today's schema, MarkForgotten then Purge.
//
// Reported: forget_s, the user's wait (until nothing of the copy is
// readable); purge_s, until its rows are deleted; and the colleague's
// page sorted by price (the readers) and accepted stock change (the writer)
// during the forget, p99 in ms, beside the same before it (quiet_*).
func BenchmarkForgetSQLite(b *testing.B) {
	records := 100_000
	if v, err := strconv.Atoi(os.Getenv("SELLERDESK_BENCH_FORGET")); err == nil && v > 0 {
		records = v
	}
	const colleague = 10_000
	for _, c := range []struct {
		name  string
		steps int
	}{{"one_transaction", 16}, {"chunked", len(migrations.SQLite)}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			db := openDBB(b, filepath.Join(b.TempDir(), "c.db"))
			s, err := newStore(ctx, db, sqldb.Steps{SQLite: migrations.SQLite[:c.steps], Postgres: migrations.Postgres[:c.steps]})
			if err != nil {
				b.Fatal(err)
			}
			if c.steps < len(migrations.SQLite) {
				// Today's reads read the flag; the old path never sets it.
				if _, err := s.w.ExecContext(ctx, migrationPurgeColumn); err != nil {
					b.Fatal(err)
				}
			}
			k, other := Key{SellerID: 1, Env: "test"}, Key{SellerID: 2, Env: "test"}
			for range b.N {
				b.StopTimer()
				for _, f := range []struct {
					k Key
					n int
				}{{k, records}, {other, colleague}} {
					if err := s.Remember(ctx, f.k); err != nil {
						b.Fatal(err)
					}
					if err := fillSQLite(ctx, s, f.k, f.n); err != nil {
						b.Fatal(err)
					}
				}
				quiet := colleagueLoad(ctx, s, other, func() error { time.Sleep(3 * time.Second); return nil })
				b.StartTimer()
				var forget, purge time.Duration
				busy := colleagueLoad(ctx, s, other, func() error {
					t0 := time.Now()
					if c.steps < len(migrations.SQLite) {
						err := forgetOneTransaction(ctx, s, k)
						forget = time.Since(t0)
						purge = forget
						return err
					}
					if err := s.MarkForgotten(ctx, k); err != nil {
						return err
					}
					forget = time.Since(t0)
					err := s.Purge(ctx, k)
					purge = time.Since(t0)
					return err
				})
				if busy.err != nil || quiet.err != nil {
					b.Fatal(busy.err, quiet.err)
				}
				if rows := rowCountsB(b, s, k); rows != 0 {
					b.Fatalf("%d rows left", rows)
				}
				b.ReportMetric(forget.Seconds(), "forget_s")
				b.ReportMetric(purge.Seconds(), "purge_s")
				b.ReportMetric(float64(records)/purge.Seconds(), "records/s")
				b.ReportMetric(ms(p99(busy.reads)), "read_p99_ms")
				b.ReportMetric(ms(p99(busy.writes)), "write_p99_ms")
				b.ReportMetric(ms(p99(quiet.reads)), "quiet_read_p99_ms")
				b.ReportMetric(ms(p99(quiet.writes)), "quiet_write_p99_ms")
			}
		})
	}
}

// fillSQLite stores n records of k straight into the tables (with one
// observed price each, as a first pass leaves them), their search text
// like the sandbox's.
func fillSQLite(ctx context.Context, s *Store, k Key, n int) error {
	for from := 0; from < n; from += 10_000 {
		to := min(from+10_000, n) - 1
		if _, err := s.w.ExecContext(ctx, `WITH RECURSIVE g(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM g WHERE i < ?)
			INSERT INTO catalog_nomenclature (seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, seller_sku, name, brand, size,
			 price, sale_price, quantity, status, price_status, updated_at, seen_gen, search)
			SELECT ?, ?, 'WH' || (i % 3), '46' || i, 'ART-' || (i / 3), 'ART-' || (i / 30), 'S-' || i, 'Кроссовки беговые модель ' || i, 'Бренд', '42',
			 100000 + i, 90000 + i, i % 40, CASE WHEN i % 5 = 4 THEN 'disabled' ELSE 'online' END, '', 0, 1,
			 'art-' || (i / 3) || ' s-' || i || ' 46' || i || ' кроссовки беговые модель ' || i || ' бренд' FROM g`, from, to, k.SellerID, k.Env); err != nil {
			return err
		}
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO catalog_price_points (seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, observed_at)
		SELECT seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, 0 FROM catalog_nomenclature WHERE seller_id = ? AND env = ?`, k.SellerID, k.Env)
	return err
}

func rowCountsB(b *testing.B, s *Store, k Key) (n int) {
	for _, t := range purgeTables {
		var m int
		if err := s.r.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM `+t+` WHERE seller_id = ? AND env = ?`, k.SellerID, k.Env).Scan(&m); err != nil {
			b.Fatal(err)
		}
		n += m
	}
	return n
}

// loadSeen is what a colleague saw while fn ran: the time of each search
// page read and of each accepted stock change written.
type loadSeen struct {
	reads, writes []time.Duration
	err           error
}

// colleagueLoad runs fn while one client reads a page of k sorted by
// price again and again (a search would match the forgotten copy's
// records too: the full-text index is shared) and another accepts a stock change of k every 20 ms.
func colleagueLoad(ctx context.Context, s *Store, k Key, fn func() error) loadSeen {
	var seen loadSeen
	done := make(chan struct{})
	var wg sync.WaitGroup
	var readErr, writeErr error
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			t0 := time.Now()
			if _, err := s.NomenclaturePage(ctx, k, Query{Sort: "-price", Limit: 50}, func(*Record) error { return nil }); err != nil {
				readErr = err
				return
			}
			seen.reads = append(seen.reads, time.Since(t0))
		}
	})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			q := i % 40
			t0 := time.Now()
			if err := s.Accept(ctx, k, []Change{{Warehouse: "WH" + strconv.Itoa(i%3), Barcode: "46" + strconv.Itoa(i%3), Quantity: &q}}); err != nil {
				writeErr = err
				return
			}
			seen.writes = append(seen.writes, time.Since(t0))
		}
	})
	seen.err = fn()
	close(done)
	wg.Wait()
	seen.err = errors.Join(seen.err, readErr, writeErr)
	return seen
}

func p99(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[min(len(ds)-1, len(ds)*99/100)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
