package sandbox

import (
	"net/http"
	"sync"
)

// gates hold requests to a route until a test releases them: the way to
// observe a state in the middle of a long operation (a job between two
// batches) on any machine, instead of stretching it with latency and hoping
// the observer is fast enough.
type gates struct {
	mu   sync.Mutex
	list map[string]*gate
}

type gate struct {
	pass    int           // requests still let through before the gate closes
	open    chan struct{} // closed on release
	waiting int
}

// HoldAfter lets the next n requests to route through and holds every later
// one until release is called (or its client goes away). Requests held are
// counted as in flight. Calling release more than once is harmless; a new
// HoldAfter on the same route replaces the old gate after releasing it.
func (s *Sandbox) HoldAfter(route string, n int) (release func()) {
	g := &gate{pass: n, open: make(chan struct{})}
	s.gates.mu.Lock()
	if s.gates.list == nil {
		s.gates.list = map[string]*gate{}
	}
	if old := s.gates.list[route]; old != nil {
		close(old.open)
	}
	s.gates.list[route] = g
	s.gates.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.gates.mu.Lock()
			if s.gates.list[route] == g {
				delete(s.gates.list, route)
			}
			s.gates.mu.Unlock()
			close(g.open)
		})
	}
}

// Held reports how many requests to route are waiting at its gate now.
func (s *Sandbox) Held(route string) int {
	s.gates.mu.Lock()
	defer s.gates.mu.Unlock()
	if g := s.gates.list[route]; g != nil {
		return g.waiting
	}
	return 0
}

// wait blocks r at route's gate, if one is closed for it. It reports false
// when the client went away while waiting.
func (gs *gates) wait(route string, r *http.Request) bool {
	gs.mu.Lock()
	g := gs.list[route]
	if g == nil {
		gs.mu.Unlock()
		return true
	}
	if g.pass > 0 {
		g.pass--
		gs.mu.Unlock()
		return true
	}
	g.waiting++
	gs.mu.Unlock()
	defer func() {
		gs.mu.Lock()
		g.waiting--
		gs.mu.Unlock()
	}()
	select {
	case <-g.open:
		return true
	case <-r.Context().Done():
		return false
	}
}
