package handlers

import (
	"time"

	"github.com/labstack/echo/v4"
)

// Observer is told what the dashboard serves, for metrics. Its methods run
// on the request's goroutine and must not block.
type Observer interface {
	// Request reports a request once answered: route is the route's
	// template (echo's c.Path(), "/*" or "" when none matched; never the
	// raw path), method the request's method as the client sent it.
	Request(route, method string, status int, d time.Duration)
	// GateWait reports how long a page waited for a slot of the local
	// gate.
	GateWait(d time.Duration)
}

// GateState is the local gate now: the slots free and the pages waiting
// for one (metrics read it when scraped).
func (a *App) GateState() (free, waiting int) { return a.local.State() }

// observeRequest tells the observer of an answered request, by its route
// template.
func (a *App) observeRequest(c echo.Context, took time.Duration) {
	if o := a.deps.Observer; o != nil {
		o.Request(c.Path(), c.Request().Method, c.Response().Status, took)
	}
}
