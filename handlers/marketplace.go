package handlers

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/httpx/budget"
)

// account is the marketplace account the request's session acts on, its
// tokens kept in the session (accounts.Service.Current).
func (a *App) account(c echo.Context) *accounts.Account {
	return a.deps.Accounts.Current(session(c))
}

// pageKey holds the request's accounts.Page: its marketplace bounds and
// the tally of the records its reads left out.
const pageKey = "sellerdesk.page"

// pageContext is the context of a page's marketplace reads
// (accounts.Page.Context): bounded by Deps.UpstreamTimeout until the
// request ends, waiting out a busy marketplace for Deps.PageRetryBudget
// before the page says so, every record left out counted for the page's
// frame (noteSkipped).
func (a *App) pageContext(c echo.Context) context.Context {
	p, ok := c.Get(pageKey).(*accounts.Page)
	if !ok {
		p = &accounts.Page{}
		c.Set(pageKey, p)
	}
	timeout := a.deps.UpstreamTimeout
	if !budget.Within(c) {
		timeout = 0 // not a page route: nothing to bound
	}
	ctx, cancel := p.Context(c.Request().Context(), timeout, a.deps.PageRetryBudget)
	budget.OnEnd(c, cancel)
	return ctx
}

// noteSkipped returns how many records the page leaves out, and logs why
// the first could not be read, with the marketplace answer's request id
// beside the page's own.
func (a *App) noteSkipped(c echo.Context) int {
	p, ok := c.Get(pageKey).(*accounts.Page)
	if !ok {
		return 0
	}
	n, reason, upstream := p.Skipped()
	if n > 0 {
		a.logger(c.Request().Context()).Warn("marketplace records left out of the page",
			"skipped", n, "reason", reason, "upstream_request_id", upstream)
	}
	return n
}
