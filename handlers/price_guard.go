package handlers

// The price guard of the prices forms in words: a row changed beyond
// Deps.GuardPercent is held (massupdate.PricesForm, CardsForm: the rule
// of massupdate.PriceBeyondGuard, as an import's preview), shown with its
// change and a confirmation checkbox, and sent only once that row is
// confirmed; the others of the same submit are sent at once.

import (
	"context"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// priceGuard is the fat-finger guard of the prices forms in percent; 0
// is off.
func (a *App) priceGuard() int { return max(a.deps.GuardPercent, 0) }

// heldResult is the result of a row beyond the guard in the language of
// ctx: held (not confirmed), with its change, what it changes (and that
// the sale ends, when it does) and its confirmation; or res, the outcome
// of a row sent confirmed, with the confirmation kept ticked, so that
// sending the answer again sends it again.
func heldResult(ctx context.Context, guard int, in massupdate.PriceInput, h massupdate.Held, res pages.RowResult) pages.RowResult {
	delta := format.PercentIn(i18n.LangOf(ctx), h.Delta.Permille())
	if h.Confirmed {
		res.Delta, res.Confirm, res.Confirmed = delta, h.Token, true
		return res
	}
	before, after := changeTextsIn(ctx, in)
	return pages.RowResult{State: "held", Messages: massupdate.HeldNote(guard, in, h), Before: before, After: after, Delta: delta, Confirm: h.Token}
}

// priceHints are the warnings beside a typed row's fields
// (massupdate.PriceInput.Hints) in the language of ctx, as the page's
// script shows them while the user types, kept when the form comes back.
func priceHints(ctx context.Context, in massupdate.PriceInput) map[string]string {
	hints := in.Hints()
	if len(hints) == 0 {
		return nil
	}
	l := i18n.LangOf(ctx)
	out := make(map[string]string, len(hints))
	for field, h := range hints {
		if h.Sale > 0 {
			out[field] = i18n.TD(ctx, "prices.sale_ends_hint", map[string]any{"Sale": format.MoneyIn(l, h.Sale)})
			continue
		}
		out[field] = i18n.TD(ctx, "prices.drop_warning", map[string]any{"Limit": massupdate.MarketDropLimit, "Pct": format.TenthsIn(l, h.DropTenths)})
	}
	return out
}
