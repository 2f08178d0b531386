package handlers

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"sync"

	"github.com/labstack/echo/v4"
)

// localGate bounds how many requests at once do a page's local work
// (reading the copy or the history and rendering the page into memory)
// and lets the others in in the order they came. Under a team's load the
// cores are the bottleneck: sharing them among every waiting request
// makes each page take as long as all of them together, and a long page
// (a hundred rows) longer still; in arrival order a page waits for those
// ahead of it and is then done in its own time, so the slowest pages
// wait about as long as the median one.
//
// Only work that never waits on the marketplace, a lock, the database's
// writer or the client runs inside: a request enters after its session,
// tokens and copy states are settled (which may call the marketplace) and
// leaves before it saves its session and writes the answer. A request
// that did not enter (a live read, a form) is not bounded by it.
type localGate struct {
	mu    sync.Mutex
	free  int
	queue []chan struct{} // the waiting requests, first come first
}

// localSlots is how many requests do local work at once: two per core
// keeps a core busy while another request waits on a database read.
func localSlots() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

func newLocalGate(n int) *localGate { return &localGate{free: n} }

// acquire takes a slot, waiting behind the requests that came first,
// until ctx ends.
func (g *localGate) acquire(ctx context.Context) error {
	g.mu.Lock()
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	turn := make(chan struct{})
	g.queue = append(g.queue, turn)
	g.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		if i := slices.Index(g.queue, turn); i >= 0 {
			g.queue = slices.Delete(g.queue, i, i+1)
			g.mu.Unlock()
			return ctx.Err()
		}
		g.mu.Unlock()
		// The slot was handed over as ctx ended: hand it on.
		g.release()
		return ctx.Err()
	}
}

// release gives a slot back: to the first waiting request, if any.
func (g *localGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) > 0 {
		close(g.queue[0])
		g.queue = g.queue[1:]
		return
	}
	g.free++
}

// state is how many slots are free and how many requests wait.
func (g *localGate) state() (free, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.free, len(g.queue)
}

// localSlotKey holds a request's place in the gate: localOpen inside
// localScope, localHeld while it holds a slot.
const localSlotKey = "local.slot"

type localState int

const (
	localOutside localState = iota // not under localScope: the gate does not apply
	localOpen
	localHeld
)

// enterLocal waits for a slot of the local gate for the rest of the
// request's local work; localScope (the request's end) or leaveLocal gives
// it back. Waiting ends with the request's context. Entering twice holds
// one slot; a request outside localScope (a form's answer reusing a page's
// reader) does not wait.
func (a *App) enterLocal(c echo.Context) error {
	if st, _ := c.Get(localSlotKey).(localState); st != localOpen {
		return nil
	}
	if err := a.local.acquire(c.Request().Context()); err != nil {
		return err
	}
	c.Set(localSlotKey, localHeld)
	return nil
}

// leaveLocal gives the request's slot back, if it holds one.
func (a *App) leaveLocal(c echo.Context) {
	if st, _ := c.Get(localSlotKey).(localState); st == localHeld {
		c.Set(localSlotKey, localOpen)
		a.local.release()
	}
}

// localScope lets a GET request's handler enter the local gate and gives back
// at its end the slot it may still hold (a handler that failed before
// rendering its page).
func (a *App) localScope(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodGet {
			// A form's answer may read a page after calling the
			// marketplace, and before calling it again: it stays outside.
			return next(c)
		}
		c.Set(localSlotKey, localOpen)
		defer func() {
			a.leaveLocal(c)
			c.Set(localSlotKey, localOutside)
		}()
		return next(c)
	}
}
