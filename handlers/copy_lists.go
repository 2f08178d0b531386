package handlers

import (
	"context"
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// Lists served from the local copy: search, sort and filters in
// the URL, so a link reproduces the view. Until the first full copy of the
// seller exists, lists read the marketplace live.

// fromCopy reports whether the session's lists are served from the copy:
// the copy is on, a first full copy exists, and it is not revoked. It
// returns the sync state for the freshness line. Serving from the copy
// needs credentials known to work (copyAccess).
func (a *App) fromCopy(c echo.Context) (bool, map[string]copystore.SyncState, error) {
	if a.deps.Catalog == nil {
		return false, nil, nil
	}
	states, err := a.copyStates(c)
	if err != nil {
		return false, nil, err
	}
	if copyComplete(states) {
		if err := a.copyAccess(c); err != nil {
			return false, nil, err
		}
	}
	// catalogUse (sync.go), without asking the manager to find out again
	// what the states just read say.
	k := copyKey(c)
	if err := a.deps.Catalog.Store().Touch(c.Request().Context(), k); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: touch failed", "err", err)
	}
	a.deps.Catalog.UseSeen(k, a.copySource(c), states)
	return copyComplete(states), states, nil
}

// copyStatesKey holds the copy's sync states read for this request.
const copyStatesKey = "catalog.states"

// copyStates reads the sync states of the session's copy once per
// request: the dispatch (fromCopy) and the toolbar's freshness line both
// need them, and a page must describe the states it was served under.
func (a *App) copyStates(c echo.Context) (map[string]copystore.SyncState, error) {
	if st, ok := c.Get(copyStatesKey).(map[string]copystore.SyncState); ok {
		return st, nil
	}
	states, err := a.deps.Catalog.Store().SyncStates(c.Request().Context(), copyKey(c))
	if err != nil {
		return nil, err
	}
	c.Set(copyStatesKey, states)
	return states, nil
}

// nomenclaturePage is the dispatch point of the nomenclature and prices
// screens (catalog.go): one page of records from the copy with the URL's
// search, sort and filters once a full copy exists, else from the
// marketplace. It returns the records, their total and the
// number of pages.
func (a *App) nomenclaturePage(c echo.Context, ctx context.Context, acct func() *apiclient.Account, seller int64, q listQuery) ([]apiclient.Nomenclature, int, int, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, 0, 0, err
	}
	if !ok {
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, 0, 0, err
		}
		defer unlock()
		return fetchCatalogPage(ctx, acct(), seller, q)
	}
	k := copyKey(c)
	cq := q.copyQuery()
	cs := a.deps.Catalog.Store()
	recs := make([]apiclient.Nomenclature, 0, q.Limit)
	total, err := cs.NomenclaturePage(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		recs = append(recs, copyNomenclature(seller, r))
		return nil
	})
	if err == nil {
		return recs, total, max(1, (total+q.Limit-1)/q.Limit), nil
	}
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return nil, 0, 0, copyRevoked()
	case errors.Is(err, copystore.ErrBadSort):
		q.copy.Sort = ""
		return a.nomenclaturePage(c, ctx, acct, seller, q)
	}
	return nil, 0, 0, err
}

// copyNomenclature is a record of the copy as the marketplace lists it. A
// price change accepted through the dashboard and not yet confirmed by a
// read is shown as the marketplace shows a change in flight.
func copyNomenclature(seller int64, r *copystore.Record) apiclient.Nomenclature {
	n := apiclient.Nomenclature{SellerID: seller, WarehouseCode: r.Warehouse, Barcode: r.Barcode, MarketplaceSKU: r.MarketplaceSKU,
		ParentSKU: r.ParentSKU, SellerSKU: r.SellerSKU, Name: r.Name, Brand: r.Brand, Size: r.Size,
		Price: apiclient.Money(r.Price), SalePrice: apiclient.Money(r.SalePrice), Quantity: r.Quantity, Status: r.Status,
		PriceUpdateStatus: r.PriceStatus, UpdatedAt: r.UpdatedAt}
	if r.Pending != nil {
		n.Price, n.SalePrice, n.PriceUpdateStatus = apiclient.Money(r.Pending.Price), apiclient.Money(r.Pending.SalePrice), "PROCESSING"
	}
	return n
}

// copyPricesAccepted patches the copy with the price changes the
// marketplace accepted (the dispatch point of the prices forms, prices.go
// and prices_cards.go): every record of each SKU, or of each product card
// in the lamoda profile, shows the new prices at once, marked pending
// until the next read confirms them. item gives the i-th of n items sent:
// its report key (a SKU or a card) and its prices.
func (a *App) copyPricesAccepted(c echo.Context, rep *massupdate.Report, n int, item func(i int) (string, apiclient.PriceUpdate)) {
	if a.deps.Catalog == nil || rep == nil {
		return
	}
	var changes []copystore.PriceChange
	for i := range n {
		key, u := item(i)
		if rep.Outcomes[key].State != massupdate.Accepted {
			continue
		}
		ch := copystore.PriceChange{SKU: key, Price: u.Price.Kopecks()}
		if u.SalePrice != nil {
			ch.SalePrice = u.SalePrice.Kopecks()
		}
		changes = append(changes, ch)
	}
	if len(changes) == 0 {
		return
	}
	if err := a.deps.Catalog.Store().MarkPending(context.WithoutCancel(c.Request().Context()), copyKey(c), changes); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: marking accepted prices failed", "err", err)
	}
}

// copyListPage reads a page of a list from the copy k (orders, return
// boxes) with page (copystore's OrdersPage, BoxesPage): its total and its
// rows. badSort reports a sort the list does not have (the caller reads
// again in the default order); a revoked copy is refused.
func copyListPage[T any](ctx context.Context, k copystore.Key, cq copystore.Query,
	page func(context.Context, copystore.Key, copystore.Query) (int, []T, error)) (total int, out []T, badSort bool, err error) {
	total, out, err = page(ctx, k, cq)
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return 0, nil, false, copyRevoked()
	case errors.Is(err, copystore.ErrBadSort):
		return 0, nil, true, nil
	}
	return total, out, false, err
}
