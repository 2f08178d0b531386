package copystore

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// countingSource is an empty catalogue that counts the passes reading it
// at the same time, each read held a moment so that passes started
// together overlap if nothing keeps them apart.
type countingSource struct {
	now, most *atomic.Int32
}

func (c countingSource) read(ctx context.Context) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
	select {
	case <-time.After(20 * time.Millisecond):
	case <-ctx.Done():
	}
}

func (c countingSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	c.read(ctx)
	return nil, 1, 0, nil
}

func (c countingSource) OrdersPage(ctx context.Context, page, limit int) ([]apiclient.Order, int, int, error) {
	c.read(ctx)
	return nil, 1, 0, nil
}

func (c countingSource) BoxesPage(ctx context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	c.read(ctx)
	return nil, 1, 0, nil
}

// TestManagerBoundsPasses: copies of several sellers asked for at once (a
// session with several accounts) are made one at a time on SQLite, whose
// one writer they would otherwise share with every session save, and a
// few at a time on PostgreSQL; every one of them is made.
func TestManagerBoundsPasses(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open()
		m := NewManager(&Syncer{Store: s, Lock: b.lock}, time.Hour, 0, nil)
		defer m.Close()
		var now, most atomic.Int32
		src := countingSource{now: &now, most: &most}
		keys := []Key{testKey(2001), testKey(2002), testKey(2003), testKey(2004), testKey(2005), testKey(2006)}
		for _, k := range keys {
			m.Use(k, src)
		}
		waitFor(t, func() bool {
			for _, k := range keys {
				if m.Running(k) {
					return false
				}
			}
			return true
		})
		for _, k := range keys {
			st, err := s.SyncStates(context.Background(), k)
			if err != nil {
				t.Fatal(err)
			}
			if !st[KindNomenclature].Complete() {
				t.Errorf("seller %d: no complete copy", k.SellerID)
			}
		}
		if limit := int32(maxPasses(s.Postgres())); most.Load() > limit || most.Load() < 1 {
			t.Errorf("%d passes read at once, want at most %d", most.Load(), limit)
		}
	})
}
