package sessions

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func newSQLiteBackend(t *testing.T) Backend {
	t.Helper()
	b, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatalf("OpenSQLite: %v", err)
	}
	return b
}

func TestSQLiteContract(t *testing.T) {
	runStoreContract(t, newSQLiteBackend)
}

func TestSQLiteMigrationIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	ctx := context.Background()
	for range 3 {
		b, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatalf("OpenSQLite (again): %v", err)
		}
		b.Close()
	}
	b, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v int
	if err := b.(*sqliteBackend).r.QueryRowContext(ctx, `SELECT version FROM schema_version WHERE component = 'sessions'`).Scan(&v); err != nil || v != len(sqliteMigrations) {
		t.Fatalf("schema version = %d, %v; want %d", v, err, len(sqliteMigrations))
	}
	var mode string
	if err := b.(*sqliteBackend).r.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
}

func TestSQLiteRefusesNonPaths(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file:x.db", "x.db?mode=memory"} {
		if b, err := OpenSQLite(context.Background(), p); err == nil {
			b.Close()
			t.Errorf("OpenSQLite(%q) succeeded", p)
		}
	}
}

// TestSQLiteFileHoldsNoSecrets greps the database files themselves (main
// file and write-ahead log) for the canaries.
func TestSQLiteFileHoldsNoSecrets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions.db")
	b, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
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
