package handlers

// The card prices page's price check: its findings in words (the cards
// held past a warning that "send anyway" may force are
// massupdate.HeldCards).

import (
	"context"
	"encoding/json"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// fraudText says what a price-check finding is about, in words, with the
// number of promotions it names (the list itself is the marketplace's and
// unbounded: not shown).
func fraudText(ctx context.Context, f apiclient.FraudValidation) string {
	var what string
	switch f.ChangedValue {
	case "black_price":
		what = i18n.T(ctx, "prices.fraud_black_price")
	case "red_price":
		what = i18n.T(ctx, "prices.fraud_red_price")
	case "sale_period":
		what = i18n.T(ctx, "prices.fraud_sale_period")
	case "red_price_and_sale_period":
		what = i18n.T(ctx, "prices.fraud_red_price_and_sale_period")
	default:
		what = i18n.T(ctx, "prices.fraud_change")
	}
	out := i18n.TD(ctx, "prices.fraud_differs", map[string]any{"What": what})
	if f.Status == "restriction" {
		out = i18n.TD(ctx, "prices.fraud_not_allowed", map[string]any{"What": what})
	}
	var promos []json.RawMessage
	if len(f.Promotions) > 0 && json.Unmarshal(f.Promotions, &promos) == nil && len(promos) > 0 {
		out += " " + i18n.N(ctx, "prices.fraud_promotions", len(promos))
	}
	return out + "."
}
