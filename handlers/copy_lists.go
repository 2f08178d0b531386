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
// number of pages. A page from the copy is placed by the URL's cursor
// when it has one that fits the sort (else by its page number), and its
// ends are kept in q for the pager; the last page, read from the end,
// sets q.Page to the number of pages.
func (a *App) nomenclaturePage(c echo.Context, ctx context.Context, acct func() *apiclient.Account, seller int64, q *listQuery) ([]apiclient.Nomenclature, int, int, error) {
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
		return fetchCatalogPage(ctx, acct(), seller, *q)
	}
	if err := a.enterLocal(c); err != nil {
		return nil, 0, 0, err
	}
	var cur *copystore.Cursor
	if text := c.QueryParam("cursor"); text != "" {
		if p, err := copystore.ParseCursor(text); err == nil && p.Sort == q.copy.Sort {
			cur = &p
		}
	}
	return a.copyNomenclaturePage(c, seller, q, cur)
}

// copyNomenclaturePage reads the page of q from the copy, placed by cur
// when not nil (a cursor the store refuses falls back to the page
// number).
func (a *App) copyNomenclaturePage(c echo.Context, seller int64, q *listQuery, cur *copystore.Cursor) ([]apiclient.Nomenclature, int, int, error) {
	k := copyKey(c)
	cq := q.copyQuery()
	cq.Cursor = cur
	cs := a.deps.Catalog.Store()
	recs := make([]apiclient.Nomenclature, 0, q.Limit)
	var first, last copystore.Record
	total, err := cs.NomenclaturePage(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		if len(recs) == 0 {
			first = *r
		}
		last = *r
		recs = append(recs, copyNomenclature(seller, r))
		return nil
	})
	if err == nil {
		npages := max(1, (total+q.Limit-1)/q.Limit)
		if cur != nil && cur.End {
			q.Page = npages
		}
		q.ends = newPageEnds(q.copy.Sort, recs, &first, &last)
		return recs, total, npages, nil
	}
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return nil, 0, 0, copyRevoked()
	case errors.Is(err, copystore.ErrBadCursor):
		return a.copyNomenclaturePage(c, seller, q, nil)
	case errors.Is(err, copystore.ErrBadSort):
		// Read in the list order; the links keep the URL's sort and
		// go by page number.
		qq := *q
		qq.copy.Sort = ""
		return a.copyNomenclaturePage(c, seller, &qq, nil)
	}
	return nil, 0, 0, err
}

// pageEnds are the keyset positions at the ends of a page read from the
// copy: after its last record and before its first, in its sort.
type pageEnds struct {
	sort        string
	first, last copystore.Cursor
}

// newPageEnds are the ends of a page of recs sorted by sort, first and
// last its first and last records; nil for an empty page.
func newPageEnds(sort string, recs []apiclient.Nomenclature, first, last *copystore.Record) *pageEnds {
	if len(recs) == 0 {
		return nil
	}
	e := &pageEnds{sort: sort}
	var err error
	if e.first, err = copystore.CursorAt(sort, first); err != nil {
		return nil
	}
	if e.last, err = copystore.CursorAt(sort, last); err != nil {
		return nil
	}
	e.first.Before = true
	return e
}

// cursorTo is the cursor text of the pager link from page from to page p
// of pages (limit records each), or "" where the link goes by page
// number: the first page, pages not next to from, a position too long
// for a link. The next page and the one after start after from's last
// record, the previous page and the one before end before its first,
// and the last page is read from the end.
func (e *pageEnds) cursorTo(from, p, pages, limit int) string {
	if e == nil || p <= 1 || p == from {
		return ""
	}
	var c copystore.Cursor
	switch {
	case p == pages:
		c = copystore.Cursor{Sort: e.sort, Before: true, End: true}
	case p == from+1 || p == from+2:
		c = e.last
		c.Skip = (p - from - 1) * limit
	case p == from-1 || p == from-2:
		c = e.first
		c.Skip = (from - p - 1) * limit
	default:
		return ""
	}
	text, _ := c.Text()
	return text
}

// copyNomenclature is a record of the copy as the marketplace lists it. A
// price change accepted through the dashboard and not yet confirmed by a
// read is shown as the marketplace shows a change in flight; a quantity
// or a status so accepted is the record's, marked pending.
func copyNomenclature(seller int64, r *copystore.Record) apiclient.Nomenclature {
	n := apiclient.Nomenclature{SellerID: seller, WarehouseCode: r.Warehouse, Barcode: r.Barcode, MarketplaceSKU: r.MarketplaceSKU,
		ParentSKU: r.ParentSKU, SellerSKU: r.SellerSKU, Name: r.Name, Brand: r.Brand, Size: r.Size,
		Price: apiclient.Money(r.Price), SalePrice: apiclient.Money(r.SalePrice), Quantity: r.Quantity, Status: r.Status,
		PriceUpdateStatus: r.PriceStatus, UpdatedAt: r.UpdatedAt, QuantityPending: r.QuantityPending, StatusPending: r.StatusPending}
	if r.Pending != nil {
		n.Price, n.SalePrice, n.PriceUpdateStatus = apiclient.Money(r.Pending.Price), apiclient.Money(r.Pending.SalePrice), "PROCESSING"
	}
	return n
}

// copyAccepted writes into the session's copy what the marketplace
// accepted of items, sent as kind (massupdate.PatchCopy), in the step
// that records them in the history: the lists, the exports and the
// previews show the new values at once, pending until a read confirms
// them. A copy that cannot take them is logged: the change was made.
func copyAccepted[T any](a *App, c echo.Context, kind massupdate.Kind[T], rep *massupdate.Report, items []T) {
	if a.deps.Catalog == nil {
		return
	}
	ctx := c.Request().Context()
	if err := massupdate.PatchCopy(context.WithoutCancel(ctx), a.deps.Catalog.Store(), copyKey(c), kind, rep, items); err != nil {
		a.logger(ctx).Warn("catalogue copy: writing accepted changes failed", "err", err)
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
