package handlers

// Stock and status where the wire profile cannot send them (the lamoda
// profile: apiclient.Client.StockUpdates is false; see docs/CONTRACTS.md).
// NomenclatureList and NomenclatureSubmit (catalog.go) consult these.

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// stockUnavailableMsg is why, as a message kept as data: the rows of a
// refused stock import store it and read it in the user's language.
var stockUnavailableMsg = i18n.Encode(i18n.M("nomenclature.stock_unavailable", nil))

// stockUnavailable is why stock and status cannot be changed (a message
// kept as data), or "" when they can.
func (a *App) stockUnavailable() string {
	if a.deps.API.StockUpdates() {
		return ""
	}
	return stockUnavailableMsg
}

// stockUnavailableIn is stockUnavailable in the language of ctx, for the
// nomenclature page (the bulk import's refusals keep stockUnavailable).
func (a *App) stockUnavailableIn(ctx context.Context) string {
	if a.stockUnavailable() == "" {
		return ""
	}
	return i18n.T(ctx, "nomenclature.stock_unavailable")
}

// stockUnavailableSubmit answers a nomenclature submit in a profile
// without stock updates: nothing is sent, the page says why.
func (a *App) stockUnavailableSubmit(c echo.Context) error {
	session(c).AddFlash("warn", a.stockUnavailableIn(c.Request().Context()))
	return a.redirect(c, catalogQuery(c).link("/nomenclature"))
}
