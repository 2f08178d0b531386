package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// localGate bounds how many requests at once do a page's local work
// (reading the copy or the history and rendering the page into memory),
// and shares the slots fairly between sessions. Under a team's load the
// cores are the bottleneck: sharing them among every waiting request
// makes each page take as long as all of them together, and a long page
// (a hundred rows) longer still; in arrival order a page waits for those
// ahead of it and is then done in its own time, so the slowest pages
// wait about as long as the median one.
//
// One session holds at most perSession slots at once, however many pages
// it asks for (tabs, a script, a held key): the rest of its requests wait
// behind its own. When slots are short, the sessions waiting take turns,
// one slot each in the order they last got one (round robin), so a
// colleague's page waits for at most one page of each other waiting
// session, never for a whole flood of one.
//
// Only work that never waits on the marketplace, a lock, the database's
// writer or the client runs inside: a request enters after its session,
// tokens and copy states are settled (which may call the marketplace) and
// leaves before it saves its session and writes the answer. A request
// that did not enter (a live read, a form) is not bounded by it.
type localGate struct {
	mu         sync.Mutex
	free       int
	perSession int
	held       map[string]int             // slots held, by session
	waiting    map[string][]chan struct{} // each session's waiting requests, first come first
	turns      []string                   // sessions with requests waiting, next to be served first
	// limit bounds a page's local work (localWorkLimit; tests shorten it).
	limit time.Duration
	// entered, when set, runs as a request enters with its session's key
	// and the context its local work runs under (tests hold a request
	// there).
	entered func(ctx context.Context, who string)
}

// localSlots is how many requests do local work at once: two per core
// keeps a core busy while another request waits on a database read.
func localSlots() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// localPerSession is how many of n slots (two a core) one session may
// hold: a quarter, half the cores, so that one session's pages never
// occupy every core and another user's page always finds one.
func localPerSession(n int) int { return max(1, n/4) }

// localWorkLimit bounds a page's local work: its reads of the copy or the
// history and its rendering. A page past it is stopped (its queries
// cancelled) and answered "took too long", so no page holds a slot, a
// core and a database connection for longer.
const localWorkLimit = 5 * time.Second

func newLocalGate(n, perSession int) *localGate {
	return &localGate{free: n, perSession: perSession, held: map[string]int{}, waiting: map[string][]chan struct{}{}, limit: localWorkLimit}
}

// acquire takes a slot for session who, waiting behind who's own earlier
// requests and its turn among the waiting sessions, until ctx ends.
func (g *localGate) acquire(ctx context.Context, who string) error {
	g.mu.Lock()
	// A free slot is only ever left while every waiting session is at its
	// bound (handOut), so taking it jumps no one.
	if g.free > 0 && g.held[who] < g.perSession && len(g.waiting[who]) == 0 {
		g.take(who)
		g.mu.Unlock()
		return nil
	}
	turn := make(chan struct{})
	if len(g.waiting[who]) == 0 {
		g.turns = append(g.turns, who)
	}
	g.waiting[who] = append(g.waiting[who], turn)
	g.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		if i := slices.Index(g.waiting[who], turn); i >= 0 {
			g.waiting[who] = slices.Delete(g.waiting[who], i, i+1)
			if len(g.waiting[who]) == 0 {
				delete(g.waiting, who)
				g.turns = slices.DeleteFunc(g.turns, func(s string) bool { return s == who })
			}
			g.mu.Unlock()
			return ctx.Err()
		}
		g.mu.Unlock()
		// The slot was handed over as ctx ended: hand it on.
		g.release(who)
		return ctx.Err()
	}
}

func (g *localGate) take(who string) {
	g.free--
	g.held[who]++
}

// release gives back a slot of who: to the next waiting session in turn
// that is below its bound, if any.
func (g *localGate) release(who string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.free++
	if g.held[who]--; g.held[who] <= 0 {
		delete(g.held, who)
	}
	g.handOut()
}

// handOut gives free slots to the waiting sessions in turn, each its
// first waiting request; a session served goes to the end of the turns.
func (g *localGate) handOut() {
	for g.free > 0 {
		i := slices.IndexFunc(g.turns, func(s string) bool { return g.held[s] < g.perSession })
		if i < 0 {
			return
		}
		who := g.turns[i]
		g.turns = slices.Delete(g.turns, i, i+1)
		q := g.waiting[who]
		close(q[0])
		g.take(who)
		if len(q) > 1 {
			g.waiting[who] = q[1:]
			g.turns = append(g.turns, who)
		} else {
			delete(g.waiting, who)
		}
	}
}

// state is how many slots are free and how many requests wait.
func (g *localGate) state() (free, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, q := range g.waiting {
		waiting += len(q)
	}
	return g.free, waiting
}

// errLocalTooLong is the cause of a page's local work stopped at the
// gate's limit.
var errLocalTooLong = errors.New("handlers: the page's local work took too long")

// errPageTooLong answers a page stopped at the limit of its local work.
var errPageTooLong = errors.New("handlers: page stopped: it took too long to read")

// localHeld is what a request holding a slot keeps: its session's key,
// the request's context before the limit, and the limit's cancel.
type localHeld struct {
	who    string
	outer  context.Context
	timed  context.Context
	cancel context.CancelFunc
}

// localSlotKey holds a request's place in the gate: localOpen inside
// localScope, localHeld while it holds a slot; localTimedKey the context
// of its last local work.
const (
	localSlotKey  = "local.slot"
	localHeldKey  = "local.held"
	localTimedKey = "local.timed"
)

type localState int

const (
	localOutside localState = iota // not under localScope: the gate does not apply
	localOpen
	localIn
)

// enterLocal waits for a slot of the local gate for the rest of the
// request's local work; localScope (the request's end) or leaveLocal gives
// it back. Waiting ends with the request's context; the work inside runs
// under the gate's limit (the request's context gets its deadline until
// leaveLocal). Entering twice holds one slot; a request outside localScope
// (a form's answer reusing a page's reader) does not wait.
func (a *App) enterLocal(c echo.Context) error {
	if st, _ := c.Get(localSlotKey).(localState); st != localOpen {
		return nil
	}
	who := ""
	if s := session(c); s != nil {
		who = s.ID()
	}
	outer := c.Request().Context()
	waitFrom := time.Now()
	if err := a.local.acquire(outer, who); err != nil {
		return err
	}
	if o := a.deps.Observer; o != nil {
		o.GateWait(time.Since(waitFrom))
	}
	timed, cancel := context.WithTimeoutCause(outer, a.local.limit, errLocalTooLong)
	c.SetRequest(c.Request().WithContext(timed))
	c.Set(localSlotKey, localIn)
	c.Set(localHeldKey, &localHeld{who: who, outer: outer, timed: timed, cancel: cancel})
	c.Set(localTimedKey, timed)
	if a.local.entered != nil {
		a.local.entered(timed, who)
	}
	return nil
}

// leaveLocal gives the request's slot back, if it holds one, and the
// request its context without the limit.
func (a *App) leaveLocal(c echo.Context) {
	if st, _ := c.Get(localSlotKey).(localState); st != localIn {
		return
	}
	h, _ := c.Get(localHeldKey).(*localHeld)
	c.Set(localSlotKey, localOpen)
	c.Set(localHeldKey, nil)
	h.cancel()
	c.SetRequest(c.Request().WithContext(h.outer))
	a.local.release(h.who)
}

// localScope lets a GET request's handler enter the local gate and gives back
// at its end the slot it may still hold (a handler that failed before
// rendering its page). A failure of a page stopped at the gate's limit is
// answered as such (errPageTooLong), not as a slow marketplace.
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
		err := next(c)
		if timed, ok := c.Get(localTimedKey).(context.Context); ok && errors.Is(err, context.DeadlineExceeded) && errors.Is(context.Cause(timed), errLocalTooLong) {
			err = fmt.Errorf("%w (%w)", errPageTooLong, err)
		}
		return err
	}
}
