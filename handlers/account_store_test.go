package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// lockFailingBackend fails the token refresh lock while failing is set.
type lockFailingBackend struct {
	sessions.Backend
	failing atomic.Bool
}

func (b *lockFailingBackend) Lock(ctx context.Context, key string) (func(), error) {
	if b.failing.Load() {
		return nil, errors.New("database is locked")
	}
	return b.Backend.Lock(ctx, key)
}

// A page whose token cannot be refreshed because the session store fails
// says the session store is unavailable (503, try again), not that
// something unexpected went wrong.
func TestTokenStoreFailureIsSessionStoreUnavailable(t *testing.T) {
	sdb, err := sqldb.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	inner, err := sessions.NewBackend(context.Background(), sdb)
	if err != nil {
		t.Fatal(err)
	}
	fb := &lockFailingBackend{Backend: inner}
	app := testapp.New(t, testapp.Options{Backend: fb})
	b := app.Browser(t)
	b.LoginDemo()
	if p := b.Get("/return-boxes"); p.Status != http.StatusOK {
		t.Fatalf("return boxes: %d", p.Status)
	}
	app.Sandbox.Advance(16 * time.Minute) // the token is due: it must be refreshed
	fb.failing.Store(true)
	p := b.Get("/return-boxes")
	if p.Status != http.StatusServiceUnavailable || !strings.Contains(strings.ToLower(p.Text("[data-testid=error]")), "session store") {
		t.Errorf("a refresh the session store cannot lock: %d %q, want 503 saying the session store is unavailable", p.Status, p.Text("[data-testid=error]"))
	}
}
