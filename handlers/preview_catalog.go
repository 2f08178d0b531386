package handlers

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// previewCatalog reads the current values of the records want names, for
// a preview and for a submit's check that they did not change since: from
// the local copy once a full copy of the seller exists, without a
// marketplace call; else live, page by page under the seller's lock (one
// request of the seller in flight) and only until every record is found.
func (a *App) previewCatalog(c echo.Context, want massupdate.Want) (*massupdate.Catalog, error) {
	ok, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	seller := session(c).Data().SellerID
	if !ok {
		return a.deps.Engine.FetchWanted(a.pageContext(c), a.account(c), seller, want)
	}
	cat, err := a.copyCatalog(c.Request().Context(), copyKey(c), seller, want)
	if errors.Is(err, copystore.ErrRevoked) {
		return nil, copyRevoked()
	}
	return cat, err
}

// wantRows names the records a file's rows concern; in the lamoda profile
// a price file's cards with all their sizes.
func (a *App) wantRows(kind string, t *bulkjobs.Table, m bulkjobs.Mapping) massupdate.Want {
	w := massupdate.WantRows(kind, t, m)
	w.Cards = kind != "stock" && a.deps.API.PricesByCard()
	return w
}

// copyCatalog reads the records want names from the copy k, with what
// the last changes accepted through the dashboard replaced of them.
func (a *App) copyCatalog(ctx context.Context, k copystore.Key, seller int64, want massupdate.Want) (*massupdate.Catalog, error) {
	cs := a.deps.Catalog.Store()
	cat := massupdate.NewCatalog()
	add := func(r *copystore.Record) error {
		cat.Add(browse.Listed(seller, r))
		return nil
	}
	l := copystore.Lookup{SKUs: slices.Collect(maps.Keys(want.SKUs))}
	for key := range want.Keys {
		// A key is warehouse|barcode; a warehouse code with a "|" of its
		// own is looked up at every split.
		for i := range len(key) {
			if key[i] == '|' {
				l.Stock = append(l.Stock, copystore.StockKey{Warehouse: key[:i], Barcode: key[i+1:]})
			}
		}
	}
	if err := cs.LookupNomenclature(ctx, k, l, add); err != nil {
		return cat, err
	}
	cards := map[string]bool{}
	for sku := range want.SKUs {
		if n, ok := cat.BySKU[sku]; ok && n.ParentSKU != "" && want.Cards {
			cards[n.ParentSKU] = true
		}
	}
	if len(cards) > 0 {
		if err := cs.LookupNomenclature(ctx, k, copystore.Lookup{Cards: slices.Collect(maps.Keys(cards))}, add); err != nil {
			return cat, err
		}
	}
	// What the dashboard's last changes of these records replaced: a
	// row asking for it again would undo a change made since its file.
	keys := make([]copystore.StockKey, 0, len(cat.ByKey))
	for _, n := range cat.ByKey {
		keys = append(keys, copystore.StockKey{Warehouse: n.WarehouseCode, Barcode: n.Barcode})
	}
	replaced, err := cs.Replacements(ctx, k, keys)
	if err != nil {
		return cat, err
	}
	for sk, r := range replaced {
		cat.Replaced[massupdate.StockKey(sk.Warehouse, sk.Barcode)] = r
	}
	return cat, nil
}

// queueable keeps the rows a submit may queue: those it checks against
// the catalogue.
func queueable(items []bulkjobs.Item) []bulkjobs.Item {
	out := make([]bulkjobs.Item, 0, len(items))
	for _, it := range items {
		if it.Flag == bulkjobs.FlagOK || it.Flag == bulkjobs.FlagGuard {
			out = append(out, it)
		}
	}
	return out
}
