// Package sqldbtest opens throwaway databases for the tests of the stores
// built on sqldb: a SQLite file in the test's temporary directory, and,
// when SELLERDESK_TEST_POSTGRES_URL is set, a PostgreSQL schema of its own
// (so that tests of several packages, run at once on one server, never see
// each other's tables), dropped when the test ends.
package sqldbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// PostgresEnv names the variable that points the tests at a PostgreSQL
// server (sessions/testdata/start-postgres.sh starts a throwaway one).
const PostgresEnv = "SELLERDESK_TEST_POSTGRES_URL"

// SQLite opens a new SQLite database file in t's temporary directory and
// closes it when t ends.
func SQLite(t testing.TB) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatalf("sqldb.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// PostgresURL returns a URL of the test server whose search_path is a new,
// empty schema, dropped when t ends. Every DB opened on it shares the
// schema, as instances sharing a database do. It skips t when
// SELLERDESK_TEST_POSTGRES_URL is not set.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skip(PostgresEnv + " is not set (sessions/testdata/start-postgres.sh starts a server)")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %s", PostgresEnv, sqldb.Redact(err.Error()))
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %s", schema, sqldb.Redact(err.Error()))
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", PostgresEnv)
	}
	q := u.Query()
	q.Set("search_path", schema)
	// The suites connect a few hundred times at once beside other packages
	// on two busy cores, where a connection's password exchange may take
	// longer than the dashboard's 2 s: a test fails on what it tests, not
	// on a loaded machine's slow connect.
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", "30")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Postgres opens a DB on a new schema of the test server (see PostgresURL)
// and closes it when t ends.
func Postgres(t testing.TB) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(context.Background(), PostgresURL(t))
	if err != nil {
		t.Fatalf("sqldb.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Each runs f as a subtest on a new SQLite database and, when the test
// server is configured, on a new PostgreSQL schema.
func Each(t *testing.T, f func(t *testing.T, db *sqldb.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { f(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, Postgres(t)) })
}
