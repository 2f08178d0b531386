package handlers

import (
	"net/http"
	"net/url"
	"sync"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// overviewParallel bounds the marketplace reads the overview runs at once.
const overviewParallel = 3

// Overview is the start page: which account this is, how its tokens stand,
// and how many orders, products and return boxes are in each status.
func (a *App) Overview(c echo.Context) error {
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
		v.Orders = append(v.Orders, pages.Count{Status: s, Count: orderCounts[i], Href: "/orders?status=" + url.QueryEscape(s)})
		v.OrdersTotal += orderCounts[i]
	}
	for i, s := range boxStatuses {
		v.Boxes = append(v.Boxes, pages.Count{Status: s, Count: boxCounts[i], Href: "/return-boxes?status=" + url.QueryEscape(s)})
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

	tokens, err := a.deps.Sessions.LoadTokens(c.Request().Context(), sess.ID())
	if err != nil {
		return errSessionStore(err)
	}
	now := a.deps.Now()
	for _, name := range []string{"b2b/" + d.Environment, "seller"} {
		t, ok := tokens[name]
		label := "Seller API"
		if name != "seller" {
			label = "B2B API"
		}
		v.Tokens = append(v.Tokens, pages.TokenState{Name: label, Present: ok, ExpiresIn: format.Duration(t.ExpiresAt.Sub(now))})
	}
	return a.render(c, http.StatusOK, pages.OverviewPage(a.chrome(c, "Overview", "overview"), v), nil)
}
