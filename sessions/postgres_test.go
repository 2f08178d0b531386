package sessions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const postgresEnv = "SELLERDESK_TEST_POSTGRES_URL"

// postgresTestURL returns a DSN for a fresh, empty schema of the test
// database (dropped at the end of the test), or skips the test.
func postgresTestURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv(postgresEnv)
	if base == "" {
		t.Skip("set " + postgresEnv + "=postgres://... to run (sessions/testdata/start-postgres.sh starts one and prints it)")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %s", postgresEnv, redact(err.Error()))
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "sessions_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", postgresEnv)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func newPostgresBackend(t *testing.T) Backend {
	t.Helper()
	b, err := OpenPostgres(context.Background(), postgresTestURL(t))
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	return b
}

func TestPostgresContract(t *testing.T) {
	if os.Getenv(postgresEnv) == "" {
		t.Skip("set " + postgresEnv + "=postgres://... to run (sessions/testdata/start-postgres.sh starts one and prints it)")
	}
	runStoreContract(t, newPostgresBackend)
}

// TestPostgresConcurrentMigrations starts several "instances" on an empty
// schema at once: the advisory lock must serialise their migrations.
func TestPostgresConcurrentMigrations(t *testing.T) {
	dsn := postgresTestURL(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			b, err := OpenPostgres(context.Background(), dsn)
			if err != nil {
				errs <- err
				return
			}
			b.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent OpenPostgres: %v", err)
	}
}

// TestPostgresTwoInstances shares one database between two stores with
// their own pools, as two dashboard instances would.
func TestPostgresTwoInstances(t *testing.T) {
	dsn := postgresTestURL(t)
	ctx := context.Background()
	open := func() Backend {
		b, err := OpenPostgres(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
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
	dsn := postgresTestURL(t)
	ctx := context.Background()
	b, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
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

// TestPostgresDownIsUnavailable needs no server: nothing listens on the
// port, so opening fails fast with ErrUnavailable and without the password.
func TestPostgresDownIsUnavailable(t *testing.T) {
	start := time.Now()
	_, err := OpenPostgres(context.Background(), "postgres://user:hunter2secret@127.0.0.1:1/db?sslmode=disable")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("OpenPostgres on a closed port: %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), "hunter2secret") {
		t.Fatalf("error leaks the password: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("failing took %v", d)
	}
	_, err = OpenPostgres(context.Background(), "postgres://user:hunter2secret@127.0.0.1:notaport/db")
	if err == nil || strings.Contains(err.Error(), "hunter2secret") {
		t.Fatalf("bad URL: %v", err)
	}
}

func TestOpenChoosesBackend(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://x@h/db":    true,
		"postgresql://x@h/db":  true,
		"POSTGRES://x@h/db":    true,
		"sessions.db":          false,
		"/var/lib/sd/x.sqlite": false,
	} {
		if got := IsPostgresURL(in); got != want {
			t.Errorf("IsPostgresURL(%q) = %v", in, got)
		}
	}
	b, err := Open(context.Background(), t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, ok := b.(*sqliteBackend); !ok {
		t.Fatalf("Open(path) = %T, want SQLite", b)
	}
}

func TestRedact(t *testing.T) {
	for in, secret := range map[string]string{
		"failed: postgres://u:s3cret@h:5432/db":      "s3cret",
		"host=h password=s3cret user=u":              "s3cret",
		"host=h password='s3 cret' user=u":           "s3 cret",
		"postgresql://h/db?user=u&password=s3cret&x": "s3cret",
	} {
		if got := redact(in); strings.Contains(got, secret) {
			t.Errorf("redact(%q) = %q", in, got)
		}
	}
}
