// Package placegate is HTTP plumbing: a gate that lets one costly piece
// of work per key, and a few in all, run at a time. A second one for the
// same key is a double click or a colleague's identical request, and more
// than a few at once is CPU, memory and database connections taken from
// everyone; a request finding no place is refused at once, never queued.
package placegate

import "sync"

// Gate gives out places by key. Its zero value is not ready: use New.
type Gate[K comparable] struct {
	mu      sync.Mutex
	running map[K]bool
	max     int
}

// New returns a gate of max places in all.
func New[K comparable](max int) *Gate[K] {
	return &Gate[K]{running: map[K]bool{}, max: max}
}

// Enter takes a place for k; ok is false when none is free. release gives
// the place back; calling it again does nothing.
func (g *Gate[K]) Enter(k K) (release func(), ok bool) {
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

// Taken is how many places are in use.
func (g *Gate[K]) Taken() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.running)
}
