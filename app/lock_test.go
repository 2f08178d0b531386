package app_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// noLocks is a session backend whose locks always fail: the per-seller
// lock must not be taken through the session store.
type noLocks struct{ sessions.Backend }

func (noLocks) Lock(context.Context, string) (func(), error) {
	return nil, errors.New("the session store's lock was used")
}

// The per-seller lock is the database's: the mass-update engine and the
// local copy's sync take it there, on one key, even when the session
// backend is given and nothing else would need the database.
func TestSellerLockOnDatabase(t *testing.T) {
	ctx := context.Background()
	sdb, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	backend, err := sessions.NewBackend(ctx, sdb)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := app.Config{
		DemoSandbox:    &sandbox.Options{},
		DatabaseURL:    filepath.Join(dir, "sellerdesk.db"),
		KeyFile:        filepath.Join(dir, "sellerdesk.db.key"),
		SessionBackend: noLocks{backend},
	}

	a, err := app.New(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	if a.DB == nil || a.Engine.Locker != a.DB {
		t.Errorf("the engine locks on %T, want the database", a.Engine.Locker)
	}
	a.Close()

	withCopy := base
	withCopy.Catalog = &app.CatalogOptions{}
	a, err = app.New(ctx, withCopy)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const seller = 7
	unlock, err := a.Engine.Locker.LockSeller(ctx, seller)
	if err != nil {
		t.Fatalf("the engine's lock: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if u, err := a.Catalog.Lock(short, seller); err == nil {
		u()
		t.Fatal("the copy took the seller's lock the engine holds")
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the copy's lock: %v, want it waiting on the engine's", err)
	}
	unlock()
	u, err := a.Catalog.Lock(ctx, seller)
	if err != nil {
		t.Fatalf("the copy's lock once released: %v", err)
	}
	u()
}
