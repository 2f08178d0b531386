package handlers

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestPlaceGate: one place per key (here a copy: seller and environment,
// as whole-catalogue exports are gated; imports are gated by seller), two
// in all; a place is given back once, however often release is called.
func TestPlaceGate(t *testing.T) {
	t.Parallel()
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
