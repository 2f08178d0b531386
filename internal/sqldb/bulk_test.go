package sqldb_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestBulkPoolApart: bulk reads have connections of their own, at most
// BulkReaders; with all of them taken, every connection of the read pool
// is still free, and a read-only SQLite bulk connection cannot write.
func TestBulkPoolApart(t *testing.T) {
	ctx := context.Background()
	open := map[string]func(t *testing.T) *sqldb.DB{
		"sqlite": func(t *testing.T) *sqldb.DB {
			db, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		"postgres": func(t *testing.T) *sqldb.DB { return sqldbtest.Postgres(t) },
	}
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			db := open[name](t)
			if got := db.Bulk().Stats().MaxOpenConnections; got != sqldb.BulkReaders {
				t.Fatalf("bulk pool of %d connections, want %d", got, sqldb.BulkReaders)
			}
			var held []*sql.Conn
			for range sqldb.BulkReaders {
				c, err := db.Bulk().Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, c)
			}
			if n := db.Reader().Stats().InUse; n != 0 {
				t.Errorf("bulk connections held: %d of the read pool in use", n)
			}
			if !db.Postgres() {
				if _, err := held[0].ExecContext(ctx, `CREATE TABLE t (v INTEGER)`); err == nil {
					t.Error("a bulk connection wrote")
				}
			}
			var one int
			if err := db.Reader().QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil || one != 1 {
				t.Errorf("a read with the bulk pool taken: %d, %v", one, err)
			}
			for _, c := range held {
				c.Close()
			}
		})
	}
}
