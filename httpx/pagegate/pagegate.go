// Package pagegate bounds how many requests at once do a page's local
// work (reading the copy or the history and rendering the page into
// memory), and shares the slots fairly between sessions.
//
// Under a team's load the cores are the bottleneck: sharing them among
// every waiting request makes each page take as long as all of them
// together; in arrival order a page waits for those ahead of it and is
// then done in its own time, so the slowest pages wait about as long as
// the median one.
//
// Two weighted semaphores make the rule. The gate's slots are one
// semaphore, served first come, first served. Each session has its own,
// of its share of the slots, taken before a slot is asked for: one session
// (tabs, a script, a held key) never holds more than its share, and no
// more than its share of its requests ever waits for a slot, the rest
// waiting behind its own. A slot given back goes to the first request
// waiting for one, before the giving session's next page even asks: a
// colleague waiting gets the next free slot, never waits for a whole
// flood of one session.
package pagegate

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Gate is the page gate. Its zero value is not usable; see New.
type Gate struct {
	slots      *semaphore.Weighted
	n, share   int
	mu         sync.Mutex
	sessions   map[string]*session
	held, wait int
}

// session is one session's share of the slots, kept while any of its
// requests holds a slot or waits for one.
type session struct {
	sem   *semaphore.Weighted
	users int
}

// New returns a gate of n slots of which one session holds at most share.
func New(n, share int) *Gate {
	return &Gate{slots: semaphore.NewWeighted(int64(n)), n: n, share: max(1, min(share, n)), sessions: map[string]*session{}}
}

// Slots is how many requests do local work at once: two per core keeps a
// core busy while another request waits on a database read (at least 4).
func Slots(cores int) int { return max(4, 2*cores) }

// Share is how many of n slots (two a core) one session may hold: a
// quarter, half the cores, so that one session's pages never occupy every
// core and another user's page always finds one.
func Share(n int) int { return max(1, n/4) }

// Acquire takes a slot for the session who, waiting behind who's own
// requests beyond its share and then for a slot, until ctx ends; it
// returns ctx's error then, holding nothing.
func (g *Gate) Acquire(ctx context.Context, who string) error {
	g.mu.Lock()
	s := g.sessions[who]
	if s == nil {
		s = &session{sem: semaphore.NewWeighted(int64(g.share))}
		g.sessions[who] = s
	}
	s.users++
	g.wait++
	g.mu.Unlock()

	err := s.sem.Acquire(ctx, 1)
	if err == nil {
		if err = g.slots.Acquire(ctx, 1); err != nil {
			s.sem.Release(1)
		}
	}

	g.mu.Lock()
	defer g.mu.Unlock()
	g.wait--
	if err != nil {
		g.leave(who, s)
		return err
	}
	g.held++
	return nil
}

// Release gives back a slot who holds: first to the request waiting
// longest for a slot, then who's share to its own next request.
func (g *Gate) Release(who string) {
	g.mu.Lock()
	s := g.sessions[who]
	if s == nil {
		g.mu.Unlock()
		panic("pagegate: release of a slot not held by " + who)
	}
	g.held--
	g.leave(who, s)
	g.mu.Unlock()
	g.slots.Release(1)
	s.sem.Release(1)
}

// leave drops a request of who, and who's share with its last (g.mu held).
func (g *Gate) leave(who string, s *session) {
	if s.users--; s.users == 0 {
		delete(g.sessions, who)
	}
}

// State is how many slots are free and how many requests wait.
func (g *Gate) State() (free, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n - g.held, g.wait
}

// Sessions is how many sessions hold or wait for a slot.
func (g *Gate) Sessions() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.sessions)
}
