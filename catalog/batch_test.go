package catalog

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestSyncBatchInterrupted: pages the reader queued while a store ran are
// stored together in one transaction with the page the pass resumes from;
// a batch that fails mid-way (after its rows, before its commit) leaves
// the pass at the last committed page, and a restarted instance reads on
// from there: no record lost, none stored twice, no page read again but
// the batch's.
func TestSyncBatchInterrupted(t *testing.T) {
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		k := testKey(1001)
		s := b.open()
		requests := func() int { return m.sb.Counters().Requests[sandbox.RouteRPCList] }
		before := requests()
		injected := errors.New("injected: the instance died before the commit")
		var batches [][2]int
		s.beforeCommit = func(first, last int) error {
			batches = append(batches, [2]int{first, last})
			if first == 1 {
				// Hold the first store until the reader has read every
				// page it may queue meanwhile (pages 2 to 6 of 6).
				deadline := time.Now().Add(30 * time.Second) // a backstop
				for requests()-before < 6 {
					if time.Now().After(deadline) {
						return fmt.Errorf("the reader did not read ahead: %d requests", requests()-before)
					}
					time.Sleep(2 * time.Millisecond)
				}
				return nil
			}
			return injected
		}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100} // 6 pages
		if err := y.Run(ctx, k, m.source(1001)); !errors.Is(err, injected) {
			t.Fatalf("run: %v", err)
		}
		if len(batches) != 2 || batches[0] != [2]int{1, 1} || batches[1][0] != 2 || batches[1][1] < 5 {
			t.Fatalf("batches %v: want page 1 alone, then pages 2 to at least 5 together", batches)
		}
		if n := requests() - before; n != 6 {
			t.Errorf("%d requests, want 6 (one a page)", n)
		}
		s2 := b.open() // a restarted instance
		st, _ := s2.SyncStates(ctx, k)
		if got := st[KindNomenclature]; !got.Running || got.NextPage != 2 || got.Complete() {
			t.Fatalf("state after the failed batch: %+v", got)
		}
		if n, _ := s2.CountNomenclature(ctx, k, Query{}); n != 100 {
			t.Fatalf("%d records after the failed batch, want page 1's 100", n)
		}
		mid := requests()
		if err := (&Syncer{Store: s2, Lock: b.lock, PageLimit: 100}).Run(ctx, k, m.source(1001)); err != nil {
			t.Fatal(err)
		}
		if n := requests() - mid; n != 5 {
			t.Errorf("%d requests after the restart, want 5 (pages 2 to 6)", n)
		}
		st, _ = s2.SyncStates(ctx, k)
		if got := st[KindNomenclature]; got.Running || !got.Complete() || got.Gen != 1 || got.Total != 3*productsInTests {
			t.Errorf("state after resuming: %+v", got)
		}
		recs, err := s2.Nomenclature(ctx, k, Query{Limit: MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			seen[r.Warehouse+"|"+r.Barcode] = true
		}
		if len(recs) != 3*productsInTests || len(seen) != len(recs) {
			t.Errorf("%d records, %d distinct, want %d", len(recs), len(seen), 3*productsInTests)
		}
	})
}
