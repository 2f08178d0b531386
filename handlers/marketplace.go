package handlers

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// account is the marketplace account the request's session acts on, its
// tokens kept in the session (accounts.Service.Current).
func (a *App) account(c echo.Context) *apiclient.Account {
	return a.deps.Accounts.Current(session(c))
}

// pageContext bounds how long a page waits out a busy marketplace before it
// says so.
func (a *App) pageContext(c echo.Context) context.Context {
	ctx := boundedContext(c, c.Request().Context(), a.deps.UpstreamTimeout)
	ctx = apiclient.WithSkips(ctx, pageSkips(c))
	return apiclient.WithRetryBudget(ctx, a.deps.PageRetryBudget)
}
