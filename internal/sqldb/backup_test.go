package sqldb_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestBackupToCopiesSQLite: the backup is a private file that opens as a
// database holding the same rows, taken while a write transaction is open
// on the source (it does not wait for it, and it does not see it); an
// existing destination is refused and left alone.
func TestBackupToCopiesSQLite(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.SQLite(t)
	if _, err := db.Writer().ExecContext(ctx, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Writer().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ('uncommitted')"); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "backup.db")
	if err := db.BackupTo(ctx, dst); err != nil {
		t.Fatalf("BackupTo during a write: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("backup mode %v, want 0600", perm)
	}
	restored := openBackup(t, dst)
	var n int
	var v string
	if err := restored.Reader().QueryRowContext(ctx, "SELECT count(*), max(v) FROM t").Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	if n != 1 || v != "kept" {
		t.Errorf("restored rows: %d, %q; want the one committed row", n, v)
	}
	if err := db.BackupTo(ctx, dst); err == nil {
		t.Error("a second backup over an existing file succeeded")
	}
	if err := restored.Reader().QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 1 {
		t.Errorf("the existing backup was touched: %d, %v", n, err)
	}
}

// TestPing: an open database answers; a closed one is unavailable.
func TestPing(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		if err := db.Ping(ctx); err != nil {
			t.Fatalf("Ping on an open database: %v", err)
		}
		if db.Postgres() {
			if err := db.BackupTo(ctx, filepath.Join(t.TempDir(), "b.db")); !errors.Is(err, sqldb.ErrBackupPostgres) {
				t.Errorf("BackupTo on PostgreSQL: %v, want ErrBackupPostgres", err)
			}
		}
		db.Close()
		if err := db.Ping(ctx); !errors.Is(err, sqldb.ErrUnavailable) {
			t.Errorf("Ping on a closed database: %v, want ErrUnavailable", err)
		}
	})
}
