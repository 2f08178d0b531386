package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// skipsKey holds the request's tally of marketplace records left out
// because they could not be read (see apiclient.Skips).
const skipsKey = "sellerdesk.skips"

// pageSkips returns the request's tally, creating it on first use. Every
// marketplace call made with pageContext adds to it; the page's chrome
// shows the total.
func pageSkips(c echo.Context) *apiclient.Skips {
	if s, ok := c.Get(skipsKey).(*apiclient.Skips); ok {
		return s
	}
	s := &apiclient.Skips{}
	c.Set(skipsKey, s)
	return s
}

// noteSkipped returns how many records the page leaves out, and logs why
// the first could not be read, with the marketplace answer's request id
// beside the page's own.
func (a *App) noteSkipped(c echo.Context) int {
	s, ok := c.Get(skipsKey).(*apiclient.Skips)
	if !ok || s.Count() == 0 {
		return 0
	}
	reason, upstream := s.First()
	a.logger(c.Request().Context()).Warn("marketplace records left out of the page",
		"skipped", s.Count(), "reason", reason, "upstream_request_id", upstream)
	return s.Count()
}
