package copystore

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestRunningCopies counts a copy while its pass runs and not before or
// after, on both databases.
func TestRunningCopies(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 100})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		running := func() int {
			t.Helper()
			n, err := s.RunningCopies(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := running(); n != 0 {
			t.Fatalf("before any pass: %d running, want 0", n)
		}
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 100}
		// Seller 1002's copy complete first: it is not running while 1001's is.
		if err := y.Run(ctx, testKey(1002), m.source(1002)); err != nil {
			t.Fatal(err)
		}
		var during atomic.Int32
		during.Store(-1)
		src := hookSource{AccountSource: m.source(1001), reads: &atomic.Int32{}, before: func(page int) error {
			if page == 2 && during.Load() < 0 {
				n, err := s.RunningCopies(ctx)
				if err != nil {
					return err
				}
				during.Store(int32(n))
			}
			return nil
		}}
		if err := y.Run(ctx, testKey(1001), src); err != nil {
			t.Fatal(err)
		}
		if got := during.Load(); got != 1 {
			t.Errorf("during 1001's pass, with 1002's complete: %d running, want 1", got)
		}
		if n := running(); n != 0 {
			t.Errorf("after both passes: %d running, want 0", n)
		}
	})
}
