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

// fillPages gives db a table t of rows rows, each about 400 bytes, so the
// file spans a few hundred pages.
func fillPages(t *testing.T, db *sqldb.DB, rows int) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Writer().ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Writer().ExecContext(ctx, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?) INSERT INTO t (v) SELECT printf('%.400c', 'x') FROM n", rows); err != nil {
		t.Fatal(err)
	}
}

// openBackup opens the backup at path as the dashboard would open it,
// closed when the test ends.
func openBackup(t *testing.T, path string) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func pageCount(t *testing.T, db *sqldb.DB) int {
	t.Helper()
	var n int
	if err := db.Reader().QueryRowContext(context.Background(), "PRAGMA page_count").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBackupStepsKeepTheirSnapshot: a writer commits between every two
// steps of the copy; the copy is never restarted (it ends within the steps
// its pages need) and holds the rows of its start, none of the commits
// made meanwhile.
func TestBackupStepsKeepTheirSnapshot(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.SQLite(t)
	fillPages(t, db, 2000)
	const step = 8
	pages := pageCount(t, db)
	wantSteps := (pages + step - 1) / step
	steps, commits := 0, 0
	var commitErr error
	restore := sqldb.SetBackupPace(step, func() {
		steps++
		// Bounded so a copy that restarts at each commit still ends,
		// then holding the rows committed meanwhile.
		if commits < 4*wantSteps {
			if _, err := db.Writer().ExecContext(ctx, "INSERT INTO t (v) VALUES ('meanwhile')"); err != nil && commitErr == nil {
				commitErr = err
			}
			commits++
		}
	})
	defer restore()
	dst := filepath.Join(t.TempDir(), "backup.db")
	if err := db.BackupTo(ctx, dst); err != nil {
		t.Fatalf("BackupTo: %v", err)
	}
	if commitErr != nil {
		t.Fatalf("a commit between steps: %v", commitErr)
	}
	if commits == 0 {
		t.Fatal("the copy took one step: no writer committed between steps")
	}
	if steps > wantSteps {
		t.Errorf("%d steps for %d pages in steps of %d (at most %d): the copy restarted", steps, pages, step, wantSteps)
	}
	restored := openBackup(t, dst)
	var n, meanwhile int
	if err := restored.Reader().QueryRowContext(ctx, "SELECT count(*), count(*) FILTER (WHERE v = 'meanwhile') FROM t").Scan(&n, &meanwhile); err != nil {
		t.Fatal(err)
	}
	if n != 2000 || meanwhile != 0 {
		t.Errorf("the copy holds %d rows, %d committed during it; want the 2000 of its start", n, meanwhile)
	}
	if err := db.Reader().QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2000+commits {
		t.Errorf("the source holds %d rows (%v), want %d", n, err, 2000+commits)
	}
}

// TestBackupCancelledBetweenSteps: a context ended between two steps ends
// the copy with its error and leaves no file.
func TestBackupCancelledBetweenSteps(t *testing.T) {
	db := sqldbtest.SQLite(t)
	fillPages(t, db, 500)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steps := 0
	restore := sqldb.SetBackupPace(4, func() {
		if steps++; steps == 2 {
			cancel()
		}
	})
	defer restore()
	dst := filepath.Join(t.TempDir(), "backup.db")
	if err := db.BackupTo(ctx, dst); !errors.Is(err, context.Canceled) {
		t.Fatalf("BackupTo cancelled between steps: %v, want context.Canceled", err)
	}
	if steps != 2 {
		t.Errorf("%d steps after the cancel's, want 2", steps)
	}
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled backup left its file: %v", err)
	}
}

// TestBackupWritesNoJournal: the copy goes into a new file that a failed
// backup removes, so it keeps no rollback journal beside it while it is
// written (each page would be written twice); the copy still opens whole.
func TestBackupWritesNoJournal(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.SQLite(t)
	fillPages(t, db, 500)
	dst := filepath.Join(t.TempDir(), "backup.db")
	steps := 0
	var journals []string
	restore := sqldb.SetBackupPace(8, func() {
		steps++
		for _, side := range []string{"-journal", "-wal"} {
			if _, err := os.Stat(dst + side); err == nil {
				journals = append(journals, side)
			}
		}
	})
	defer restore()
	if err := db.BackupTo(ctx, dst); err != nil {
		t.Fatalf("BackupTo: %v", err)
	}
	if steps == 0 {
		t.Fatal("the copy took one step: nothing was looked at between steps")
	}
	if len(journals) > 0 {
		t.Errorf("a journal beside the copy between steps: %v", journals)
	}
	restored := openBackup(t, dst)
	var n int
	var check string
	if err := restored.Reader().QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 500 {
		t.Errorf("the copy holds %d rows (%v), want 500", n, err)
	}
	if err := restored.Reader().QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("the copy's integrity check: %q, %v", check, err)
	}
}
