package handlers_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// countingBackend counts the session-store reads a page makes.
type countingBackend struct {
	sessions.Backend
	loads, tokenLoads atomic.Int64
}

func (b *countingBackend) Load(ctx context.Context, id string) (sessions.Record, error) {
	b.loads.Add(1)
	return b.Backend.Load(ctx, id)
}

func (b *countingBackend) LoadTokens(ctx context.Context, id string) (map[string][]byte, error) {
	b.tokenLoads.Add(1)
	return b.Backend.LoadTokens(ctx, id)
}

// A page with a warm token reads the session store once: the tokens come
// with the session. A due token is refreshed after reading the store again
// (under the refresh lock), so a token another request saved meanwhile
// would be used instead of a new one.
func TestPageReadsSessionStoreOnce(t *testing.T) {
	t.Parallel()
	sdb, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	inner, err := sessions.NewBackend(context.Background(), sdb)
	if err != nil {
		t.Fatal(err)
	}
	cb := &countingBackend{Backend: inner}
	app := testapp.New(t, testapp.Options{Backend: cb})
	b := app.Browser(t)
	b.LoginDemo()
	b.Get("/orders") // first page after login

	for _, path := range []string{"/orders?limit=50", "/prices?limit=50", "/nomenclature?limit=50", "/return-boxes"} {
		cb.loads.Store(0)
		cb.tokenLoads.Store(0)
		if p := b.Get(path); p.Status != http.StatusOK {
			t.Fatalf("%s: status %d", path, p.Status)
		}
		if l, tl := cb.loads.Load(), cb.tokenLoads.Load(); l != 1 || tl != 0 {
			t.Errorf("%s with a warm token: %d session reads and %d token reads, want 1 and 0", path, l, tl)
		}
	}

	before := app.Sandbox.Counters().TokensIssued["b2b/test"]
	app.Sandbox.Advance(16 * time.Minute)
	cb.loads.Store(0)
	cb.tokenLoads.Store(0)
	if p := b.Get("/orders"); p.Status != http.StatusOK {
		t.Fatalf("orders after expiry: %d", p.Status)
	}
	if tl := cb.tokenLoads.Load(); tl != 1 {
		t.Errorf("refresh of a due token: %d token reads, want 1 (the re-read under the refresh lock)", tl)
	}
	if n := app.Sandbox.Counters().TokensIssued["b2b/test"] - before; n != 1 {
		t.Errorf("tokens issued for the due token: %d, want 1", n)
	}
}
