package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// readyTimeout bounds /readyz's check: a database that does not answer
// within it is not ready.
const readyTimeout = time.Second

// readyz answers a load balancer's readiness probe: 200 when Deps.Ready
// finds this instance able to serve, 503 when it does not (the database
// does not answer, or shutdown has begun). No session, no marketplace call;
// the reason goes to the log, never to the answer.
func (a *App) readyz(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if a.deps.Ready != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
		defer cancel()
		if err := a.deps.Ready(ctx); err != nil {
			a.logger(c.Request().Context()).Warn("not ready", "err", err)
			return c.String(http.StatusServiceUnavailable, "not ready\n")
		}
	}
	return c.String(http.StatusOK, "ready\n")
}
