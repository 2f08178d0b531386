// Package probe is HTTP plumbing: the answers to a load balancer's
// liveness and readiness probes. Neither touches a session or the
// marketplace, and neither may be cached.
package probe

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// readyTimeout bounds a readiness check: a database that does not answer
// within it is not ready.
const readyTimeout = time.Second

// Live answers /healthz: the process serves.
func Live(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.String(http.StatusOK, "ok\n")
}

// Ready answers /readyz: 200 when check finds the instance able to serve
// within a second, 503 when it does not (its database does not answer,
// shutdown has begun). The reason goes to log, never to the answer; a nil
// check is always ready.
func Ready(check func(context.Context) error, log func(context.Context) *slog.Logger) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		if check != nil {
			ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
			defer cancel()
			if err := check(ctx); err != nil {
				log(c.Request().Context()).Warn("not ready", "err", err)
				return c.String(http.StatusServiceUnavailable, "not ready\n")
			}
		}
		return c.String(http.StatusOK, "ready\n")
	}
}
