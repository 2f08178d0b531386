package handlers

import (
	"context"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/resend"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

var orderLimits = []int{20, 50, 100}

// OrdersList shows a page of orders, filtered by status.
func (a *App) OrdersList(c echo.Context) error {
	q := parseListQuery(c, orderLimits, orderLimits[0], orderStatuses)
	list, err := a.seller(c).Orders(c.Request().Context(), q.reads())
	if err != nil {
		return err
	}
	toolbar, err := a.copyToolbar(c, paths.Orders, q, orderSorts)
	if err != nil {
		return err
	}
	here := q.link(at(c, paths.Orders))
	states := resend.Load(session(c))
	now := a.deps.Now()
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	resendLabel := i18n.T(ctx, "orders.resend")
	v := pages.OrdersView{
		Status:      q.Status,
		Limit:       strconv.Itoa(q.Limit),
		Statuses:    localStatusOptions(ctx, orderStatuses, i18n.T(ctx, "orders.all_statuses")),
		Limits:      limitOptions(orderLimits),
		Pager:       q.pager(at(c, paths.Orders), list.Pages, list.Total),
		Bulk:        resendView("resend-bulk", nil, i18n.T(ctx, "orders.resend_selected"), here),
		Rows:        make([]pages.OrderRow, 0, len(list.Orders)),
		Copy:        toolbar,
		SelectLabel: i18n.T(ctx, "orders.select_prefix"),
	}
	// Only what the table shows is formatted (the row's Updated and
	// Delivery are for other views); a valid order number needs no path
	// escaping, and its one-element list is a sub-slice of one array.
	nrs := make([]string, len(list.Orders))
	back := "?back=" + url.QueryEscape(here) // the detail's way back keeps the filter and page
	for i, o := range list.Orders {
		r := pages.OrderRow{
			OrderNr:   o.Nr,
			Status:    o.Status,
			Created:   format.DateTimeIn(format.LocaleOf(ctx), o.CreatedAt),
			Sum:       format.MoneyIn(l, o.FullSum),
			Payment:   o.PaymentMethod,
			Items:     o.ItemQuantity,
			Confirmed: o.Confirmed,
		}
		r.Href = at(c, paths.Order(o.Nr)) + back
		if resend.ValidOrderNr(o.Nr) {
			nrs[i] = o.Nr
			r.Resend = resendView("resend-"+o.Nr, nrs[i:i+1:i+1], resendLabel, here)
			if len(states) > 0 {
				showResendState(ctx, states, &r.Resend, now)
			}
		}
		v.Rows = append(v.Rows, r)
	}
	return a.renderList(c, pages.OrdersPage(a.chrome(c, i18n.T(ctx, "orders.title"), "orders"), v), nil, pages.OrdersAnswer(v))
}

// localStatusOptions is statusOptions with the statuses labelled in the
// language of ctx («Новый», «На модерации»).
func localStatusOptions(ctx context.Context, all []string, allLabel string) []pages.Option {
	out := statusOptions(all, allLabel)
	for i := range out {
		if out[i].Value != "" {
			out[i].Label = i18n.Status(ctx, out[i].Value)
		}
	}
	return out
}
