package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/htmx"
	"github.com/sellerdesk/sellerdesk/httpx/realip"
	"github.com/sellerdesk/sellerdesk/httpx/reqlog"
)

// The HTTP plumbing of httpx/htmx, httpx/realip and httpx/reqlog under the short
// names the handlers use.

func isHTMX(r *http.Request) bool        { return htmx.IsRequest(r) }
func wantsFragment(r *http.Request) bool { return htmx.WantsFragment(r) }

// resultsTarget is the id of the element a list's live search replaces
// (pages.CopySearch's hx-target).
const resultsTarget = "copy-results"

// wantsResults reports whether a request is a list's live search, answered
// with the list's results alone.
func wantsResults(r *http.Request) bool { return htmx.WantsTarget(r, resultsTarget) }

func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr { return realip.ClientIP(r, trusted) }

// requestIDOf returns the request id of a context, or "".
func requestIDOf(ctx context.Context) string { return reqlog.ID(ctx) }

// logger returns the request's logger (with its request id).
func (a *App) logger(ctx context.Context) *slog.Logger {
	return reqlog.Logger(ctx, a.deps.Logger)
}

// redirect sends the browser to a local path after saving the session
// (htmx.Redirect: a 303, or HX-Redirect for htmx).
func (a *App) redirect(c echo.Context, to string) error {
	if err := a.saveSession(c); err != nil {
		return err
	}
	htmx.Redirect(c.Response(), c.Request(), to)
	return nil
}
