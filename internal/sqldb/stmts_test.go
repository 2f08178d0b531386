package sqldb_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestReadsKeepStatements: on SQLite a read through Reads is prepared once
// and kept, answers as the pool would, and leaves nothing open that holds
// the file: a checkpoint after it truncates the whole write-ahead log. On
// PostgreSQL queries pass through (pgx keeps its own statements).
func TestReadsKeepStatements(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE kept (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if _, err := db.Writer().ExecContext(ctx, db.Rebind(`INSERT INTO kept (id, name) VALUES (?, ?)`), i, fmt.Sprint("n", i)); err != nil {
				t.Fatal(err)
			}
		}
		reads := db.Reads()
		q := db.Rebind(`SELECT name FROM kept WHERE id >= ? ORDER BY id`)
		for range 3 {
			rows, err := reads.QueryContext(ctx, q, 2)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			rows.Close()
			if strings.Join(got, ",") != "n2,n3,n4" {
				t.Fatalf("got %v", got)
			}
			var n int
			if err := reads.QueryRowContext(ctx, `SELECT COUNT(*) FROM kept`).Scan(&n); err != nil || n != 5 {
				t.Fatalf("count %d, %v", n, err)
			}
		}
		want := 2
		if db.Postgres() {
			want = 0
		}
		if got := reads.Len(); got != want {
			t.Fatalf("%d statements kept, want %d", got, want)
		}
		// A row read half-way and closed leaves the statement reset.
		rows, err := reads.QueryContext(ctx, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		rows.Next()
		rows.Close()
		if !db.Postgres() {
			if _, err := db.Writer().ExecContext(ctx, `INSERT INTO kept (id, name) VALUES (10, 'later')`); err != nil {
				t.Fatal(err)
			}
			var busy, logged, done int
			if err := db.Writer().QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &done); err != nil {
				t.Fatal(err)
			}
			if busy != 0 {
				t.Fatalf("checkpoint blocked by a kept statement: busy=%d log=%d done=%d", busy, logged, done)
			}
		}
	})
}

// TestReadsBadQuery: a query that cannot be prepared answers with the
// database's error, as it would unprepared, and is not kept.
func TestReadsBadQuery(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		before := db.Reads().Len()
		_, err := db.Reads().QueryContext(ctx, `SELECT nope FROM missing_table`)
		if err == nil || !strings.Contains(err.Error(), "missing_table") {
			t.Fatalf("err = %v, want the database's error naming the table", err)
		}
		var n int
		if err := db.Reads().QueryRowContext(ctx, `SELEC 1`).Scan(&n); err == nil {
			t.Fatal("a syntax error scanned")
		}
		if got := db.Reads().Len(); got != before {
			t.Fatalf("%d statements kept after bad queries, want %d", got, before)
		}
	})
}

// TestReadsBounded: past the bound new shapes run unprepared, answered
// all the same, and the kept statements stay at the bound.
func TestReadsBounded(t *testing.T) {
	db := sqldbtest.SQLite(t)
	ctx := context.Background()
	limit := sqldb.MaxStmts
	for i := range limit + 20 {
		var n int
		if err := db.Reads().QueryRowContext(ctx, fmt.Sprintf(`SELECT %d`, i)).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d, %v", i, n, err)
		}
	}
	if got := db.Reads().Len(); got != limit {
		t.Fatalf("%d statements kept, want the bound %d", got, limit)
	}
}

// TestReadsAfterClose: once the database is closed the kept statements
// are closed too, and a read reports the closed pool, not a panic.
func TestReadsAfterClose(t *testing.T) {
	db := sqldbtest.SQLite(t)
	ctx := context.Background()
	var n int
	if err := db.Reads().QueryRowContext(ctx, `SELECT 1`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db.Reads().Len() != 0 {
		t.Fatalf("%d statements kept after close", db.Reads().Len())
	}
	if err := db.Reads().QueryRowContext(ctx, `SELECT 1`).Scan(&n); err == nil {
		t.Fatal("a read after close answered")
	}
}
