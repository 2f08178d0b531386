package handlers

import "context"

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
	for range n {
		if err := a.local.acquire(context.Background()); err != nil {
			panic(err)
		}
	}
	return func() {
		for range n {
			a.local.release()
		}
	}
}
