package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// overviewParallel bounds the marketplace reads the overview runs at once.
const overviewParallel = 3

// Overview is the start page: which account this is, how its tokens stand,
// and how many orders, products and return boxes are in each status.
func (a *App) Overview(c echo.Context) error {
	if a.deps.Catalog != nil {
		return a.overviewFromCopy(c)
	}
	sess := session(c)
	d := sess.Data()
	acct := a.account(c)
	ctx := a.pageContext(c)
	v := pages.Overview{ClientID: d.ClientID, Environment: d.Environment, SellerID: d.SellerID}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(overviewParallel)
	var mu sync.Mutex
	// Totals per status come from one-row pages: the list's total says it.
	orderCounts := make([]int, len(orderStatuses))
	boxCounts := make([]int, len(boxStatuses))
	for i, s := range orderStatuses {
		g.Go(func() error {
			list, err := acct.B2B.ListOrders(gctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 1, Status: s})
			if err == nil {
				orderCounts[i] = list.Total
			}
			return err
		})
	}
	for i, s := range boxStatuses {
		g.Go(func() error {
			list, err := acct.ReturnBoxes.List(gctx, &apiclient.ListReturnBoxesOptions{SellerID: d.SellerID, Page: 1, Limit: 1, Status: s})
			if err == nil {
				boxCounts[i] = list.Total
			}
			return err
		})
	}
	// The nomenclature list has no status filter: count while walking it.
	nomCounts := map[string]int{}
	g.Go(func() error {
		for n, err := range acct.Seller.AllNomenclatures(gctx, &apiclient.ListNomenclaturesRequest{SellerID: d.SellerID, Limit: upstreamPageLimit}) {
			if err != nil {
				return err
			}
			mu.Lock()
			nomCounts[n.Status]++
			mu.Unlock()
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	for i, s := range orderStatuses {
		v.Orders = append(v.Orders, pages.Count{Status: s, Count: orderCounts[i], Href: paths.Filtered(at(c, paths.Orders), "status", s)})
		v.OrdersTotal += orderCounts[i]
	}
	for i, s := range boxStatuses {
		v.Boxes = append(v.Boxes, pages.Count{Status: s, Count: boxCounts[i], Href: paths.Filtered(at(c, paths.ReturnBoxes), "status", s)})
		v.BoxesTotal += boxCounts[i]
	}
	for _, s := range nomenclatureStatuses {
		v.Nomenclature = append(v.Nomenclature, pages.Count{Status: s, Count: nomCounts[s]})
		v.NomenclatureTotal += nomCounts[s]
		delete(nomCounts, s)
	}
	for s, n := range nomCounts { // statuses we have not seen before
		v.Nomenclature = append(v.Nomenclature, pages.Count{Status: s, Count: n})
		v.NomenclatureTotal += n
	}

	if err := a.tokenStates(c, &v); err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.OverviewPage(a.chrome(c, i18n.T(c.Request().Context(), "overview.title"), "overview"), v, nil, nil), nil)
}

// tokenStates fills in how the session's tokens stand.
func (a *App) tokenStates(c echo.Context, v *pages.Overview) error {
	sess := session(c)
	ctx := c.Request().Context()
	now := a.deps.Now()
	for _, name := range []string{"b2b/" + sess.Data().Environment, "seller"} {
		full := sess.Data().Current().ID() + "/" + name
		t, ok := sess.ReadToken(ctx, full) // as read with the session; the store when refreshed since
		if !ok {
			var err error
			if t, ok, err = a.deps.Sessions.LoadToken(ctx, sess.ID(), full); err != nil {
				return errSessionStore(err)
			}
		}
		label := "Seller API"
		if name != "seller" {
			label = "B2B API"
		}
		v.Tokens = append(v.Tokens, pages.TokenState{Name: label, Present: ok, ExpiresIn: durationIn(c.Request().Context(), t.ExpiresAt.Sub(now))})
	}
	return nil
}

// overviewFromCopy is the start page from the local copy: it
// never reads the marketplace, answers at once with what the copy holds so
// far, and says how fresh that is. Opening it starts a sync when the copy
// is older than the interval.
func (a *App) overviewFromCopy(c echo.Context) error {
	d := session(c).Data()
	k := copyKey(c)
	if err := a.copyAccess(c); err != nil {
		return err
	}
	if err := a.enterLocal(c); err != nil {
		return err
	}
	ov, err := a.deps.Catalog.Store().Overview(c.Request().Context(), k)
	if errors.Is(err, copystore.ErrRevoked) {
		return copyRevoked()
	}
	if err != nil {
		return err
	}
	a.catalogUse(c, ov.Sync)
	v := pages.Overview{ClientID: d.ClientID, Environment: d.Environment, SellerID: d.SellerID}
	v.Orders, v.OrdersTotal = countsOf(orderStatuses, ov.OrdersByStatus, at(c, paths.Orders))
	v.Nomenclature, v.NomenclatureTotal = countsOf(nomenclatureStatuses, ov.RecordsByStatus, at(c, paths.Nomenclature))
	v.Boxes, v.BoxesTotal = countsOf(boxStatuses, ov.BoxesByStatus, at(c, paths.ReturnBoxes))
	if err := a.tokenStates(c, &v); err != nil {
		return err
	}
	sv := a.syncView(c.Request().Context(), ov.Sync, false)
	v.Copying = sv.AsOf == "" && sv.Error == "" // the first copy: counts of nothing yet are not 0
	ctx := c.Request().Context()
	actions := []pages.NeedsAction{
		{Label: i18n.T(ctx, "overview.new_orders"), Href: paths.Filtered(at(c, paths.Orders), "status", "new"), Count: ov.NewOrders},
		{Label: i18n.T(ctx, "overview.rejected"), Href: paths.Filtered(at(c, paths.Nomenclature), "status", "rejected"), Count: ov.Rejected},
		{Label: i18n.T(ctx, "overview.out_of_stock"), Href: paths.Filtered(at(c, paths.Nomenclature), "stock", "0"), Count: ov.ZeroStock},
		{Label: i18n.T(ctx, "overview.boxes_loading"), Href: paths.Filtered(at(c, paths.ReturnBoxes), "status", "loading"), Count: ov.BoxesLoading},
	}
	v.Accounts, err = a.accountLines(c)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.OverviewPage(a.chrome(c, i18n.T(c.Request().Context(), "overview.title"), "overview"), v, &sv, actions), nil)
}

// accountLines is the overview's line per account of a session holding
// several: what needs action today and how fresh its copy is, from the
// local copies only (no marketplace call), each count linked to that
// account's filtered list.
func (a *App) accountLines(c echo.Context) ([]pages.AccountLine, error) {
	list := session(c).Data().AccountList()
	if len(list) < 2 {
		return nil, nil
	}
	ctx := c.Request().Context()
	keys := make([]copystore.Key, len(list))
	for i, acct := range list {
		keys[i] = copystore.Key{SellerID: acct.SellerID, Env: acct.Environment}
	}
	ovs, err := a.deps.Catalog.Store().Overviews(ctx, keys) // every copy in three reads
	if err != nil {
		return nil, err
	}
	out := make([]pages.AccountLine, 0, len(list))
	for i, acct := range list {
		id := acct.ID()
		line := pages.AccountLine{Label: accountLabel(c, acct), Environment: acct.Environment, Href: paths.Of(id, paths.Overview)}
		ov, err := ovs.Of(keys[i])
		switch {
		case errors.Is(err, copystore.ErrRevoked):
			line.Unavailable = true
		case err != nil:
			return nil, err
		default:
			line.AsOf = a.syncView(ctx, ov.Sync, false).AsOf
			line.Actions = []pages.NeedsAction{
				{Label: i18n.T(ctx, "overview.new_orders"), Href: paths.Filtered(paths.Of(id, paths.Orders), "status", "new"), Count: ov.NewOrders},
				{Label: i18n.T(ctx, "overview.rejected"), Href: paths.Filtered(paths.Of(id, paths.Nomenclature), "status", "rejected"), Count: ov.Rejected},
				{Label: i18n.T(ctx, "overview.out_of_stock"), Href: paths.Filtered(paths.Of(id, paths.Nomenclature), "stock", "0"), Count: ov.ZeroStock},
				{Label: i18n.T(ctx, "overview.boxes_loading"), Href: paths.Filtered(paths.Of(id, paths.ReturnBoxes), "status", "loading"), Count: ov.BoxesLoading},
			}
		}
		out = append(out, line)
	}
	return out, nil
}

// countsOf lists the counts of the known statuses in their order, then any
// status not known before, each linked to its filtered list (list, by status).
func countsOf(known []string, m map[string]int, list string) ([]pages.Count, int) {
	var out []pages.Count
	total := 0
	for _, s := range known {
		out = append(out, pages.Count{Status: s, Count: m[s], Href: paths.Filtered(list, "status", s)})
		total += m[s]
	}
	extra := make([]string, 0, len(m))
	for s := range m {
		if !slices.Contains(known, s) {
			extra = append(extra, s)
		}
	}
	slices.Sort(extra)
	for _, s := range extra {
		out = append(out, pages.Count{Status: s, Count: m[s], Href: paths.Filtered(list, "status", s)})
		total += m[s]
	}
	return out, total
}

// durationIn is format.Duration with its units in the language of ctx:
// "2 h 5 min" / "2 ч 5 мин", "expired" / «истёк».
func durationIn(ctx context.Context, d time.Duration) string {
	if d <= 0 {
		return i18n.T(ctx, "overview.expired")
	}
	units := map[string]string{"s": i18n.T(ctx, "overview.unit_s"), "min": i18n.T(ctx, "overview.unit_min"), "h": i18n.T(ctx, "overview.unit_h")}
	f := strings.Fields(format.Duration(d))
	for i, w := range f {
		if u, ok := units[w]; ok {
			f[i] = u
		}
	}
	return strings.Join(f, " ")
}
