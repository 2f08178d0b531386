package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/resend"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

var orderLimits = []int{20, 50, 100}

// OrdersList shows a page of orders, filtered by status.
func (a *App) OrdersList(c echo.Context) error {
	q := parseListQuery(c, orderLimits, orderLimits[0], orderStatuses)
	// The list shows ItemQuantity, never the items: skip decoding them.
	list, err := a.ordersPage(c, q) // from the local copy once it exists (copy_orders.go)
	if err != nil {
		return err
	}
	toolbar, err := a.copyToolbar(c, paths.Orders, q, orderSorts)
	if err != nil {
		return err
	}
	here := q.link(at(c, paths.Orders))
	states := loadResendStates(session(c))
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
			OrderNr:   o.OrderNr,
			Status:    o.Status,
			Created:   listDateTime(l, o.CreatedAt),
			Sum:       listMoney(l, int64(o.FullSum)),
			Payment:   o.PaymentMethod,
			Items:     o.ItemQuantity,
			Confirmed: o.IsConfirmed,
		}
		r.Href = at(c, paths.Order(o.OrderNr)) + back
		if resend.ValidOrderNr(o.OrderNr) {
			nrs[i] = o.OrderNr
			r.Resend = resendView("resend-"+o.OrderNr, nrs[i:i+1:i+1], resendLabel, here)
			if len(states) > 0 {
				showResendState(ctx, states, &r.Resend, now)
			}
		}
		v.Rows = append(v.Rows, r)
	}
	return a.render(c, http.StatusOK, pages.OrdersPage(a.chrome(c, i18n.T(ctx, "orders.title"), "orders"), v), nil)
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

// enMonths are the month names of English dates ("Nov 22, 2026").
var enMonths = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// listDateTime is format.DateTimeIn written into one buffer: the orders
// list formats fifty of them a page, and the allocation budget (P7) has no
// room for the Sprintf and concatenations of the general helper.
// TestListDateTimeIsDateTimeIn keeps the two the same.
func listDateTime(l i18n.Lang, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	z := t.In(format.Zone())
	var buf [64]byte
	b := buf[:0]
	if l == i18n.EN {
		b = append(b, enMonths[z.Month()-1]...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(z.Day()), 10)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(z.Year()), 10)
	} else {
		b = z.AppendFormat(b, "02.01.2006")
	}
	b = append(b, ' ')
	b = z.AppendFormat(b, "15:04")
	b = append(b, "\u00a0"...)
	b = append(b, format.ZoneLabel(l, t)...)
	return string(b)
}

// listMoney is format.MoneyIn with one allocation fewer, for the same
// reason as listDateTime (TestListMoneyIsMoneyIn keeps them the same).
func listMoney(l i18n.Lang, kopecks int64) string {
	if l == i18n.EN || l == i18n.RU {
		s := format.Money(kopecks) // "1 799.50"
		group, dec := "\u202f", byte(',')
		if l == i18n.EN {
			group, dec = ",", '.'
		}
		var buf [48]byte
		b := buf[:0]
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case ' ':
				b = append(b, group...)
			case '.':
				b = append(b, dec)
			default:
				b = append(b, s[i])
			}
		}
		return string(b)
	}
	return format.MoneyIn(l, kopecks)
}
