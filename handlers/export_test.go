package handlers

import (
	"context"
	"runtime"
	"strconv"
	"time"

	"github.com/sellerdesk/sellerdesk/httpx/pagegate"
)

// SetImportHeld makes every import run held while it holds its place in
// the import gate (set before the first request).
func SetImportHeld(a *App, held func()) { a.imports.held = held }

// LocalGate is the local gate's free slots and waiting requests.
func LocalGate(a *App) (free, waiting int) { return a.local.State() }

// LocalSlots is the local gate's size.
func LocalSlots() int { return pagegate.Slots(runtime.GOMAXPROCS(0)) }

// HoldLocalGate takes every slot of the local gate until release.
func HoldLocalGate(a *App) (release func()) {
	n, _ := a.local.State()
	for i := range n {
		if err := a.local.Acquire(context.Background(), "hold-"+strconv.Itoa(i)); err != nil {
			panic(err)
		}
	}
	return func() {
		for i := range n {
			a.local.Release("hold-" + strconv.Itoa(i))
		}
	}
}

// LocalPerSession is how many slots of the local gate one session may hold.
func LocalPerSession() int { return pagegate.Share(LocalSlots()) }

// SetLocalEntered makes entered run as each request enters the local gate,
// with its session's key and the context its local work runs under (set
// before the first request).
func SetLocalEntered(a *App, entered func(ctx context.Context, who string)) {
	a.local.entered = entered
}

// SetLocalLimit sets the bound of a page's local work (set before the
// first request).
func SetLocalLimit(a *App, d time.Duration) { a.local.limit = d }
