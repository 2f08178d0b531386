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
// (empty when the record is not found: the engine refuses that row with
// a reason, nothing sent for it).
func (a *App) filteredStock(c echo.Context, q listQuery, acct *apiclient.Account, seller int64, items []apiclient.StoreItem) ([]massupdate.SKUStock, error) {
	skus := make(map[string]string, len(items))
	p, err := a.nomenclaturePage(c, &q)
	if err != nil {
		return nil, err
	}
	for _, n := range p.Records {
		skus[n.WarehouseCode+"|"+n.Barcode] = n.SellerSKU
	}
	missing := massupdate.Want{Keys: map[string]bool{}}
	for _, it := range items {
		if k := massupdate.Stock.Key(it); skus[k] == "" {
			missing.Keys[k] = true
		}
	}
	if !missing.Empty() {
		cat, err := a.previewCatalog(c, missing)
		if err != nil {
			return nil, err
		}
		for k := range missing.Keys {
			if n, ok := cat.ByKey[k]; ok {
				skus[k] = n.SellerSKU
			}
		}
	}
	out := make([]massupdate.SKUStock, len(items))
	for i, it := range items {
		out[i] = massupdate.SKUStock{StoreItem: it, SellerSKU: skus[massupdate.Stock.Key(it)]}
	}
	return out, nil
}
