package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

func TestIsPostgresURL(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://u@h/db":   true,
		"postgresql://u@h/db": true,
		"POSTGRES://u@h/db":   true,
		"/var/lib/s.db":       false,
		"sqlite:///tmp/s.db":  false,
		"postgres.db":         false,
		"":                    false,
	} {
		if got := sqldb.IsPostgresURL(in); got != want {
			t.Errorf("IsPostgresURL(%q) = %v", in, got)
		}
	}
}

// TestOpenSQLite: a file path opens SQLite in WAL mode with a read pool
// that cannot write, a writer whose transactions take the write lock at
// BEGIN, and a private file; sqlite: URLs name the same file.
func TestOpenSQLite(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Postgres() || db.Pool() != nil {
		t.Error("a file path opened PostgreSQL")
	}
	var mode string
	if err := db.Reader().QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := db.Writer().QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v", fk, err)
	}
	if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE t (v INTEGER)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Reader().ExecContext(ctx, `INSERT INTO t VALUES (1)`); err == nil {
		t.Error("the read pool wrote")
	}
	if got := db.Writer().Stats().MaxOpenConnections; got != 1 {
		t.Errorf("writer pool of %d, want 1", got)
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
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	for _, u := range []string{"sqlite://" + path, "sqlite:" + path} {
		db, err := sqldb.Open(ctx, u)
		if err != nil {
			t.Fatalf("Open(%q): %v", u, err)
		}
		var n int
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil {
			t.Errorf("Open(%q) is not the same file: %v", u, err)
		}
		db.Close()
	}
}

// TestSQLiteWriterImmediate: a write transaction holds SQLite's write lock
// from BEGIN, so a second writer on the same file (another DB: what two
// pools on one file did) cannot slip in between its read and its write.
func TestSQLiteWriterImmediate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	a, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tx, err := a.Writer().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	b, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// busy_timeout is 5 s; the context ends the wait sooner.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := b.Writer().ExecContext(short, `CREATE TABLE u (v INTEGER)`); err == nil {
		t.Error("a second writer wrote while the first held an (empty) IMMEDIATE transaction")
	}
}

func TestSQLitePath(t *testing.T) {
	for in, want := range map[string]string{
		"s.db":               "s.db",
		"/var/lib/sd/s.db":   "/var/lib/sd/s.db",
		"sqlite:s.db":        "s.db",
		"sqlite:///tmp/s.db": "/tmp/s.db",
		"sqlite://s.db":      "s.db",
	} {
		if got, err := sqldb.SQLitePath(in); err != nil || got != want {
			t.Errorf("SQLitePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestOpenRejects(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, p := range []string{"", ":memory:", "file:x.db", "sqlite:", filepath.Join(dir, "a.db?mode=ro"), filepath.Join(dir, "a#b.db")} {
		if db, err := sqldb.Open(ctx, p); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

// TestOpenPostgresErrors: an unreachable server is ErrUnavailable at Open
// (not at the first request), and no error quotes the password.
func TestOpenPostgresErrors(t *testing.T) {
	ctx := context.Background()
	_, err := sqldb.Open(ctx, "postgres://user:hunter2secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=2")
	if !errors.Is(err, sqldb.ErrUnavailable) {
		t.Errorf("closed port: %v, want ErrUnavailable", err)
	}
	if err != nil && strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error quotes the password: %v", err)
	}
	_, err = sqldb.Open(ctx, "postgres://user:hunter2secret@127.0.0.1:notaport/db")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("bad URL: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for _, in := range []string{
		"dial postgres://u:hunter2@h/db failed",
		"host=h password=hunter2 user=u",
		"host=h password='hunter2 x' user=u",
		"postgres://u@h/db?password=hunter2&sslmode=disable",
	} {
		if got := sqldb.Redact(in); strings.Contains(got, "hunter2") {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
}

func TestRebind(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		in := `SELECT a FROM t WHERE a = ? AND b IN (?, ?) AND c = '?' AND "d?" = ?`
		want := in
		if db.Postgres() {
			want = `SELECT a FROM t WHERE a = $1 AND b IN ($2, $3) AND c = '?' AND "d?" = $4`
		}
		if got := db.Rebind(in); got != want {
			t.Errorf("Rebind:\n got %s\nwant %s", got, want)
		}
		if got := db.Rebind(`SELECT 'it''s ?', ?`); db.Postgres() && got != `SELECT 'it''s ?', $1` {
			t.Errorf("Rebind with a doubled quote: %s", got)
		}
		numbered := `SELECT a FROM t WHERE a = ?12 AND b IN (?1, ?, ?3) AND c = '?2' AND d = ?`
		want = numbered
		if db.Postgres() {
			want = `SELECT a FROM t WHERE a = $12 AND b IN ($1, $13, $3) AND c = '?2' AND d = $14`
		}
		if got := db.Rebind(numbered); got != want {
			t.Errorf("Rebind of numbered placeholders:\n got %s\nwant %s", got, want)
		}
		// Numbered placeholders are bound by their number, once or more.
		// and an unnumbered one after them takes the next number.
		var sum, again, next int
		if err := db.Reader().QueryRowContext(context.Background(), db.Rebind(`SELECT CAST(?2 AS INTEGER) * 10 + CAST(?1 AS INTEGER), CAST(?2 AS INTEGER), CAST(? AS INTEGER)`), 3, 4, 5).Scan(&sum, &again, &next); err != nil || sum != 43 || again != 4 || next != 5 {
			t.Errorf("SELECT ?2 * 10 + ?1, ?2, ? = %d, %d, %d, %v", sum, again, next, err)
		}
		// Rebound queries run.
		var n int
		if err := db.Reader().QueryRowContext(context.Background(), db.Rebind(`SELECT CAST(? AS INTEGER) + CAST(? AS INTEGER)`), 2, 3).Scan(&n); err != nil || n != 5 {
			t.Errorf("SELECT ? + ? = %d, %v", n, err)
		}
	})
}

// TestPostgresViews: Writer and Reader are database/sql views of the one
// pool, in the schema the URL selects.
func TestPostgresViews(t *testing.T) {
	db := sqldbtest.Postgres(t)
	ctx := context.Background()
	if !db.Postgres() || db.Pool() == nil {
		t.Fatal("a postgres URL opened something else")
	}
	if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE t (v integer)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Writer().ExecContext(ctx, `INSERT INTO t VALUES ($1)`, 7); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.Pool().QueryRow(ctx, `SELECT v FROM t`).Scan(&v); err != nil || v != 7 {
		t.Errorf("the pool sees %d, %v", v, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestPostgresViewKeepsConnections: the database/sql view keeps the
// connections a burst of concurrent reads took (up to half the pool), so
// the next burst takes none from the pool again.
func TestPostgresViewKeepsConnections(t *testing.T) {
	db := sqldbtest.Postgres(t)
	ctx := context.Background()
	// burst holds six transactions open at once (each waits for all six
	// to have begun), then ends them.
	burst := func() {
		var begun, wg sync.WaitGroup
		begun.Add(6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tx, err := db.Reader().BeginTx(ctx, nil)
				begun.Done()
				if err != nil {
					t.Error(err)
					return
				}
				begun.Wait()
				if err := tx.Commit(); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	burst()
	if idle := db.Reader().Stats().Idle; idle < 6 {
		t.Fatalf("%d connections kept after a burst of 6", idle)
	}
	before := db.Pool().Stat().AcquireCount()
	burst()
	if got := db.Pool().Stat().AcquireCount() - before; got != 0 {
		t.Fatalf("the second burst took %d connections from the pool again", got)
	}
}

// TestConcurrentWrites: many goroutines writing through one DB, in
// transactions and single statements, never see SQLITE_BUSY and lose
// nothing.
func TestConcurrentWrites(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE t (g INTEGER, i INTEGER, PRIMARY KEY (g, i))`); err != nil {
			t.Fatal(err)
		}
		const goroutines, each = 16, 40
		var wg sync.WaitGroup
		errs := make(chan error, goroutines*each)
		for g := range goroutines {
			wg.Go(func() {
				for i := range each {
					if i%2 == 0 {
						_, err := db.Writer().ExecContext(ctx, db.Rebind(`INSERT INTO t VALUES (?, ?)`), g, i)
						errs <- err
						continue
					}
					tx, err := db.Writer().BeginTx(ctx, nil)
					if err != nil {
						errs <- err
						continue
					}
					var n int
					if err := tx.QueryRowContext(ctx, db.Rebind(`SELECT COUNT(*) FROM t WHERE g = ?`), g).Scan(&n); err != nil {
						tx.Rollback()
						errs <- err
						continue
					}
					if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO t VALUES (?, ?)`), g, i); err != nil {
						tx.Rollback()
						errs <- err
						continue
					}
					errs <- tx.Commit()
					// Readers read alongside.
					if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil || n != goroutines*each {
			t.Errorf("%d rows, %v; want %d", n, err, goroutines*each)
		}
	})
}

func TestLock(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		unlock, err := db.Lock(ctx, "seller:1")
		if err != nil {
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if u, err := db.Lock(short, "seller:1"); err == nil {
			u()
			t.Fatal("a held lock was taken twice")
		} else if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("wait ended by ctx: %v, want DeadlineExceeded", err)
		}
		other, err := db.Lock(ctx, "seller:2")
		if err != nil {
			t.Fatalf("another key waits: %v", err)
		}
		other()

		got := make(chan func(), 1)
		go func() {
			u, err := db.Lock(ctx, "seller:1")
			if err != nil {
				t.Error(err)
				u = func() {}
			}
			got <- u
		}()
		select {
		case <-got:
			t.Fatal("the waiter took a held lock")
		case <-time.After(50 * time.Millisecond):
		}
		unlock()
		unlock() // idempotent
		select {
		case u := <-got:
			u()
		case <-time.After(30 * time.Second):
			t.Fatal("the waiter never got the released lock")
		}
	})
}

// TestLockAcrossInstances: two DBs on one PostgreSQL database (two
// dashboard instances) exclude each other.
func TestLockAcrossInstances(t *testing.T) {
	u := sqldbtest.PostgresURL(t)
	ctx := context.Background()
	a, err := sqldb.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := sqldb.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	key := fmt.Sprintf("across-%d", time.Now().UnixNano()) // advisory locks are per database, not per schema
	unlock, err := a.Lock(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if u, err := b.Lock(short, key); err == nil {
		u()
		t.Fatal("instance b took a's lock")
	}
	unlock()
	ub, err := b.Lock(ctx, key)
	if err != nil {
		t.Fatalf("b after a released: %v", err)
	}
	ub()
	ua, err := a.Lock(ctx, key)
	if err != nil {
		t.Fatalf("a after b released: %v", err)
	}
	ua()
}

// TestLocksApartPerSchema: two deployments in two schemas of one database
// (advisory locks are per database) do not hold each other's keys; two
// instances of one schema still do.
func TestLocksApartPerSchema(t *testing.T) {
	ctx := context.Background()
	open := func(u string) *sqldb.DB {
		db, err := sqldb.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	u := sqldbtest.PostgresURL(t)
	a, a2, b := open(u), open(u), open(sqldbtest.PostgresURL(t))
	const key = "copy-export\x001001/test"
	ua, ok, err := a.TryLock(ctx, key)
	if err != nil || !ok {
		t.Fatalf("a: ok %v, %v", ok, err)
	}
	defer ua()
	if u, ok, _ := a2.TryLock(ctx, key); ok {
		u()
		t.Error("a second instance of a's schema took a's place")
	}
	ub, ok, err := b.TryLock(ctx, key)
	if err != nil || !ok {
		t.Fatalf("another schema's instance refused a place a holds in its own schema: ok %v, %v", ok, err)
	}
	ub()
}

// TestLockSlotsLeaveQueries: locks held on every key a pool could hold
// still leave connections for queries (half the pool at most).
func TestLockSlotsLeaveQueries(t *testing.T) {
	u := sqldbtest.PostgresURL(t) + "&pool_max_conns=4"
	ctx := context.Background()
	db, err := sqldb.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	base := fmt.Sprintf("slots-%d-", time.Now().UnixNano())
	var unlocks []func()
	for i := range 2 {
		u, err := db.Lock(ctx, base+fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		unlocks = append(unlocks, u)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if u, err := db.Lock(short, base+"2"); err == nil {
		u()
		t.Error("a third lock took a connection beyond half the pool")
	}
	qctx, qcancel := context.WithTimeout(ctx, 10*time.Second)
	defer qcancel()
	var one int
	if err := db.Reader().QueryRowContext(qctx, `SELECT 1`).Scan(&one); err != nil {
		t.Errorf("a query with locks held: %v", err)
	}
	for _, u := range unlocks {
		u()
	}
}

// TestUnavailable: a store's failure is ErrUnavailable, keeps its cause
// and names the store that failed first.
func TestUnavailable(t *testing.T) {
	if sqldb.Unavailable("jobs", nil) != nil {
		t.Fatal("nil became an error")
	}
	cause := errors.New("no such table: bulk_jobs")
	err := sqldb.Unavailable("jobs", cause)
	if !errors.Is(err, sqldb.ErrUnavailable) || !errors.Is(err, cause) || sqldb.StoreOf(err) != "jobs" {
		t.Fatalf("%v: not ErrUnavailable, its cause or jobs'", err)
	}
	if again := sqldb.Unavailable("sessions", fmt.Errorf("loading: %w", err)); sqldb.StoreOf(again) != "jobs" {
		t.Errorf("the first store's name was replaced: %q", sqldb.StoreOf(again))
	}
	if sqldb.StoreOf(cause) != "" || sqldb.StoreOf(nil) != "" {
		t.Error("a plain error names a store")
	}
}
