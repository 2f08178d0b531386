package handlers

// Stock and status where the wire profile cannot send them (the lamoda
// profile: apiclient.Client.StockUpdates is false; see docs/CONTRACTS.md).
// NomenclatureList and NomenclatureSubmit (catalog.go) consult these.

import "github.com/labstack/echo/v4"

// stockUnavailableText is shown beside the disabled controls.
const stockUnavailableText = "Stock and status changes are not available in this marketplace profile: " +
	"the marketplace's methods for them select products by a filter whose keys are not published, " +
	"and a guess could change every product. Nothing is sent from here; change stock and status in the marketplace's seller portal."

// stockUnavailable is why stock and status cannot be changed, or "" when
// they can.
func (a *App) stockUnavailable() string {
	if a.deps.API.StockUpdates() {
		return ""
	}
	return stockUnavailableText
}

// stockUnavailableSubmit answers a nomenclature submit in a profile
// without stock updates: nothing is sent, the page says why.
func (a *App) stockUnavailableSubmit(c echo.Context) error {
	session(c).AddFlash("warn", stockUnavailableText)
	return a.redirect(c, catalogQuery(c).link("/nomenclature"))
}
