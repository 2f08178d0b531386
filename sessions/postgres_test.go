package sessions

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

func testPostgresBackend(t *testing.T) Backend {
	return backendOn(t, sqldbtest.Postgres(t))
}

func TestPostgresContract(t *testing.T) {
	if os.Getenv(sqldbtest.PostgresEnv) == "" {
		t.Skip("set " + sqldbtest.PostgresEnv + "=postgres://... to run (sessions/testdata/start-postgres.sh starts one and prints it)")
	}
	runStoreContract(t, testPostgresBackend)
}

// TestPostgresConcurrentMigrations starts several "instances" on an empty
// schema at once: the advisory lock must serialise their migrations.
func TestPostgresConcurrentMigrations(t *testing.T) {
	dsn := sqldbtest.PostgresURL(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			db, err := sqldb.Open(context.Background(), dsn)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			if _, err := NewBackend(context.Background(), db); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent NewBackend: %v", err)
	}
}

// TestPostgresTwoInstances shares one database between two stores with
// their own pools, as two dashboard instances would.
func TestPostgresTwoInstances(t *testing.T) {
	dsn := sqldbtest.PostgresURL(t)
	ctx := context.Background()
	open := func() Backend {
		db, err := sqldb.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		b := backendOn(t, db)
		t.Cleanup(func() { b.Close() })
		return b
	}
	ea := newEnv(t, open(), nil)
	eb := newEnv(t, open(), nil)
	eb.clock = ea.clock
	eb.store = eb.storeWith(Options{Keys: [][]byte{testKey(1)}, Now: ea.clock.Now})

	s, c := ea.login()
	if !load(t, eb.store, c).LoggedIn() {
		t.Fatal("login on A is not seen on B")
	}
	if err := eb.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "from-b"}); err != nil {
		t.Fatal(err)
	}
	if tok, ok, err := ea.store.LoadToken(ctx, s.ID(), "seller"); err != nil || !ok || tok.AccessToken != "from-b" {
		t.Fatalf("token saved on B, loaded on A: %v %v %v", tok.AccessToken, ok, err)
	}

	// Locks are shared: B waits while A holds the lock.
	unlock, err := ea.store.LockTokenRefresh(ctx, s.ID(), "seller")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = eb.store.LockTokenRefresh(short, s.ID(), "seller")
	cancel()
	if err == nil {
		t.Fatal("B took a lock A holds")
	}
	got := make(chan error, 1)
	go func() {
		u, err := eb.store.LockTokenRefresh(ctx, s.ID(), "seller")
		if err == nil {
			u()
		}
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("B after A unlocked: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("B not granted the lock after A released it")
	}

	// Logout on B while a slow request runs on A: it stays logged out.
	slow := load(t, ea.store, c)
	out := load(t, eb.store, c)
	out.Destroy()
	save(t, out)
	slow.Data().DisplayName = "late"
	if err := slow.Save(request(), httptest.NewRecorder()); err != nil {
		t.Fatal(err)
	}
	if err := ea.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "late"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("late SaveToken on A: %v, want ErrNotFound", err)
	}
	if load(t, ea.store, c).LoggedIn() {
		t.Fatal("logout on B undone by A")
	}
}

// TestPostgresSaveTokenRacingDelete hammers the foreign-key path: a token
// write racing a logout must never leave a token without its session.
func TestPostgresSaveTokenRacingDelete(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.Postgres(t)
	b, err := NewBackend(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range 40 {
		id := newID()
		if err := b.Create(ctx, Record{ID: id, Payload: []byte("p"), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Go(func() {
			err := b.SaveToken(ctx, id, "seller", []byte("t"), now)
			if err != nil && !errors.Is(err, ErrNotFound) {
				t.Errorf("round %d: SaveToken: %v", i, err)
			}
		})
		wg.Go(func() {
			if err := b.Delete(ctx, id); err != nil {
				t.Errorf("round %d: Delete: %v", i, err)
			}
		})
		wg.Wait()
		var orphans int
		if err := b.(*pgBackend).pool.QueryRow(ctx, `SELECT count(*) FROM session_tokens WHERE session_id = $1`, id).Scan(&orphans); err != nil {
			t.Fatal(err)
		}
		if orphans != 0 {
			t.Fatalf("round %d: a token outlived its session", i)
		}
	}
}

// TestPostgresKeepsOldDatabase: a database migrated by an earlier version
// (its own schema_version row, timestamptz times) keeps its sessions,
// records its steps in the one migrations table and has its times
// converted.
func TestPostgresKeepsOldDatabase(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.Postgres(t)
	if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE schema_version (component text PRIMARY KEY, version integer NOT NULL);
		INSERT INTO schema_version VALUES ('sessions', 1);`+migrations.Postgres[0]+`
		INSERT INTO sessions VALUES ('old-id', '\x00', now(), now(), now() + interval '1 hour');`); err != nil {
		t.Fatal(err)
	}
	b, err := NewBackend(ctx, db)
	if err != nil {
		t.Fatalf("NewBackend on an old database: %v", err)
	}
	if rec, err := b.Load(ctx, "old-id"); err != nil || string(rec.Payload) != "\x00" || rec.ExpiresAt.Before(time.Now()) {
		t.Fatalf("the old session: %q expiring %v, %v", rec.Payload, rec.ExpiresAt, err)
	}
	var n int
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sqldb.MigrationsTable+` WHERE component = 'sessions'`).Scan(&n); err != nil || n != len(migrations.Postgres) {
		t.Fatalf("steps recorded = %d, %v; want %d", n, err, len(migrations.Postgres))
	}
}

// TestPostgresConvertsTimestamptz: sessions and tokens written while the
// PostgreSQL tables kept timestamptz still load after the migration to
// Unix milliseconds, at the same instants (to the millisecond), and the
// purge still tells expired from live by them.
func TestPostgresConvertsTimestamptz(t *testing.T) {
	ctx := context.Background()
	db := sqldbtest.Postgres(t)
	old := sqldb.Steps{SQLite: migrations.SQLite[:1], Postgres: migrations.Postgres[:1]}
	if err := db.Migrate(ctx, "sessions", old); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 3, 1, 9, 0, 0, 123_456_000, time.UTC)
	live, dead := created.Add(8*time.Hour), created.Add(time.Hour)
	// As the timestamptz backend wrote them (pgx encodes time.Time).
	pool := db.Pool()
	if _, err := pool.Exec(ctx, `INSERT INTO sessions VALUES ('live', '\x01', $1, $2, $3), ('dead', '\x02', $1, $1, $4)`,
		created, created.Add(time.Minute), live, dead); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO session_tokens VALUES ('live', 'seller', '\x03', $1)`, created.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}

	b, err := NewBackend(ctx, db)
	if err != nil {
		t.Fatalf("migrating the timestamptz tables: %v", err)
	}
	rec, err := b.Load(ctx, "live")
	if err != nil {
		t.Fatalf("a session of the old tables no longer loads: %v", err)
	}
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond) }
	if !rec.CreatedAt.Equal(ms(created)) || !rec.LastSeen.Equal(ms(created.Add(time.Minute))) || !rec.ExpiresAt.Equal(ms(live)) {
		t.Errorf("converted times %v %v %v; want %v %v %v", rec.CreatedAt, rec.LastSeen, rec.ExpiresAt,
			ms(created), ms(created.Add(time.Minute)), ms(live))
	}
	if string(rec.Payload) != "\x01" || string(rec.Tokens["seller"]) != "\x03" {
		t.Errorf("payload %q, tokens %q", rec.Payload, rec.Tokens)
	}
	var tokenAt int64
	if err := db.Reader().QueryRowContext(ctx, `SELECT updated_at FROM session_tokens WHERE session_id = 'live'`).Scan(&tokenAt); err != nil ||
		tokenAt != sqldb.Millis(created.Add(2*time.Minute)) {
		t.Errorf("token updated_at = %d, %v; want %d", tokenAt, err, sqldb.Millis(created.Add(2*time.Minute)))
	}
	if n, err := b.Purge(ctx, dead, 10); err != nil || n != 1 {
		t.Fatalf("purge at the old session's expiry: %d, %v; want 1", n, err)
	}
	if _, err := b.Load(ctx, "live"); err != nil {
		t.Errorf("the live session was purged: %v", err)
	}
	// The converted tables take new writes like fresh ones.
	if err := b.Touch(ctx, "live", created.Add(time.Hour), live.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

func TestRedact(t *testing.T) {
	for in, secret := range map[string]string{
		"failed: postgres://u:s3cret@h:5432/db":      "s3cret",
		"host=h password=s3cret user=u":              "s3cret",
		"host=h password='s3 cret' user=u":           "s3 cret",
		"postgresql://h/db?user=u&password=s3cret&x": "s3cret",
	} {
		if got := sqldb.Redact(in); strings.Contains(got, secret) {
			t.Errorf("sqldb.Redact(%q) = %q", in, got)
		}
	}
}
