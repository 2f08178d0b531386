package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/resend"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// OrderDetail shows one order with its items (browse.Seller.Order finds it).
func (a *App) OrderDetail(c echo.Context) error {
	nr := c.Param("orderNr")
	if !resend.ValidOrderNr(nr) {
		return echo.ErrNotFound
	}
	o, err := a.seller(c).Order(c.Request().Context(), nr)
	if err != nil {
		return err
	}
	back := localOr(c.QueryParam("back"), at(c, paths.Orders))
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	v := pages.OrderDetail{
		OrderNr:      o.Nr,
		Status:       o.Status,
		Created:      format.DateTimeIn(l, o.CreatedAt),
		Updated:      format.DateTimeIn(l, o.UpdatedAt),
		Sum:          format.MoneyIn(l.Lang, o.FullSum),
		Delivery:     format.MoneyIn(l.Lang, o.DeliveryPrice),
		Payment:      o.PaymentMethod,
		Currency:     format.Currency(o.Currency),
		Confirmed:    o.Confirmed,
		ItemQuantity: o.ItemQuantity,
		Back:         back,
		Resend:       resendView("resend-"+o.Nr, []string{o.Nr}, i18n.T(ctx, "orders.resend_notifications"), at(c, paths.Order(o.Nr))),
	}
	showResendState(ctx, resend.Load(session(c)), &v.Resend, a.deps.Now()) // what was queued, and whether a resend can succeed now
	for _, it := range o.Items {
		v.Items = append(v.Items, pages.OrderItemRow{
			ID: it.ID, SKU: it.SKU, MarketplaceSKU: it.MarketplaceSKU, Description: it.Description,
			Size: it.Size, Status: it.Status, SalePrice: format.MoneyIn(l.Lang, it.SalePrice), PaidPrice: format.MoneyIn(l.Lang, it.PaidPrice),
		})
	}
	return a.render(c, http.StatusOK, pages.OrderPage(a.chrome(c, i18n.TD(ctx, "orders.detail_title", map[string]any{"Nr": o.Nr}), "orders"), v), nil)
}
