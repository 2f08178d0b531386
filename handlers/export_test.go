package handlers

import (
	"context"
	"strconv"
	"time"
)

// SetImportHeld makes every import run held while it holds its place in
// the import gate (set before the first request).
func SetImportHeld(a *App, held func()) { a.imports.held = held }

// LocalGate is the local gate's free slots and waiting requests.
func LocalGate(a *App) (free, waiting int) { return a.local.state() }

// LocalSlots is the local gate's size.
func LocalSlots() int { return localSlots() }

// HoldLocalGate takes every slot of the local gate until release.
func HoldLocalGate(a *App) (release func()) {
	n, _ := a.local.state()
	for i := range n {
		if err := a.local.acquire(context.Background(), "hold-"+strconv.Itoa(i)); err != nil {
			panic(err)
		}
	}
	return func() {
		for i := range n {
			a.local.release("hold-" + strconv.Itoa(i))
		}
	}
}

// LocalPerSession is how many slots of the local gate one session may hold.
func LocalPerSession() int { return localPerSession(localSlots()) }

// SetLocalEntered makes entered run as each request enters the local gate,
// with its session's key and the context its local work runs under (set
// before the first request).
func SetLocalEntered(a *App, entered func(ctx context.Context, who string)) {
	a.local.entered = entered
}

// SetLocalLimit sets the bound of a page's local work (set before the
// first request).
func SetLocalLimit(a *App, d time.Duration) { a.local.limit = d }
