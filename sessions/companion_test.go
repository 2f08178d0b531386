package sessions

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestPostgresCompanion: a companion read goes with the session's row once
// this process decoded the session before, is given that payload, and
// answers its rows; a first load, or one whose backend is on another
// database, sends nothing and the session loads all the same.
func TestPostgresCompanion(t *testing.T) {
	db := sqldbtest.Postgres(t)
	e := newEnv(t, backendOn(t, db), nil)
	_, c := e.login()

	type answer struct {
		called bool
		seller int64
		n      int64
		err    error
	}
	loadWith := func(comp func(*Data) *Companion) *Session {
		t.Helper()
		r := request(c)
		s, err := e.store.Load(r.WithContext(WithCompanion(context.Background(), comp)))
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		return s
	}
	ask := func(a *answer, on any) func(*Data) *Companion {
		return func(last *Data) *Companion {
			a.seller = last.SellerID
			comp := &Companion{SQL: `SELECT $1::bigint + 1`, Args: []any{last.SellerID}, Scan: func(rows Rows, err error) {
				a.called, a.err = true, err
				if err != nil {
					return
				}
				for rows.Next() {
					a.err = rows.Scan(&a.n)
				}
			}}
			if on == nil {
				comp.DB = db
			}
			return comp
		}
	}

	// The login's Save kept what it wrote: the next load guesses from it.
	var a answer
	if s := loadWith(ask(&a, nil)); !s.LoggedIn() {
		t.Fatal("the session did not load with its companion")
	}
	if !a.called || a.err != nil || a.seller != 42 || a.n != 43 {
		t.Fatalf("companion: %+v, want called with seller 42 answering 43", a)
	}

	// A companion for another database is not sent.
	var other answer
	if s := loadWith(ask(&other, "elsewhere")); !s.LoggedIn() {
		t.Fatal("the session did not load")
	}
	if other.called {
		t.Fatal("a companion for another database was sent")
	}

	// A failing companion leaves the session loaded and says why.
	var failing answer
	s := loadWith(func(*Data) *Companion {
		return &Companion{DB: db, SQL: `SELECT no_such_column FROM sessions`, Scan: func(rows Rows, err error) {
			failing.called, failing.err = true, err
			if err == nil {
				for rows.Next() {
				}
				failing.err = rows.Err()
			}
		}}
	})
	if !s.LoggedIn() || !failing.called || failing.err == nil {
		t.Fatalf("a failing companion: logged in %v, answer %+v", s.LoggedIn(), failing)
	}

	// A process that never decoded the session sends nothing.
	fresh := e.storeWith(Options{Keys: [][]byte{testKey(1)}, Now: e.clock.Now})
	var first answer
	r := request(c)
	if s, err := fresh.Load(r.WithContext(WithCompanion(context.Background(), ask(&first, nil)))); err != nil || !s.LoggedIn() {
		t.Fatalf("first load: %v", err)
	}
	if first.called {
		t.Fatal("a companion was sent without a payload decoded before")
	}
}
