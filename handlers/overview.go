package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// Overview is the start page: which account this is, how its tokens stand,
// how many orders, products and return boxes are in each status
// (browse.Seller.Overview: from the local copy, which it never leaves for
// the marketplace, when copies are kept) and, from the copy, what needs
// action today and how fresh that is.
func (a *App) Overview(c echo.Context) error {
	ctx := c.Request().Context()
	list := session(c).Data().AccountList()
	var ov *browse.Overview
	var glances []browse.Glance
	var err error
	if len(list) < 2 {
		ov, err = a.seller(c).Overview(ctx)
	} else {
		ov, glances, err = a.seller(c).OverviewAll(ctx, copyKeys(list)) // every copy in one read
	}
	if err != nil {
		return err
	}
	d := session(c).Data()
	v := pages.Overview{ClientID: d.ClientID, Environment: d.Environment, SellerID: d.SellerID}
	v.Orders, v.OrdersTotal = counts(ov.Orders, at(c, paths.Orders))
	v.Nomenclature, v.NomenclatureTotal = counts(ov.Nomenclature, at(c, paths.Nomenclature))
	v.Boxes, v.BoxesTotal = counts(ov.Boxes, at(c, paths.ReturnBoxes))
	if err := a.tokenStates(c, &v); err != nil {
		return err
	}
	title := i18n.T(ctx, "overview.title")
	sv := a.syncView(ctx, ov.Sync, false)
	v.Copying = sv.AsOf == "" && sv.Error == "" // the first copy: counts of nothing yet are not 0
	actions := needsAction(ctx, ov.NewOrders, ov.Rejected, ov.ZeroStock, ov.BoxesLoading, func(p string) string { return at(c, p) })
	v.Accounts = a.accountLines(c, list, glances)
	return a.render(c, http.StatusOK, pages.OverviewPage(a.chrome(c, title, "overview"), v, &sv, actions), nil)
}

// needsAction is the overview's "needs action today" of one account, each
// count linked to its filtered list (link makes a path the account's).
func needsAction(ctx context.Context, newOrders, rejected, zeroStock, loading int, link func(string) string) []pages.NeedsAction {
	return []pages.NeedsAction{
		{Label: i18n.T(ctx, "overview.new_orders"), Href: paths.Filtered(link(paths.Orders), "status", "new"), Count: newOrders},
		{Label: i18n.T(ctx, "overview.rejected"), Href: paths.Filtered(link(paths.Nomenclature), "status", "rejected"), Count: rejected},
		{Label: i18n.T(ctx, "overview.out_of_stock"), Href: paths.Filtered(link(paths.Nomenclature), "stock", "0"), Count: zeroStock},
		{Label: i18n.T(ctx, "overview.boxes_loading"), Href: paths.Filtered(link(paths.ReturnBoxes), "status", "loading"), Count: loading},
	}
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

// accountLines is the overview's line per account of a session holding
// several (list, and gs their glances in the same order): what needs
// action today and how fresh its copy is, from the local copies only (no
// marketplace call), each count linked to that account's filtered list.
func (a *App) accountLines(c echo.Context, list []sessions.Account, gs []browse.Glance) []pages.AccountLine {
	if len(list) < 2 {
		return nil
	}
	ctx := c.Request().Context()
	out := make([]pages.AccountLine, 0, len(list))
	for i, acct := range list {
		id := acct.ID()
		line := pages.AccountLine{Label: accountLabel(c, acct), Environment: acct.Environment, Href: paths.Of(id, paths.Overview)}
		if g := gs[i]; g.Unavailable {
			line.Unavailable = true
		} else {
			line.AsOf = a.syncView(ctx, g.Sync, false).AsOf
			line.Actions = needsAction(ctx, g.NewOrders, g.Rejected, g.ZeroStock, g.BoxesLoading, func(p string) string { return paths.Of(id, p) })
		}
		out = append(out, line)
	}
	return out
}

// copyKeys are the copies of the accounts of list, in its order.
func copyKeys(list []sessions.Account) []copystore.Key {
	keys := make([]copystore.Key, len(list))
	for i, acct := range list {
		keys[i] = copystore.Key{SellerID: acct.SellerID, Env: acct.Environment}
	}
	return keys
}

// counts are a list's counts by status, each linked to the list filtered
// by it (none when list is ""), and their total.
func counts(cs []browse.Count, list string) ([]pages.Count, int) {
	out := make([]pages.Count, len(cs))
	for i, n := range cs {
		out[i] = pages.Count{Status: n.Status, Count: n.Count}
		if list != "" {
			out[i].Href = paths.Filtered(list, "status", n.Status)
		}
	}
	return out, browse.Total(cs)
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
