package handlers

// The "Promotions" page of an account (the lamoda profile): the seller's
// running and upcoming promotions with their windows and terms, and the
// cards taking part in one, paged and searchable, from the local copy
// (copystore/promotions.go), which syncs them after the catalogue.

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// promotionCardsPage is the number of cards a page of a promotion shows.
const promotionCardsPage = 50

// PromotionsList shows the promotions and the selected one's cards
// (?promo=, ?q=, ?page=).
func (a *App) PromotionsList(c echo.Context) error {
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	v := pages.PromotionsView{}
	render := func() error {
		return a.render(c, http.StatusOK, pages.PromotionsPage(a.chrome(c, i18n.T(ctx, "promotions.title"), "promotions"), v), nil)
	}
	switch {
	case !a.deps.API.PricesByCard():
		v.Notice = pages.NoticeProfile
		return render()
	}
	if _, err := a.fromCopy(c); err != nil { // the copy in use, synced in the background
		return err
	}
	k := copyKey(c)
	store := a.deps.Catalog.Store()
	promos, err := store.Promotions(ctx, k)
	if err != nil {
		return err
	}
	if len(promos) == 0 {
		v.Notice = pages.NoticeNotSynced
		return render()
	}
	selected, _ := strconv.ParseInt(c.QueryParam("promo"), 10, 64)
	if selected == 0 {
		selected = promos[0].ID
	}
	base := at(c, paths.Promotions)
	now := a.deps.Now()
	for _, p := range promos {
		id := strconv.FormatInt(p.ID, 10)
		row := pages.PromotionRow{ID: id, Name: p.Name, Upcoming: p.Upcoming(now), Closed: p.RegistrationClosed,
			Active:   format.DateTimeIn(l, p.ActiveFrom) + " – " + format.DateTimeIn(l, p.ActiveTo),
			Discount: percentText(p.DiscountPercent), Cards: p.Cards,
			Href: paths.WithQuery(base, url.Values{"promo": {id}}), Current: p.ID == selected}
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
		if p.ID != selected {
			continue
		}
		search := strings.TrimSpace(c.QueryParam("q"))
		if r := []rune(search); len(r) > 100 {
			search = string(r[:100]) // bounded, at a rune boundary
		}
		page, _ := strconv.Atoi(c.QueryParam("page"))
		page = max(page, 1)
		cards, total, err := store.PromotionCards(ctx, k, p.ID, search, (page-1)*promotionCardsPage, promotionCardsPage)
		if err != nil {
			return err
		}
		sel := &pages.PromotionCards{ID: id, Name: p.Name, Search: search, Action: base}
		pagesN := max(1, (total+promotionCardsPage-1)/promotionCardsPage)
		sel.Pager = components.NewPager(page, pagesN, total, func(n int) string {
			q := url.Values{"promo": {id}, "page": {strconv.Itoa(n)}}
			if search != "" {
				q.Set("q", search)
			}
			return paths.WithQuery(base, q)
		})
		for _, cd := range cards {
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
