package handlers

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// Lists served from the local copy, or live until the first full copy of
// the seller exists: the read service (browse) decides; search, sort and
// filters are in the URL, so a link reproduces the view.

// sellerKey holds the request's reads of the session's seller.
const sellerKey = "browse.seller"

// seller is the request's reads of the session's seller, made once per
// request: the dispatch and the toolbar's freshness line share the sync
// states it read. A read from the copy enters the page gate first
// (enterLocal); a live one runs within the page's budget for the
// marketplace (pageContext).
func (a *App) seller(c echo.Context) *browse.Seller {
	if s, ok := c.Get(sellerKey).(*browse.Seller); ok {
		return s
	}
	s := a.reads.For(copyKey(c), browse.Access{
		Account: a.account(c),
		Source:  a.copySource(c),
		Live:    func() context.Context { return a.pageContext(c) },
		Checks:  requestChecks(c),
		Enter: func() (context.Context, error) {
			if err := a.enterLocal(c); err != nil {
				return nil, err
			}
			return c.Request().Context(), nil
		},
	})
	c.Set(sellerKey, s)
	return s
}

// fromCopy reports whether the session's lists are served from the copy
// (browse.Seller.FromCopy), for the screens that read the copy through
// their own store calls.
func (a *App) fromCopy(c echo.Context) (bool, error) {
	return a.seller(c).FromCopy(c.Request().Context())
}

// nomenclaturePage is the page of the nomenclature and prices screens q
// describes (browse.Seller.Nomenclature). The page's keyset ends are kept
// in q for the pager; a page read from the end sets q.Page to the last
// page.
func (a *App) nomenclaturePage(c echo.Context, q *listQuery) (*browse.NomenclaturePage, error) {
	p, err := a.seller(c).Nomenclature(c.Request().Context(), q.reads())
	if err != nil {
		return nil, err
	}
	q.Page, q.ends = p.Page, p.Ends
	return p, nil
}

// copyAccepted writes into the session's copy what the marketplace
// accepted of items, sent as kind (massupdate.PatchCopy), in the step
// that records them in the history: the lists, the exports and the
// previews show the new values at once, pending until a read confirms
// them. A copy that cannot take them is logged: the change was made.
func copyAccepted[T any](a *App, c echo.Context, kind massupdate.Kind[T], rep *massupdate.Report, items []T) {
	ctx := c.Request().Context()
	if err := massupdate.PatchCopy(context.WithoutCancel(ctx), a.deps.Catalog.Store(), copyKey(c), kind, rep, items); err != nil {
		a.logger(ctx).Warn("catalogue copy: writing accepted changes failed", "err", err)
	}
}
