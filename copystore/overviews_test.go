package copystore

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestOverviewsMatchOverview: the overviews read together are, copy by
// copy, what Overview reads for each alone: synced copies (one in another
// environment of the same seller), a revoked copy and a copy never made;
// copies not asked for are left out.
func TestOverviewsMatchOverview(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 37}
		a, c, other, revoked, never := testKey(5101), testKey(5102), testKey(5103), testKey(5104), testKey(5105)
		sameSeller := Key{SellerID: a.SellerID, Env: c.Env}
		for i, k := range []Key{a, c, other, revoked, sameSeller} {
			if err := y.Run(ctx, k, catalogue(40+30*i, i%2)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Revoke(ctx, revoked); err != nil {
			t.Fatal(err)
		}
		keys := []Key{a, c, revoked, never, sameSeller}
		ovs, err := s.Overviews(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			want, werr := s.Overview(ctx, k)
			got, gerr := ovs.Of(k)
			if !errors.Is(gerr, werr) && (gerr != nil || werr != nil) {
				t.Fatalf("%v: error %v, Overview's %v", k, gerr, werr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v: overview %+v, Overview's %+v", k, got, want)
			}
		}
		if _, ok := ovs.ovs[other]; ok {
			t.Fatal("a copy not asked for was read")
		}
		if ov, _ := ovs.Of(a); ov.RecordsByStatus == nil || len(ov.Sync) == 0 {
			t.Fatalf("a synced copy's overview is empty: %+v", ov)
		}
	})
}

// TestOverviewsOneStatementPostgres: the overviews of a session's twenty
// copies (the all-accounts start page, the current account's among them)
// are read in one statement, whatever their number.
func TestOverviewsOneStatementPostgres(t *testing.T) {
	t.Parallel()
	url := sqldbtest.PostgresURL(t)
	ctx := context.Background()
	tr := &statementCounter{}
	db, err := sqldb.OpenPostgresTraced(ctx, url, tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var keys []Key
	for i := range 20 {
		keys = append(keys, testKey(int64(7401+i)))
	}
	if err := (&Syncer{Store: s, Lock: db}).Run(ctx, keys[0], catalogue(30, 0)); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, keys[1]); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the first prepares the statement
		before := tr.n.Load()
		ovs, err := s.Overviews(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		if n := tr.n.Load() - before; n != 1 {
			t.Fatalf("the overviews of %d copies sent %d statements, want 1", len(keys), n)
		}
		if ov, err := ovs.Of(keys[0]); err != nil || len(ov.Sync) == 0 || len(ov.RecordsByStatus) == 0 {
			t.Fatalf("the synced copy's overview: %+v, %v", ov, err)
		}
		if _, err := ovs.Of(keys[1]); !errors.Is(err, ErrRevoked) {
			t.Fatalf("the revoked copy's overview: %v, want ErrRevoked", err)
		}
	}
}
