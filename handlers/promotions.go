package handlers

// The "Promotions" page of an account (the lamoda profile): the seller's
// running and upcoming promotions with their windows and terms, and the
// cards taking part in one, paged and searchable, from the local copy
// (copystore/promotions.go), which syncs them after the catalogue.

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// PromotionsList shows the promotions and the selected one's cards
// (?promo=, ?q=, ?page=).
func (a *App) PromotionsList(c echo.Context) error {
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	v := pages.PromotionsView{}
	render := func() error {
		return a.render(c, http.StatusOK, pages.PromotionsPage(a.chrome(c, i18n.T(ctx, "promotions.title"), "promotions"), v), nil)
	}
	if !a.deps.API.PricesByCard() {
		v.Notice = pages.NoticeProfile
		return render()
	}
	if _, err := a.fromCopy(c); err != nil { // the copy in use, synced in the background
		return err
	}
	selected, _ := strconv.ParseInt(c.QueryParam("promo"), 10, 64)
	page, _ := strconv.Atoi(c.QueryParam("page"))
	pp, err := massupdate.ReadPromotions(ctx, a.deps.Catalog.Store(), copyKey(c), selected, c.QueryParam("q"), page)
	if err != nil {
		return err
	}
	if len(pp.Promotions) == 0 {
		v.Notice = pages.NoticeNotSynced
		return render()
	}
	base := at(c, paths.Promotions)
	now := a.deps.Now()
	for _, p := range pp.Promotions {
		id := strconv.FormatInt(p.ID, 10)
		row := pages.PromotionRow{ID: id, Name: p.Name, Upcoming: p.Upcoming(now), Closed: p.RegistrationClosed,
			Active:   format.DateTimeIn(l, p.ActiveFrom) + " – " + format.DateTimeIn(l, p.ActiveTo),
			Discount: percentText(p.DiscountPercent), Cards: p.Cards,
			Href: paths.WithQuery(base, url.Values{"promo": {id}}), Current: p.ID == pp.Selected}
		if p.ProductMinPrice > 0 {
			row.Floor = format.MoneyIn(l.Lang, p.ProductMinPrice)
		} else {
			row.Floor = i18n.T(ctx, "promotions.floor_per_card")
		}
		if !p.AddTo.IsZero() {
			row.AddUntil = format.DateTimeIn(l, p.AddTo)
		}
		if !p.DeleteTo.IsZero() {
			row.RemoveUntil = format.DateTimeIn(l, p.DeleteTo)
		}
		if p.LamodaPercent > 0 {
			row.Lamoda = percentText(p.LamodaPercent)
		}
		if v.Synced == "" && !p.SyncedAt.IsZero() {
			v.Synced = format.DateTimeIn(l, p.SyncedAt)
		}
		v.Rows = append(v.Rows, row)
		if p.ID != pp.Selected {
			continue
		}
		sel := &pages.PromotionCards{ID: id, Name: p.Name, Search: pp.Search, Action: base}
		sel.Pager = components.NewPager(pp.Page, pp.Pages, pp.Total, func(n int) string {
			q := url.Values{"promo": {id}, "page": {strconv.Itoa(n)}}
			if pp.Search != "" {
				q.Set("q", pp.Search)
			}
			return paths.WithQuery(base, q)
		})
		for _, cd := range pp.Cards {
			r := pages.PromotionCardRow{Parent: cd.ParentSKU, SellerSKU: cd.SellerSKU, Name: cd.Name, Price: format.MoneyIn(l.Lang, cd.Price),
				Recommended: format.MoneyIn(l.Lang, cd.RecommendedPrice), BelowFloor: cd.BelowFloor, Status: cd.PriceStatus}
			if cd.SalePrice > 0 && cd.SalePrice != cd.Price {
				r.Sale = format.MoneyIn(l.Lang, cd.SalePrice)
			}
			sel.Rows = append(sel.Rows, r)
		}
		v.Selected = sel
	}
	return render()
}

// percentText writes a percentage with at most two decimals.
func percentText(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + " %"
}
