package sqldb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// BenchmarkBackup compares BackupTo (the online backup: pages copied as
// they are) with VACUUM INTO (every table and index rebuilt) on one file
// of 50,000 indexed rows, side by side:
//
//	go test -run '^$' -bench 'Backup$' -count 6 ./internal/sqldb/ | go tool benchstat -col /way -
//
// cpu-ms/op is the process's CPU a backup (user and system).
func BenchmarkBackup(b *testing.B) {
	ctx := context.Background()
	db := sqldbtest.SQLite(b)
	w := db.Writer()
	if _, err := w.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, sku TEXT, name TEXT, price INTEGER); CREATE INDEX t_sku ON t (sku); CREATE INDEX t_price ON t (price, id)"); err != nil {
		b.Fatal(err)
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 50_000 {
		if _, err := tx.ExecContext(ctx, "INSERT INTO t (sku, name, price) VALUES (?, ?, ?)",
			"SKU-"+strconv.Itoa(i*7919%50_000), fmt.Sprintf("product %d, a name of some length as a catalogue has", i), i*37%10_000); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	n := 0
	next := func() string { n++; return filepath.Join(dir, strconv.Itoa(n)+".db") }
	b.Run("way=pages", func(b *testing.B) {
		c0 := processCPU(b)
		for b.Loop() {
			if err := db.BackupTo(ctx, next()); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
	})
	b.Run("way=vacuum", func(b *testing.B) {
		c0 := processCPU(b)
		for b.Loop() {
			if _, err := w.ExecContext(ctx, "VACUUM INTO ?", next()); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
	})
}

// processCPU is the process's CPU so far, user and system (getrusage):
// a backup's cost holds on a loaded machine where its time does not.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process's CPU since c0 a backup, in milliseconds.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(processCPU(b)-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkBackupPages measures what a backup costs the pages served
// meanwhile: 8 clients query the read pool in a closed loop for a round of
// 3 s, and in each way but "none" one backup starts a tenth into the
// round; a backup outlasting the round extends it, loaded, to its end. The ways run interleaved (one round each per -count), so a loaded
// machine slows them alike; compare p99-ms side by side:
//
//	go test -run '^$' -bench BackupPages -benchtime 1x -count 6 ./internal/sqldb/ | go tool benchstat -col /way -
//
// "onestep" is the copy in one step; "steps" is BackupTo's pacing.
func BenchmarkBackupPages(b *testing.B) {
	ctx := context.Background()
	db := sqldbtest.SQLite(b)
	w := db.Writer()
	if _, err := w.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, sku TEXT, name TEXT, price INTEGER);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 150000)
		INSERT INTO t (sku, name, price) SELECT printf('SKU-%06d', i*7919%150000), printf('product %d, %.120c', i, 'n'), i*37%10000 FROM n;
		CREATE INDEX t_sku ON t (sku); CREATE INDEX t_price ON t (price, id)`); err != nil {
		b.Fatal(err)
	}
	var pages int
	if err := db.Reader().QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	n := 0
	ways := []struct {
		name string
		pace func() (restore func())
	}{
		{"none", nil},
		{"onestep", func() func() { return sqldb.SetBackupPace(-1, nil) }},
		{"steps", func() func() { return func() {} }},
	}
	for _, way := range ways {
		b.Run("way="+way.name, func(b *testing.B) {
			for b.Loop() {
				lat, backup, round, err := pagesDuringBackup(ctx, db, way.pace, filepath.Join(dir, strconv.Itoa(n)+".db"))
				n++
				if err != nil {
					b.Fatal(err)
				}
				slices.Sort(lat)
				q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond) }
				b.ReportMetric(q(0.99), "p99-ms")
				b.ReportMetric(q(0.50), "p50-ms")
				b.ReportMetric(float64(len(lat))/round.Seconds(), "queries/s")
				b.ReportMetric(float64(backup)/float64(time.Millisecond), "backup-ms")
				b.ReportMetric(float64(pages), "pages")
			}
		})
	}
}

// pagesDuringBackup runs one round: the clients' latencies, how long the
// backup took (none when pace is nil) and the round.
func pagesDuringBackup(ctx context.Context, db *sqldb.DB, pace func() func(), path string) ([]time.Duration, time.Duration, time.Duration, error) {
	const round, clients = 3 * time.Second, 8
	start := time.Now()
	end := start.Add(round)
	var backingUp atomic.Bool
	backingUp.Store(pace != nil)
	lats := make([][]time.Duration, clients)
	errs := make(chan error, clients+1)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; time.Now().Before(end) || backingUp.Load(); i += clients {
				lo := fmt.Sprintf("SKU-%06d", i*1237%149000)
				hi := fmt.Sprintf("SKU-%06d", i*1237%149000+300)
				var cnt, sum int
				t0 := time.Now()
				if err := db.Reader().QueryRowContext(ctx, "SELECT count(*), coalesce(sum(price), 0) FROM t WHERE sku BETWEEN ? AND ? AND name LIKE '%5%'", lo, hi).Scan(&cnt, &sum); err != nil {
					errs <- err
					return
				}
				lats[c] = append(lats[c], time.Since(t0))
			}
		})
	}
	var took time.Duration
	if pace != nil {
		wg.Go(func() {
			time.Sleep(round / 10)
			restore := pace()
			defer restore()
			t0 := time.Now()
			err := db.BackupTo(ctx, path)
			took = time.Since(t0)
			backingUp.Store(false)
			_ = os.Remove(path)
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return nil, 0, 0, err
	}
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	return all, took, elapsed, nil
}
