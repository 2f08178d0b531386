package placegate

import "testing"

// TestGate: one place per key (here a copy: seller and environment, as
// whole-catalogue exports are gated; imports are gated by seller), two in
// all; a place is given back once, however often release is called.
func TestGate(t *testing.T) {
	t.Parallel()
	type key struct {
		seller int64
		env    string
	}
	g := New[key](2)
	a, aProd := key{1001, "test"}, key{1001, "production"}
	b, c := key{1002, "test"}, key{1003, "test"}
	relA, ok := g.Enter(a)
	if !ok {
		t.Fatal("the first export waits")
	}
	if _, ok := g.Enter(a); ok {
		t.Fatal("a second export of the same copy runs beside the first")
	}
	relProd, ok := g.Enter(aProd)
	if !ok {
		t.Fatal("the seller's other environment waits with a place free")
	}
	if _, ok := g.Enter(b); ok {
		t.Fatal("a third export runs beside two")
	}
	relA()
	relA() // harmless twice
	relB, ok := g.Enter(b)
	if !ok {
		t.Fatal("a freed place is not given out")
	}
	if _, ok := g.Enter(c); ok {
		t.Fatal("a double release freed two places")
	}
	relProd()
	relB()
	if n := g.Taken(); n != 0 {
		t.Fatalf("after all releases: %d places taken", n)
	}
}
