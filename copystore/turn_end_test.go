package copystore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// askedSource tells which nomenclature pages were asked for, and holds
// page hold until release is closed.
type askedSource struct {
	Source
	hold    int
	release chan struct{}
	mu      sync.Mutex
	asked   map[int]chan struct{}
	flight  atomic.Int32
	most    atomic.Int32
}

// askedFor is closed when page n is asked for.
func (a *askedSource) askedFor(n int) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.asked[n] == nil {
		a.asked[n] = make(chan struct{})
	}
	return a.asked[n]
}

func (a *askedSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	if n := a.flight.Add(1); n > a.most.Load() {
		a.most.Store(n)
	}
	defer a.flight.Add(-1)
	if c := a.askedFor(page); !closed(c) {
		close(c)
	}
	if page == a.hold {
		select {
		case <-a.release:
		case <-ctx.Done():
			return nil, 0, 0, ctx.Err()
		}
	}
	return a.Source.NomenclaturePage(ctx, page, limit)
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// TestTurnEndsWithTheStoreCaughtUp: when a turn's slice ends while the
// store is behind, the next page is read while those pages are stored
// (one request in flight), rather than the turn stopping its reads and
// storing them with no request in flight; the pass then ends as usual,
// every record once. Both databases.
func TestTurnEndsWithTheStoreCaughtUp(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		k := testKey(4503)
		s := b.open()
		cat := catalogue(80, 0) // 8 pages of 10
		src := &askedSource{Source: cat, hold: syncBatchMin + 1, release: make(chan struct{}), asked: map[int]chan struct{}{}}
		var clockMu sync.Mutex
		now := time.Now()
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 10, slice: time.Minute, batchWait: time.Hour,
			Now: func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return now }}
		errNotRead := errors.New("the next page was not read while the batch was stored")
		var once sync.Once
		s.beforeCommit = func(first, last int) error {
			var err error
			once.Do(func() {
				// The first batch (pages 1 to syncBatchMin) is being
				// stored; the reader holds page syncBatchMin+1. The
				// slice ends now, before that page is handed over.
				clockMu.Lock()
				now = now.Add(time.Hour)
				clockMu.Unlock()
				close(src.release)
				select {
				case <-src.askedFor(syncBatchMin + 2):
				case <-time.After(30 * time.Second):
					err = errNotRead
				}
			})
			return err
		}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatalf("run: %v", err)
		}
		if n := src.most.Load(); n != 1 {
			t.Errorf("%d requests in flight at most, want 1", n)
		}
		st, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if got := st[KindNomenclature]; got.Running || !got.Complete() || got.Total != len(cat.recs) {
			t.Errorf("state after the pass: %+v", got)
		}
		recs, err := s.Nomenclature(ctx, k, Query{Limit: MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			seen[r.Warehouse+"|"+r.Barcode] = true
		}
		if len(recs) != len(cat.recs) || len(seen) != len(recs) {
			t.Errorf("%d records, %d distinct, want %d", len(recs), len(seen), len(cat.recs))
		}
	})
}
