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
	g := newLocalGate(1)
	ctx := context.Background()
	if err := g.acquire(ctx); err != nil {
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
			go func() { gaveUp <- g.acquire(cancelled) }()
		} else {
			go func() {
				if err := g.acquire(ctx); err != nil {
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
		g.release()
		if i := <-got; i != want {
			t.Fatalf("request %d got the slot, want %d (arrival order)", i, want)
		}
	}
	g.release()
	if free, waiting := g.state(); free != 1 || waiting != 0 {
		t.Fatalf("after all: %d free, %d waiting", free, waiting)
	}
}
