package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// contentSecurityPolicy allows only our own scripts and styles: no inline
// script, no eval, no framing, forms post only to us.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// securityHeaders sets the headers every response carries (the outermost
// handler sets them too, for answers given before Echo runs).
func (a *App) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		setSecurityHeaders(c.Response().Header())
		return next(c)
	}
}

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

const cleanupKey = "cleanup"

// boundUpstream bounds the marketplace calls of a request by
// Deps.UpstreamTimeout. The cancel functions of inner bounds (see
// boundedContext) run when the request ends.
func (a *App) boundUpstream(next echo.HandlerFunc) echo.HandlerFunc {
	return a.upstreamBudget(next, true)
}

// boundPerChunk is boundUpstream for the mass-update forms: they are
// bounded per chunk instead (see massupdate.Send), and their page reload by
// pageContext.
func (a *App) boundPerChunk(next echo.HandlerFunc) echo.HandlerFunc {
	return a.upstreamBudget(next, false)
}

func (a *App) upstreamBudget(next echo.HandlerFunc, bound bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		var cleanup []func()
		c.Set(cleanupKey, &cleanup)
		defer func() {
			for _, f := range cleanup {
				f()
			}
		}()
		orig := c.Request().Context()
		if bound {
			ctx, cancel := context.WithTimeout(orig, a.deps.UpstreamTimeout)
			defer cancel()
			c.SetRequest(c.Request().WithContext(ctx))
		}
		err := next(c)
		// The error page is rendered after this returns, and must not
		// inherit an expired deadline; parsed form values stay.
		c.SetRequest(c.Request().WithContext(orig))
		return err
	}
}

// boundedContext returns ctx bounded by d, cancelled at the latest when the
// request ends.
func boundedContext(c echo.Context, ctx context.Context, d time.Duration) context.Context {
	list, ok := c.Get(cleanupKey).(*[]func())
	if !ok {
		return ctx // outside boundUpstream (not a page route): nothing to bound
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return ctx // already bounded at least as tightly (a page route's own budget)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	*list = append(*list, cancel)
	return ctx
}
