package copystore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// hookSource is an AccountSource that runs before ahead of every
// nomenclature page it reads (an error it returns is the page's answer),
// and counts the pages asked for.
type hookSource struct {
	AccountSource
	before func(page int) error
	reads  *atomic.Int32
}

func (h hookSource) Credential() Credential { return h.AccountSource.Credential }

func (h hookSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	h.reads.Add(1)
	if h.before != nil {
		if err := h.before(page); err != nil {
			return nil, 0, 0, err
		}
	}
	return h.AccountSource.NomenclaturePage(ctx, page, limit)
}

// rowCounts is how many records, orders and boxes k holds, read straight
// from the tables (the copy's reads refuse a revoked copy).
func rowCounts(t *testing.T, s *Store, k Key) (n [3]int) {
	t.Helper()
	for i, table := range []string{"catalog_nomenclature", "catalog_orders", "catalog_boxes"} {
		if err := s.r.QueryRowContext(context.Background(), s.q(`SELECT COUNT(*) FROM `+table+` WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&n[i]); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestForgetDuringPass: a forget while a pass runs ends it: the pages it
// read before the forget and after are not stored, the orders and boxes
// are not read back, no row is left without the copy's record, and no
// pass begins again until the user asks (Remember) or logs in (Grant).
func TestForgetDuringPass(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 100})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(1001)
		reads := &atomic.Int32{}
		src := hookSource{AccountSource: m.source(1001), reads: reads, before: func(page int) error {
			if page == 2 {
				return s.Forget(ctx, k)
			}
			return nil
		}}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatalf("run: %v", err)
		}
		if got := rowCounts(t, s, k); got != [3]int{} {
			t.Errorf("after a forget during the pass: %v records, orders and boxes, want none", got)
		}
		if st, _ := s.SyncStates(ctx, k); len(st) != 0 {
			t.Errorf("sync state after forget: %+v", st)
		}
		before := reads.Load()
		src.before = nil
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if got := rowCounts(t, s, k); reads.Load() != before || got != [3]int{} {
			t.Errorf("a forgotten copy was copied again unasked: %d reads, %v rows", reads.Load()-before, got)
		}
		if err := s.Remember(ctx, k); err != nil {
			t.Fatal(err)
		}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if n, err := s.CountNomenclature(ctx, k, Query{}); err != nil || n != 300 {
			t.Errorf("after refresh now: %d records (%v), want 300", n, err)
		}
	})
}

// TestUnauthorizedStopsPass: a 401 that a new token does not cure stops
// the pass with its reason, marks the credentials rejected, and no later
// run sends anything with them until a login with them succeeds.
func TestUnauthorizedStopsPass(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 100})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(1001)
		// What the client returns once a new token did not cure a 401.
		src := hookSource{AccountSource: m.source(1001), reads: &atomic.Int32{}, before: func(page int) error {
			if page == 2 {
				return fmt.Errorf("list: token rejected again after a refresh: %w", apiclient.ErrUnauthorized)
			}
			return nil
		}}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
		if err := y.Run(ctx, k, src); !errors.Is(err, apiclient.ErrUnauthorized) {
			t.Fatalf("run: %v, want unauthorized", err)
		}
		st, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if n := st[KindNomenclature]; n.Running || !n.Stopped() || n.LastError != StopUnauthorized {
			t.Errorf("the failed pass: %+v, want stopped (unauthorized)", n)
		}
		if rejected, err := s.CredentialRejected(ctx, src.Credential()); err != nil || !rejected {
			t.Errorf("credentials not marked rejected (%v)", err)
		}
		before := totalRequests(m.sb.Counters())
		for range 3 {
			if err := y.Run(ctx, k, src); !errors.Is(err, ErrCredentialRejected) {
				t.Errorf("run with rejected credentials: %v", err)
			}
		}
		if got := totalRequests(m.sb.Counters()) - before; got != 0 {
			t.Errorf("runs with rejected credentials sent %d requests", got)
		}
		if err := s.Grant(ctx, k, src.Credential()); err != nil {
			t.Fatal(err)
		}
		src.before = nil
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatalf("run after a new login: %v", err)
		}
		if st, _ := s.SyncStates(ctx, k); !st[KindNomenclature].Complete() || st[KindNomenclature].Stopped() {
			t.Errorf("after a new login: %+v", st[KindNomenclature])
		}
	})
}

func totalRequests(c sandbox.Counters) int {
	n := 0
	for _, v := range c.Requests {
		n += v
	}
	return n
}

// TestForbiddenNotRetried: a 403 for the seller's list stops the pass and
// revokes the copy; page views (more runs) read nothing until a login
// grants the copy again.
func TestForbiddenNotRetried(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(1001)
		refuse := true
		reads := &atomic.Int32{}
		src := hookSource{AccountSource: m.source(1001), reads: reads, before: func(int) error {
			if refuse {
				return fmt.Errorf("list: %w", apiclient.ErrForbidden)
			}
			return nil
		}}
		y := &Syncer{Store: s, Lock: b.lock}
		if err := y.Run(ctx, k, src); !errors.Is(err, apiclient.ErrForbidden) {
			t.Fatalf("run: %v", err)
		}
		if st, _ := s.SyncStates(ctx, k); st[KindNomenclature].LastError != StopForbidden || !st[KindNomenclature].Stopped() {
			t.Errorf("after a 403: %+v, want stopped (forbidden)", st[KindNomenclature])
		}
		before := reads.Load()
		for range 3 {
			if err := y.Run(ctx, k, src); err != nil {
				t.Errorf("run of a revoked copy: %v", err)
			}
		}
		if got := reads.Load() - before; got != 0 {
			t.Errorf("runs of a revoked copy read %d pages", got)
		}
		refuse = false
		if err := s.Grant(ctx, k, src.Credential()); err != nil {
			t.Fatal(err)
		}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if st, _ := s.SyncStates(ctx, k); !st[KindNomenclature].Complete() || st[KindNomenclature].Stopped() {
			t.Errorf("after a new login: %+v", st[KindNomenclature])
		}
	})
}
