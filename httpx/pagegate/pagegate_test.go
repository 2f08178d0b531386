package pagegate

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestOrder: with the slots taken, one session's requests get them in the
// order they came; one whose context ends leaves the queue holding
// nothing.
func TestOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(1, 1)
		ctx := context.Background()
		if err := g.Acquire(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		got := make(chan int, 4)
		cancelled, cancel := context.WithCancel(ctx)
		gaveUp := make(chan error, 1)
		for i := range 4 {
			if i == 1 {
				// The second in line gives up before its turn.
				go func() { gaveUp <- g.Acquire(cancelled, "s") }()
			} else {
				go func() {
					if err := g.Acquire(ctx, "s"); err != nil {
						t.Error(err)
					}
					got <- i
				}()
			}
			synctest.Wait() // each in line before the next comes
		}
		if _, w := g.State(); w != 4 {
			t.Fatalf("%d waiting, want 4", w)
		}
		cancel()
		if err := <-gaveUp; !errors.Is(err, context.Canceled) {
			t.Fatalf("a request that gave up: %v", err)
		}
		for _, want := range []int{0, 2, 3} {
			g.Release("s")
			if i := <-got; i != want {
				t.Fatalf("request %d got the slot, want %d (arrival order)", i, want)
			}
		}
		g.Release("s")
		if free, waiting := g.State(); free != 1 || waiting != 0 || g.Sessions() != 0 {
			t.Fatalf("after all: %d free, %d waiting, %d sessions", free, waiting, g.Sessions())
		}
	})
}

// TestShares: one session holds at most its share of the slots, whatever
// it asks for, and a free slot does not go to a session at its bound; a
// slot given back goes to the request waiting longest for one, a
// colleague's, before the giving session's further pages; each session's
// own requests in the order they came.
func TestShares(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(4, 2)
		ctx := context.Background()
		now := func(who string) {
			t.Helper()
			if err := g.Acquire(ctx, who); err != nil {
				t.Fatal(err)
			}
		}
		got := make(chan string, 8)
		later := func(name, who string) {
			go func() {
				if err := g.Acquire(ctx, who); err != nil {
					t.Error(err)
				}
				got <- name
			}()
			synctest.Wait()
		}
		now("a")
		now("a")
		later("a2", "a") // a's third waits, though two slots are free
		if free, w := g.State(); free != 2 || w != 1 {
			t.Fatalf("%d free, %d waiting; want 2 and 1: a session took more than its share", free, w)
		}
		now("b")
		now("c")
		later("b1", "b")
		later("a3", "a")
		later("c1", "c")
		next := func(release, want string) {
			t.Helper()
			g.Release(release)
			synctest.Wait()
			select {
			case name := <-got:
				if name != want {
					t.Fatalf("after a slot of %s: %s got it, want %s", release, name, want)
				}
			default:
				t.Fatalf("after a slot of %s: nobody got it, want %s", release, want)
			}
		}
		next("b", "b1") // a is at its bound: b's, waiting for a slot, is served
		next("a", "c1") // c's waited for a slot before a's next page could ask
		next("c", "a2")
		g.Release("b")
		synctest.Wait()
		if free, w := g.State(); free != 1 || w != 1 || len(got) != 0 {
			t.Fatalf("%d free, %d waiting; want the slot kept free from a, at its bound", free, w)
		}
		next("a", "a3")
		for _, who := range []string{"a", "a", "c"} {
			g.Release(who)
		}
		if free, w := g.State(); free != 4 || w != 0 || g.Sessions() != 0 {
			t.Fatalf("after all: %d free, %d waiting, %d sessions", free, w, g.Sessions())
		}
	})
}

// TestWaitEndsWithContext: a request waiting for a slot stops when its
// context ends, and holds nothing after.
func TestWaitEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(1, 1)
		if err := g.Acquire(context.Background(), "a"); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := g.Acquire(ctx, "b"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("waiting past the deadline: %v", err)
		}
		g.Release("a")
		if free, w := g.State(); free != 1 || w != 0 || g.Sessions() != 0 {
			t.Fatalf("after all: %d free, %d waiting, %d sessions", free, w, g.Sessions())
		}
	})
}

// TestSizes: two slots a core, at least four; a session's share a
// quarter of them, at least one.
func TestSizes(t *testing.T) {
	for _, c := range []struct{ cores, slots, share int }{{1, 4, 1}, {2, 4, 1}, {4, 8, 2}, {16, 32, 8}} {
		if n := Slots(c.cores); n != c.slots || Share(n) != c.share {
			t.Errorf("%d cores: %d slots, a share of %d; want %d, %d", c.cores, n, Share(n), c.slots, c.share)
		}
	}
}
