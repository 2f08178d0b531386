package handlers

import "testing"

// TestImportGate: one import per seller at a time, a few in all; a place
// is given back once, however often release is called.
func TestImportGate(t *testing.T) {
	g := newImportGate(2)
	rel1, wait := g.enter(1001)
	if wait != 0 {
		t.Fatal("the first import waits")
	}
	if _, wait := g.enter(1001); wait == 0 {
		t.Fatal("a second import of the same seller runs beside the first")
	}
	rel2, wait := g.enter(1002)
	if wait != 0 {
		t.Fatal("another seller's import waits with a place free")
	}
	if _, wait := g.enter(1003); wait == 0 {
		t.Fatal("a third import runs beside two: the global cap is 2")
	}
	rel1()
	rel1() // harmless twice: must not free a second place
	rel3, wait := g.enter(1003)
	if wait != 0 {
		t.Fatal("a freed place is not given out")
	}
	if _, wait := g.enter(1004); wait == 0 {
		t.Fatal("a double release freed two places")
	}
	rel2()
	rel3()
	if g.running != 0 || len(g.sellers) != 0 {
		t.Fatalf("after all releases: %d running, %v", g.running, g.sellers)
	}
}
