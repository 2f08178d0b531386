package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/resend"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// OrderDetail shows one order. The B2B API has no single-order read, so the
// order is found by walking the list lazily, stopping at the match.
func (a *App) OrderDetail(c echo.Context) error {
	nr := c.Param("orderNr")
	if !resend.ValidOrderNr(nr) {
		return echo.ErrNotFound
	}
	var found *apiclient.Order
	for o, err := range a.account(c).B2B.AllOrders(a.pageContext(c), &apiclient.ListOrdersOptions{Limit: 100}) {
		if err != nil {
			return err
		}
		if o.OrderNr == nr {
			found = &o
			break
		}
	}
	if found == nil {
		return fmt.Errorf("order %s: %w", nr, apiclient.ErrNotFound)
	}
	o := found
	back := localOr(c.QueryParam("back"), at(c, paths.Orders))
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	v := pages.OrderDetail{
		OrderNr:      o.OrderNr,
		Status:       o.Status,
		Created:      format.DateTimeIn(l, o.CreatedAt),
		Updated:      format.DateTimeIn(l, o.UpdatedAt),
		Sum:          format.MoneyIn(l.Lang, int64(o.FullSum)),
		Delivery:     format.MoneyIn(l.Lang, int64(o.DeliveryPrice)),
		Payment:      o.PaymentMethod,
		Currency:     format.Currency(o.Currency),
		Confirmed:    o.IsConfirmed,
		ItemQuantity: o.ItemQuantity,
		Back:         back,
		Resend:       resendView("resend-"+o.OrderNr, []string{o.OrderNr}, i18n.T(ctx, "orders.resend_notifications"), at(c, paths.Order(o.OrderNr))),
	}
	showResendState(ctx, loadResendStates(session(c)), &v.Resend, a.deps.Now()) // what was queued, and whether a resend can succeed now
	for _, it := range o.Items {
		v.Items = append(v.Items, pages.OrderItemRow{
			ID: string(it.ID), SKU: it.SKU, MarketplaceSKU: it.MarketplaceSKU, Description: it.Description,
			Size: it.Size, Status: it.Status, SalePrice: format.MoneyIn(l.Lang, int64(it.SalePrice)), PaidPrice: format.MoneyIn(l.Lang, int64(it.PaidPrice)),
		})
	}
	return a.render(c, http.StatusOK, pages.OrderPage(a.chrome(c, i18n.TD(ctx, "orders.detail_title", map[string]any{"Nr": o.OrderNr}), "orders"), v), nil)
}
