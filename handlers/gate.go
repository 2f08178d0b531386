package handlers

import "sync"

// placeGate lets one costly piece of work per key and max in all run at a
// time: a second one for the same key is a double click or a colleague's
// identical request, and more than a few at once is CPU, memory and
// database connections taken from everyone. Imports are gated by seller,
// whole-catalogue exports by copy.
type placeGate[K comparable] struct {
	mu      sync.Mutex
	running map[K]bool
	max     int
	// held, when set, runs while a place is taken (tests hold one there
	// to see what a second request gets).
	held func()
}

func newPlaceGate[K comparable](max int) *placeGate[K] {
	return &placeGate[K]{running: map[K]bool{}, max: max}
}

// enter takes a place for k; ok is false when none is free. release gives
// the place back; calling it again does nothing.
func (g *placeGate[K]) enter(k K) (release func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[k] || len(g.running) >= g.max {
		return func() {}, false
	}
	g.running[k] = true
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			delete(g.running, k)
			g.mu.Unlock()
		})
	}, true
}

// taken is how many places are in use.
func (g *placeGate[K]) taken() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.running)
}
