package handlers

// Promotions beside the card prices form (the lamoda profile): each card
// in a running or upcoming promotion is marked with the promotion, its
// price floor and what a change below it does (the price check holds it;
// "send anyway" takes the card out of the promotion), before anything is
// sent; the "send anyway" confirmation names the promotions each card
// leaves, and the history says a forced card left them. All from the
// local copy's promotions (copystore/promotions.go): no marketplace call.

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// cardPromotions reads the promotions of the cards named from the copy;
// nil where the copy holds no promotion (the page goes on without
// the marks: they are an aid, not a gate).
func (a *App) cardPromotions(c echo.Context, parents []string) map[string][]copystore.CardPromotion {
	if !a.deps.API.PricesByCard() || len(parents) == 0 {
		return nil
	}
	ctx := c.Request().Context()
	m, err := a.deps.Catalog.Store().CardPromotions(ctx, copyKey(c), parents)
	if err != nil {
		a.logger(ctx).Warn("promotions beside prices: not read", "err", err)
		return nil
	}
	return m
}

// markPromotions lays the cards' promotions over the form's rows: the
// promotion, its floor, and whether the price the row asks is below it;
// and names, for the cards "send anyway" confirms, the promotions they
// leave.
func (a *App) markPromotions(c echo.Context, v *pages.CardPricesView) {
	parents := make([]string, 0, len(v.Rows))
	for _, r := range v.Rows {
		parents = append(parents, r.Parent)
	}
	promos := a.cardPromotions(c, parents)
	if len(promos) == 0 {
		return
	}
	l := i18n.LangOf(c.Request().Context())
	for i := range v.Rows {
		r := &v.Rows[i]
		for _, n := range massupdate.PromotionNotes(promos[r.Parent], r.Price, a.deps.Now()) {
			p := pages.PromotionNote{Name: n.Name, Upcoming: n.Upcoming, Below: n.Below}
			if n.Floor > 0 {
				p.Floor, p.FloorKopecks = format.MoneyIn(l, n.Floor), strconv.FormatInt(n.Floor, 10)
			}
			r.Promotions = append(r.Promotions, p)
		}
	}
	for _, parent := range v.ForceCards {
		if names := massupdate.PromotionNames(promos[parent]); names != "" {
			v.Leaving = append(v.Leaving, parent+" "+names)
		}
	}
}

// notePromotionsLeft adds to each card sent with force and accepted the
// message that it left its promotions, for the answer and the history
// (massupdate.NoteLeftPromotions).
func (a *App) notePromotionsLeft(c echo.Context, rep *massupdate.Report, cards []massupdate.CardPrice) {
	forced := massupdate.ForcedAccepted(rep, cards)
	massupdate.NoteLeftPromotions(rep, forced, a.cardPromotions(c, forced))
}
