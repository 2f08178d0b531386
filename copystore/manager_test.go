package copystore

import (
	"context"
	"maps"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestManager: a login starts a sync; page views within the interval do
// not read the marketplace again; "refresh now" and the schedule do.
func TestManager(t *testing.T) {
	t.Parallel()
	mk := newMarket(t, sandbox.Options{ProductsPerSeller: 50})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		s.SetClock(clock)
		m := NewManager(&Syncer{Store: s, Lock: b.lock, Now: clock}, time.Hour, 0, nil)
		defer m.Close()
		k := testKey(1001)
		gen := func() int64 {
			st, err := s.SyncStates(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			return st[KindBoxes].Gen
		}
		settled := func(want int64) {
			t.Helper()
			waitFor(t, func() bool {
				st, _ := s.SyncStates(ctx, k)
				return !m.Running(k) && st[KindBoxes].Gen == want && st[KindBoxes].Complete() && !st[KindBoxes].Running
			})
		}
		src := mk.source(1001)
		m.Use(k, src)
		settled(1)
		before := mk.sb.Counters().Requests[sandbox.RouteRPCList]
		m.Use(k, src)
		waitFor(t, func() bool { return !m.Running(k) })
		if got := mk.sb.Counters().Requests[sandbox.RouteRPCList]; got != before || gen() != 1 {
			t.Errorf("a page view within the interval read the marketplace again (%d requests, gen %d)", got-before, gen())
		}
		// A page that read fresh states starts nothing; stale or running
		// states start what Use starts.
		states, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		m.UseSeen(k, src, states)
		if m.Running(k) {
			t.Error("a page view that saw a fresh copy started a sync")
		}
		for _, change := range []func(map[string]SyncState){
			func(st map[string]SyncState) { delete(st, KindOrders) },
			func(st map[string]SyncState) { b := st[KindBoxes]; b.Running = true; st[KindBoxes] = b },
			func(st map[string]SyncState) {
				n := st[KindNomenclature]
				n.CompletedAt = n.CompletedAt.Add(-time.Hour)
				st[KindNomenclature] = n
			},
		} {
			stale := maps.Clone(states)
			change(stale)
			// Every place for a pass taken: a sync started waits for one,
			// so it is seen running however quickly it would find the
			// database's states fresh.
			for range cap(m.passes) {
				m.passes <- struct{}{}
			}
			m.UseSeen(k, src, stale)
			if !m.Running(k) {
				t.Errorf("states %+v started no sync", stale)
			}
			for range cap(m.passes) {
				<-m.passes
			}
			waitFor(t, func() bool { return !m.Running(k) })
		}
		if gen() != 1 {
			t.Errorf("gen %d: the stale views' syncs were not skipped by the database's own states", gen())
		}
		m.Refresh(k, src)
		settled(2)
		offset.Store(int64(time.Hour))
		m.tick()
		settled(3)
		if n, _ := s.CountNomenclature(ctx, k, Query{}); n != 150 {
			t.Errorf("%d records", n)
		}
		// Not used since that pass: the next one leaves it alone (it
		// catches up when next opened).
		offset.Store(int64(2 * time.Hour))
		m.tick()
		if m.Running(k) || gen() != 3 {
			t.Errorf("a copy unused for an interval was refreshed on schedule (gen %d)", gen())
		}
		if err := m.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		m.tick()
		if m.Running(k) {
			t.Error("a forgotten copy is refreshed")
		}
	})
}
