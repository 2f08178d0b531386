package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/pagegate"
)

// localGate is the page gate (httpx/pagegate: at most two pages per core do
// their local work at once, one session at most a quarter of them) with
// the bound of a page's local work.
//
// Only work that never waits on the marketplace, a lock, the database's
// writer or the client runs inside: a request enters after its session,
// tokens and copy states are settled (which may call the marketplace) and
// leaves before it saves its session and writes the answer. A request
// that did not enter (a live read, a form) is not bounded by it.
type localGate struct {
	*pagegate.Gate
	// limit bounds a page's local work (localWorkLimit; tests shorten it).
	limit time.Duration
	// entered, when set, runs as a request enters with its session's key
	// and the context its local work runs under (tests hold a request
	// there).
	entered func(ctx context.Context, who string)
}

// localWorkLimit bounds a page's local work: its reads of the copy or the
// history and its rendering. A page past it is stopped (its queries
// cancelled) and answered "took too long", so no page holds a slot, a
// core and a database connection for longer.
const localWorkLimit = 5 * time.Second

func newLocalGate() *localGate {
	n := pagegate.Slots(runtime.GOMAXPROCS(0))
	return &localGate{Gate: pagegate.New(n, pagegate.Share(n)), limit: localWorkLimit}
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
	if err := a.local.Acquire(outer, who); err != nil {
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
	a.local.Release(h.who)
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
