package copystore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// gatedSource holds the nomenclature page gate until the test releases
// it (page 0: none).
type gatedSource struct {
	Source
	gate    int
	release chan struct{}
}

func (g gatedSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	if page == g.gate {
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, 0, 0, ctx.Err()
		}
	}
	return g.Source.NomenclaturePage(ctx, page, limit)
}

// TestSyncBatchInterrupted: the pages the reader queues are stored
// syncBatchMin at a time, each batch in one transaction with the page the
// pass resumes from; a batch that fails mid-way (after its rows, before
// its commit) leaves the pass at the last committed page, and a restarted
// instance reads on from there: no record lost, none stored twice, no
// page read again but the failed batch's.
func TestSyncBatchInterrupted(t *testing.T) {
	t.Parallel()
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
				return nil
			}
			return injected
		}
		src := gatedSource{Source: m.source(1001), gate: syncBatchMin + 1, release: make(chan struct{})}
		done := make(chan error, 1)
		// 6 pages; a batch is never cut by the clock of a loaded machine.
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100, slice: time.Hour, batchWait: time.Hour}
		go func() { done <- y.Run(ctx, k, src) }()
		waitFor(t, func() bool {
			st, _ := s.SyncStates(ctx, k)
			return st[KindNomenclature].NextPage == syncBatchMin+1
		})
		close(src.release)
		if err := <-done; !errors.Is(err, injected) {
			t.Fatalf("run: %v", err)
		}
		if len(batches) != 2 || batches[0] != [2]int{1, syncBatchMin} || batches[1] != [2]int{syncBatchMin + 1, 6} {
			t.Fatalf("batches %v: want pages 1 to %d, then %d to 6", batches, syncBatchMin, syncBatchMin+1)
		}
		if n := requests() - before; n != 6 {
			t.Errorf("%d requests, want 6 (one a page)", n)
		}
		s2 := b.open() // a restarted instance
		st, _ := s2.SyncStates(ctx, k)
		if got := st[KindNomenclature]; !got.Running || got.NextPage != syncBatchMin+1 || got.Complete() {
			t.Fatalf("state after the failed batch: %+v", got)
		}
		if n, _ := s2.CountNomenclature(ctx, k, Query{}); n != 100*syncBatchMin {
			t.Fatalf("%d records after the failed batch, want the first batch's %d", n, 100*syncBatchMin)
		}
		mid := requests()
		if err := (&Syncer{Store: s2, Lock: b.lock, PageLimit: 100}).Run(ctx, k, m.source(1001)); err != nil {
			t.Fatal(err)
		}
		if n := requests() - mid; n != 6-syncBatchMin {
			t.Errorf("%d requests after the restart, want %d (the failed batch's pages)", n, 6-syncBatchMin)
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
