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
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
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
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	now := a.deps.Now()
	for i := range v.Rows {
		r := &v.Rows[i]
		price, err := apiclient.ParseMoney(r.Price)
		for _, p := range promos[r.Parent] {
			n := pages.PromotionNote{Name: p.Name, Upcoming: now.Before(p.ActiveFrom)}
			if p.Floor > 0 {
				n.Floor, n.FloorKopecks = format.MoneyIn(l.Lang, p.Floor), strconv.FormatInt(p.Floor, 10)
				n.Below = err == nil && int64(price) < p.Floor
			}
			r.Promotions = append(r.Promotions, n)
		}
	}
	for _, parent := range v.ForceCards {
		if names := promotionNames(promos[parent]); names != "" {
			v.Leaving = append(v.Leaving, parent+" "+names)
		}
	}
}

// promotionNames writes the promotions' names, each in «».
func promotionNames(ps []copystore.CardPromotion) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("«" + format.Clean(p.Name) + "»")
	}
	return b.String()
}

// notePromotionsLeft adds to each card sent with force and accepted the
// message that it left its promotions, for the answer and the history.
func (a *App) notePromotionsLeft(c echo.Context, rep *massupdate.Report, cards []massupdate.CardPrice) {
	if rep == nil {
		return
	}
	var forced []string
	for _, cp := range cards {
		if cp.Force && rep.Outcomes[cp.Parent].State == massupdate.Accepted {
			forced = append(forced, cp.Parent)
		}
	}
	promos := a.cardPromotions(c, forced)
	for _, parent := range forced {
		names := promotionNames(promos[parent])
		if names == "" {
			continue
		}
		o := rep.Outcomes[parent]
		o.Messages = append(o.Messages, i18n.M("prices.left_promotions", map[string]any{"Names": names}))
		rep.Outcomes[parent] = o
	}
}
