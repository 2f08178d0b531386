package handlers

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestPlaceGate: one place per key (here a copy: seller and environment,
// as whole-catalogue exports are gated; imports are gated by seller), two
// in all; a place is given back once, however often release is called.
func TestPlaceGate(t *testing.T) {
	g := newPlaceGate[copystore.Key](2)
	a, aProd := copystore.Key{SellerID: 1001, Env: "test"}, copystore.Key{SellerID: 1001, Env: "production"}
	b, c := copystore.Key{SellerID: 1002, Env: "test"}, copystore.Key{SellerID: 1003, Env: "test"}
	relA, ok := g.enter(a)
	if !ok {
		t.Fatal("the first export waits")
	}
	if _, ok := g.enter(a); ok {
		t.Fatal("a second export of the same copy runs beside the first")
	}
	relProd, ok := g.enter(aProd)
	if !ok {
		t.Fatal("the seller's other environment waits with a place free")
	}
	if _, ok := g.enter(b); ok {
		t.Fatal("a third export runs beside two")
	}
	relA()
	relA() // harmless twice
	relB, ok := g.enter(b)
	if !ok {
		t.Fatal("a freed place is not given out")
	}
	if _, ok := g.enter(c); ok {
		t.Fatal("a double release freed two places")
	}
	relProd()
	relB()
	if n := g.taken(); n != 0 {
		t.Fatalf("after all releases: %d places taken", n)
	}
}

// TestLocalGateOrder: with the slots taken, requests get them in the
// order they came; one whose context ends leaves the queue, and a slot
// handed to it as it ends goes on to the next.
func TestLocalGateOrder(t *testing.T) {
	g := newLocalGate(1, 1)
	ctx := context.Background()
	if err := g.acquire(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	got := make(chan int, 4)
	waitQueued := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			if _, waiting := g.state(); waiting == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never %d waiting", n)
			}
			runtime.Gosched()
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	gaveUp := make(chan error, 1)
	for i := range 4 {
		if i == 1 {
			// The second in line gives up before its turn.
			go func() { gaveUp <- g.acquire(cancelled, "s") }()
		} else {
			go func() {
				if err := g.acquire(ctx, "s"); err != nil {
					t.Error(err)
				}
				got <- i
			}()
		}
		waitQueued(i + 1)
	}
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("a request that gave up: %v", err)
	}
	waitQueued(3)
	for _, want := range []int{0, 2, 3} {
		g.release("s")
		if i := <-got; i != want {
			t.Fatalf("request %d got the slot, want %d (arrival order)", i, want)
		}
	}
	g.release("s")
	if free, waiting := g.state(); free != 1 || waiting != 0 {
		t.Fatalf("after all: %d free, %d waiting", free, waiting)
	}
}

// TestLocalGateTurns: one session holds at most its share of the slots,
// whatever it asks for, and a free slot does not go to a session at its
// bound; when slots are short, the waiting sessions are served in turn,
// one slot each, each session's own requests in the order they came.
func TestLocalGateTurns(t *testing.T) {
	g := newLocalGate(4, 2)
	ctx := context.Background()
	waiting := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			if _, w := g.state(); w == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never %d waiting", n)
			}
			runtime.Gosched()
		}
	}
	now := func(who string) {
		t.Helper()
		short, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := g.acquire(short, who); err != nil {
			t.Fatalf("%s waited for a free slot: %v", who, err)
		}
	}
	got := make(chan string, 8)
	later := func(name, who string, n int) {
		t.Helper()
		go func() {
			if err := g.acquire(ctx, who); err != nil {
				t.Error(err)
			}
			got <- name
		}()
		waiting(n)
	}
	now("a")
	now("a")
	later("a2", "a", 1) // a's third waits, though two slots are free
	if free, _ := g.state(); free != 2 {
		t.Fatalf("%d free, want 2: a session took more than its share", free)
	}
	now("b")
	now("c")
	later("b1", "b", 2)
	later("a3", "a", 3)
	later("c1", "c", 4)
	next := func(release, want string) {
		t.Helper()
		g.release(release)
		if name := <-got; name != want {
			t.Fatalf("after a slot of %s: %s got it, want %s", release, name, want)
		}
	}
	next("b", "b1") // a is at its bound: b, next in turn, is served
	next("a", "a2")
	next("c", "c1")
	g.release("b")
	if free, w := g.state(); free != 1 || w != 1 {
		t.Fatalf("%d free, %d waiting; want the slot kept free from a, at its bound", free, w)
	}
	g.release("a")
	if name := <-got; name != "a3" {
		t.Fatalf("%s got the slot, want a3", name)
	}
	for _, who := range []string{"a", "a", "c"} {
		g.release(who)
	}
	if free, w := g.state(); free != 4 || w != 0 || len(g.held) != 0 || len(g.turns) != 0 {
		t.Fatalf("after all: %d free, %d waiting, held %v, turns %v", free, w, g.held, g.turns)
	}
}
