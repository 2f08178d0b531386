package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// orderSorts are the sort choices of the orders toolbar.
var orderSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-sum", Label: i18n.K("copy.sort_sum_desc")},
	{Value: "sum", Label: i18n.K("copy.sort_sum_asc")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")}, {Value: "order", Label: i18n.K("copy.sort_order_number")},
	{Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}

// ordersPage is the dispatch point of the orders list (orders.go): a page
// from the copy with the URL's search, sort and dates once a full copy
// exists, else live from the marketplace.
func (a *App) ordersPage(c echo.Context, q listQuery) (*apiclient.OrderList, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	if !ok {
		ctx := a.pageContext(c)
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		// The list shows ItemQuantity, never the items: skip decoding them.
		return a.account(c).B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: q.Page, Limit: q.Limit, Status: q.Status, WithoutItems: true})
	}
	if err := a.enterLocal(c); err != nil {
		return nil, err
	}
	k := copyKey(c)
	cq := q.copyQuery()
	cq.Status = q.Status // the nomenclature's statuses are not the orders'
	cs := a.deps.Catalog.Store()
	total, orders, badSort, err := copyListPage(c.Request().Context(), k, cq, cs.OrdersPage)
	if badSort {
		q.copy.Sort = ""
		return a.ordersPage(c, q)
	}
	if err != nil {
		return nil, err
	}
	list := &apiclient.OrderList{Page: q.Page, Limit: q.Limit, Total: total, Pages: max(1, (total+q.Limit-1)/q.Limit), Orders: make([]apiclient.Order, 0, len(orders))}
	for _, o := range orders {
		list.Orders = append(list.Orders, apiclient.Order{OrderNr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod, Currency: o.Currency,
			FullSum: apiclient.Money(o.FullSum), DeliveryPrice: apiclient.Money(o.DeliveryPrice), CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
			IsConfirmed: o.IsConfirmed, ItemQuantity: o.ItemQuantity})
	}
	return list, nil
}
