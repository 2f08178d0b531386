package sandbox

import (
	"maps"
	"sync"
)

// Counters is a snapshot of what the sandbox has seen since it was built or
// since the last ResetCounters.
type Counters struct {
	TokensIssued map[string]int // "b2b/production", "b2b/test", "seller"
	Requests     map[string]int // by route name (every request, failed or not)
	MaxInFlight  map[string]int // "<route>/<sellerID>" -> max concurrent requests seen
	// Written counts the products the lamoda profile's filtered writes
	// changed, by WrittenStock and WrittenActivation: a test shows with it
	// that a refused write changed nothing.
	Written map[string]int
	// Forced counts the lamoda profile's card price writes applied with
	// force ("send anyway"), by parent SKU, over both price paths.
	Forced map[string]int
}

// Keys of Counters.Written.
const (
	WrittenStock      = "stock"
	WrittenActivation = "activation"
)

// counterSet holds the live counters.
type counterSet struct {
	mu          sync.Mutex
	tokens      map[string]int
	requests    map[string]int
	inFlight    map[string]int
	maxInFlight map[string]int
	written     map[string]int
	forced      map[string]int
}

func (cs *counterSet) init() {
	cs.tokens = map[string]int{}
	cs.requests = map[string]int{}
	cs.inFlight = map[string]int{}
	cs.maxInFlight = map[string]int{}
	cs.written = map[string]int{}
	cs.forced = map[string]int{}
}

// forcedWrite counts a card price applied with force.
func (cs *counterSet) forcedWrite(parent string) {
	cs.mu.Lock()
	cs.forced[parent]++
	cs.mu.Unlock()
}

// wrote adds n products written by a filtered write of kind.
func (cs *counterSet) wrote(kind string, n int) {
	cs.mu.Lock()
	cs.written[kind] += n
	cs.mu.Unlock()
}

func (cs *counterSet) request(route string) {
	cs.mu.Lock()
	cs.requests[route]++
	cs.mu.Unlock()
}

func (cs *counterSet) tokenIssued(env string) {
	cs.mu.Lock()
	cs.tokens[env]++
	cs.mu.Unlock()
}

// enter raises the in-flight gauge of route and seller and returns the
// function that lowers it again.
func (cs *counterSet) enter(route string, seller int64) func() {
	key := route + "/" + itoa(seller)
	cs.mu.Lock()
	cs.inFlight[key]++
	if n := cs.inFlight[key]; n > cs.maxInFlight[key] {
		cs.maxInFlight[key] = n
	}
	cs.mu.Unlock()
	return func() {
		cs.mu.Lock()
		cs.inFlight[key]--
		cs.mu.Unlock()
	}
}

// Counters returns a deep-copied snapshot of the counters.
func (s *Sandbox) Counters() Counters {
	cs := &s.counters
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return Counters{
		TokensIssued: maps.Clone(cs.tokens),
		Requests:     maps.Clone(cs.requests),
		MaxInFlight:  maps.Clone(cs.maxInFlight),
		Written:      nonEmpty(maps.Clone(cs.written)),
		Forced:       nonEmpty(maps.Clone(cs.forced)),
	}
}

// ResetCounters zeroes every counter. Requests still in flight keep counting
// down correctly; the maximum starts again from those.
func (s *Sandbox) ResetCounters() {
	cs := &s.counters
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.tokens = map[string]int{}
	cs.requests = map[string]int{}
	cs.maxInFlight = map[string]int{}
	cs.written = map[string]int{}
	cs.forced = map[string]int{}
	for k, n := range cs.inFlight {
		if n > 0 {
			cs.maxInFlight[k] = n
		} else {
			delete(cs.inFlight, k)
		}
	}
}

// nonEmpty is m, or nil when it holds nothing (a sandbox that wrote nothing
// reports no Written map at all).
func nonEmpty(m map[string]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	return m
}
