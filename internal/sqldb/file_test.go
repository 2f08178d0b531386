package sqldb_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// TestDatabaseFilesPrivate: the database and its -wal and -shm files are
// created 0600 whatever the umask, with both stores' tables in them, and an
// existing file readable by others is tightened.
func TestDatabaseFilesPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "sellerdesk.db")
	db, err := sqldb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := sessions.NewBackend(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := bulkjobs.NewStore(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if perm := st.Mode().Perm(); perm != sqldb.PrivateMode {
			t.Errorf("%s: mode %o, want %o", filepath.Base(p), perm, sqldb.PrivateMode)
		}
	}

	loose := filepath.Join(dir, "old.db")
	if err := os.WriteFile(loose, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sqldb.PrepareSQLiteFile(loose); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(loose); st.Mode().Perm() != sqldb.PrivateMode {
		t.Errorf("an existing 0644 file stays %o", st.Mode().Perm())
	}
}
