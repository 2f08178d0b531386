package sessions

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// ownedBackend is a backend with the database only it uses, as a test
// needs it: closing the backend closes the database (the database going
// away, for the Unavailable contract).
type ownedBackend struct {
	Backend
	db *sqldb.DB
}

func (b ownedBackend) Close() error {
	return errors.Join(b.Backend.Close(), b.db.Close())
}

// backendOn builds the session backend on db, owning it.
func backendOn(t testing.TB, db *sqldb.DB) Backend {
	t.Helper()
	b, err := NewBackend(context.Background(), db)
	if err != nil {
		t.Fatalf("NewBackend: %v", err)
	}
	return ownedBackend{Backend: b, db: db}
}

func testSQLiteBackend(t *testing.T) Backend {
	return backendOn(t, sqldbtest.SQLite(t))
}

func TestSQLiteContract(t *testing.T) {
	runStoreContract(t, testSQLiteBackend)
}

func TestSQLiteMigrationIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	ctx := context.Background()
	for range 3 {
		db, err := sqldb.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewBackend(ctx, db); err != nil {
			t.Fatalf("NewBackend (again): %v", err)
		}
		db.Close()
	}
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sqldb.MigrationsTable+` WHERE component = 'sessions'`).Scan(&n); err != nil || n != len(migrations.SQLite) {
		t.Fatalf("steps recorded = %d, %v; want %d", n, err, len(migrations.SQLite))
	}
}

// oldSessionsDDL is the session schema as the previous version created it,
// recorded in schema_version.
const oldSessionsDDL = `CREATE TABLE schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL);
	CREATE TABLE sessions (id TEXT PRIMARY KEY, payload BLOB NOT NULL, created_at INTEGER NOT NULL,
		last_seen INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
	CREATE INDEX sessions_expires_at ON sessions (expires_at);
	CREATE TABLE session_tokens (session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
		name TEXT NOT NULL, sealed BLOB NOT NULL, updated_at INTEGER NOT NULL,
		PRIMARY KEY (session_id, name)) WITHOUT ROWID;
	INSERT INTO schema_version VALUES ('sessions', 1);`

// TestSQLiteKeepsOldDatabase: a file written by the previous version (its
// own schema_version row) opens, keeps its sessions, and records its step
// in the one migrations table.
func TestSQLiteKeepsOldDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Writer().ExecContext(ctx, oldSessionsDDL); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := db.Writer().ExecContext(ctx, `INSERT INTO sessions VALUES ('old-id', x'00', ?, ?, ?)`,
		now.UnixMilli(), now.UnixMilli(), now.Add(time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := NewBackend(ctx, db)
	if err != nil {
		t.Fatalf("NewBackend on an old file: %v", err)
	}
	if rec, err := b.Load(ctx, "old-id"); err != nil || string(rec.Payload) != "\x00" {
		t.Fatalf("the old session: %q, %v", rec.Payload, err)
	}
	var n int
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sqldb.MigrationsTable+` WHERE component = 'sessions'`).Scan(&n); err != nil || n != len(migrations.SQLite) {
		t.Fatalf("steps recorded = %d, %v; want %d", n, err, len(migrations.SQLite))
	}
}

// TestSQLiteFileHoldsNoSecrets greps the database files themselves (main
// file and write-ahead log) for the canaries.
func TestSQLiteFileHoldsNoSecrets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions.db")
	db, err := sqldb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b := backendOn(t, db)
	e := newEnv(t, b, nil)
	s, _ := e.login()
	if err := e.store.SaveToken(context.Background(), s.ID(), "seller", StoredToken{AccessToken: canaryToken}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(path + "*")
	if len(files) == 0 {
		t.Fatal("no database files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, canary := range []string{canarySecret, canaryToken} {
			if bytes.Contains(data, []byte(canary)) {
				t.Fatalf("%s contains %q in clear", filepath.Base(f), canary)
			}
		}
	}
	b.Close()
}
