package sqldb_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// BenchmarkBackup compares BackupTo (the online backup: pages copied as
// they are) with VACUUM INTO (every table and index rebuilt) on one file
// of 50,000 indexed rows, side by side:
//
//	go test -run '^$' -bench Backup -count 6 ./internal/sqldb/ | go tool benchstat -col /way -
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
		for b.Loop() {
			if err := db.BackupTo(ctx, next()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("way=vacuum", func(b *testing.B) {
		for b.Loop() {
			if _, err := w.ExecContext(ctx, "VACUUM INTO ?", next()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
