package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// isHTMX reports whether htmx sent the request.
func isHTMX(r *http.Request) bool {
	return r.Header.Get("HX-Request") == "true"
}

// wantsFragment reports whether the answer should be a fragment rather than
// a whole page: an htmx request that is neither boosted nor a history
// restore (both of which replace the whole body).
func wantsFragment(r *http.Request) bool {
	return isHTMX(r) && r.Header.Get("HX-Boosted") != "true" && r.Header.Get("HX-History-Restore-Request") != "true"
}

// redirect sends the browser to a local path after saving the session: a
// 303 for plain requests, HX-Redirect for htmx (which would otherwise swap
// the target page into a fragment).
func (a *App) redirect(c echo.Context, to string) error {
	if err := a.saveSession(c); err != nil {
		return err
	}
	if isHTMX(c.Request()) {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// resultsTarget is the id of the element a list's live search replaces
// (pages.CopySearch's hx-target).
const resultsTarget = "copy-results"

// wantsResults reports whether a request is a list's live search: htmx,
// aimed at the list's results, and not a history restore (which wants the
// whole page).
func wantsResults(r *http.Request) bool {
	return isHTMX(r) && r.Header.Get("HX-Target") == resultsTarget && r.Header.Get("HX-History-Restore-Request") != "true"
}
