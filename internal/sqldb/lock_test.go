package sqldb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestSellerLock: one key per seller, the very key the session store's
// application lock made of "mass-update/<seller>" (so instances of either
// version exclude each other on one database), and LockSeller holds it.
func TestSellerLock(t *testing.T) {
	if got, want := sqldb.SellerLockKey(42), "app\x00mass-update/42"; got != want {
		t.Errorf("SellerLockKey(42) = %q, want %q", got, want)
	}
	if sqldb.SellerLockKey(1) == sqldb.SellerLockKey(11) || sqldb.SellerLockKey(-1) == sqldb.SellerLockKey(1) {
		t.Error("two sellers share a key")
	}
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		// Advisory locks are per database, not per schema: a seller no
		// other test locks.
		seller := time.Now().UnixNano()
		unlock, err := db.LockSeller(ctx, seller)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if u, err := db.Lock(short, sqldb.SellerLockKey(seller)); err == nil {
			u()
			t.Fatal("the seller's lock was taken twice")
		}
		other, err := db.LockSeller(ctx, seller+1)
		if err != nil {
			t.Fatalf("another seller waits: %v", err)
		}
		other()
	})
}

// TestLockWaitBounded: a wait whose context has no deadline still ends.
func TestLockWaitBounded(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		key := sqldb.SellerLockKey(time.Now().UnixNano())
		// The free lock is taken with the usual bound (a loaded machine
		// may take longer than the short one to answer at all); only the
		// wait for the held one is made short.
		unlock, err := db.Lock(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		defer sqldb.SetLockWait(50 * time.Millisecond)()
		if u, err := db.Lock(context.Background(), key); err == nil {
			u()
			t.Fatal("a held lock was taken twice")
		} else if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("an unbounded wait ended with %v, want DeadlineExceeded", err)
		}
	})
}

// TestTryLock: a place taken with TryLock is refused at once to a second
// taker, on the same handle and, on PostgreSQL, on another handle of the
// same database (another instance), and is free again once released.
func TestTryLock(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, first, second *sqldb.DB) {
		// Advisory locks are per database, not per schema: a key no other
		// test takes.
		key := "test\x00try/" + time.Now().Format(time.RFC3339Nano)
		unlock, ok, err := first.TryLock(ctx, key)
		if err != nil || !ok {
			t.Fatalf("a free place: %v, %v", ok, err)
		}
		for i, db := range []*sqldb.DB{first, second} {
			if u, ok, err := db.TryLock(ctx, key); err != nil || ok {
				if ok {
					u()
				}
				t.Fatalf("taker %d took a held place: %v, %v", i+1, ok, err)
			}
		}
		unlock()
		unlock()
		again, ok, err := second.TryLock(ctx, key)
		if err != nil || !ok {
			t.Fatalf("a released place: %v, %v", ok, err)
		}
		again()
	}
	t.Run("sqlite", func(t *testing.T) {
		db := sqldbtest.SQLite(t)
		check(t, db, db)
	})
	t.Run("postgres two instances", func(t *testing.T) {
		u := sqldbtest.PostgresURL(t)
		var dbs [2]*sqldb.DB
		for i := range dbs {
			db, err := sqldb.Open(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			dbs[i] = db
		}
		check(t, dbs[0], dbs[1])
	})
}
