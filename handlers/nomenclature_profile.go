package handlers

// Stock and status where the marketplace writes them by a filter on the
// seller's SKU (the lamoda profile: apiclient.Client.FilterWrites; see
// docs/CONTRACTS.md). NomenclatureSubmit (nomenclature.go) sends through
// filteredStock: each record's seller SKU is taken from the page the form
// was rendered for, and, for records no longer on it, read by key as a
// preview reads them (previewCatalog): from the local copy once a full
// copy exists, else live page by page under the seller's lock, only until
// they are found.

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// filteredStock pairs each checked change with its record's seller SKU
// (massupdate.PairSellerSKUs).
func (a *App) filteredStock(c echo.Context, q listQuery, acct *apiclient.Account, seller int64, items []apiclient.StoreItem) ([]massupdate.SKUStock, error) {
	p, err := a.nomenclaturePage(c, &q)
	if err != nil {
		return nil, err
	}
	return massupdate.PairSellerSKUs(items, p.Records, func(want massupdate.Want) (*massupdate.Catalog, error) {
		return a.previewCatalog(c, want)
	})
}
