package copystore

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"testing"
)

// TestReadChecksAgree: the checks a page reads in one statement answer as
// the reads they stand for do: the sync states, every kept count, the
// version, and a refused credential (read again by the next request's
// checks, never by one read before the refusal).
func TestReadChecksAgree(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k, other := testKey(7311), testKey(7312)
		y := &Syncer{Store: s, Lock: b.lock}
		for key, n := range map[Key]int{k: 240, other: 30} {
			if err := y.Run(ctx, key, catalogue(n, 1)); err != nil {
				t.Fatal(err)
			}
		}
		c, err := s.ReadChecks(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		states, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.States, states) || len(states) == 0 {
			t.Errorf("checks' states %v, SyncStates %v", c.States, states)
		}
		v, err := s.version(ctx, k)
		if err != nil || c.version != v || v == 0 {
			t.Errorf("checks' version %d, version %d (%v)", c.version, v, err)
		}
		cctx := WithChecks(ctx, c)
		for _, list := range []string{countNomenclature, countZeroStock, countOrders, countBoxes} {
			for _, st := range append([]string{"", "new", "loading", "absent"}, countStatuses...) {
				want, err := s.keptCount(ctx, k, list, st)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := s.keptCount(cctx, k, list, st); err != nil || got != want {
					t.Errorf("%s %q: from the checks %d (%v), read %d", list, st, got, err, want)
				}
			}
		}
		if n, _ := s.keptCount(cctx, k, countNomenclature, ""); n != 240 {
			t.Errorf("records kept %d, want 240", n)
		}
		// The checks are of k only: another copy's reads read their own.
		if n, err := s.keptCount(cctx, other, countNomenclature, ""); err != nil || n != 30 {
			t.Errorf("other copy under k's checks: %d (%v), want 30", n, err)
		}
		if err := s.Revoke(ctx, k); err != nil {
			t.Fatal(err)
		}
		c2, err := s.ReadChecks(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		rctx := WithChecks(ctx, c2)
		if _, err := s.NomenclaturePage(rctx, k, Query{Limit: 10}, func(*Record) error { return nil }); !errors.Is(err, ErrRevoked) {
			t.Errorf("nomenclature page after the refusal: %v, want ErrRevoked", err)
		}
		if _, _, err := s.OrdersPage(rctx, k, Query{Limit: 10}); !errors.Is(err, ErrRevoked) {
			t.Errorf("orders page after the refusal: %v, want ErrRevoked", err)
		}
		if _, err := s.NomenclaturePage(rctx, k, Query{Q: "кросс", Limit: 10}, func(*Record) error { return nil }); !errors.Is(err, ErrRevoked) {
			t.Errorf("search page after the refusal: %v, want ErrRevoked", err)
		}
		if o2, o := c2.byStatus(countOrders), c.byStatus(countOrders); !maps.Equal(o2, o) {
			t.Errorf("orders counts changed by a refusal: %v, %v", o2, o)
		}
	})
}
