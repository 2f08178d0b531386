package handlers

// The card prices page's price check: its findings in words, and the
// cards held past a warning that "send anyway" may force, kept in the
// session for the next submit only.

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
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

// draftHeldCards is the session draft that keeps the cards the last
// answer held past a price-check warning.
const draftHeldCards = "prices-held"

// heldCards are the cards the marketplace held past a price-check warning
// in the session's previous answer, each with the account it was sent for
// and the price it was held at: the only cards "send anyway" may force.
// A card's values are heldValues of its price update as sent.
type heldCards url.Values

// heldValues is what heldCards keeps of a card's price update: the
// account (environment and seller: a session's drafts outlive a login as
// someone else), the price and sale price in kopecks (sale "" when none),
// the sale's start and end.
func heldValues(sess *sessions.Session, u apiclient.PriceUpdate) []string {
	d := sess.Data()
	sale := ""
	if u.SalePrice != nil {
		sale = strconv.FormatInt(int64(*u.SalePrice), 10)
	}
	return []string{d.Environment + "/" + strconv.FormatInt(d.SellerID, 10),
		strconv.FormatInt(int64(u.Price), 10), sale, u.SaleStartDate, u.SaleEndDate}
}

// popHeldCards takes the held cards out of the session: they answer one
// submit only, the next.
func popHeldCards(sess *sessions.Session) heldCards {
	return heldCards(sess.PopDraft(draftHeldCards))
}

// keepHeldCards keeps in the session the cards of rep the price check held
// with a warning (rejected, so not applied), at the prices sent.
func keepHeldCards(sess *sessions.Session, rep *massupdate.Report, cards []massupdate.CardPrice) {
	held := url.Values{}
	for _, cp := range cards {
		if rep.Outcomes[cp.Parent].State != massupdate.Rejected {
			continue
		}
		for _, f := range rep.Fraud[cp.Parent] {
			if f.Status == "warning" {
				held[cp.Parent] = heldValues(sess, cp.PriceUpdate)
				break
			}
		}
	}
	if len(held) > 0 {
		sess.SetDraft(draftHeldCards, held)
	}
}

// confirmed keeps of the cards the user confirmed (asked) those held for
// this account at exactly the price the rows now ask; the rows are read as
// CheckCards reads them, and a row that does not validate is not forced.
func (h heldCards) confirmed(sess *sessions.Session, asked map[string]bool, rows []massupdate.PriceInput) map[string]bool {
	if len(asked) == 0 || len(h) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, cp := range massupdate.CheckCards(rows, nil).Send {
		if asked[cp.Parent] && slices.Equal(url.Values(h)[cp.Parent], heldValues(sess, cp.PriceUpdate)) {
			out[cp.Parent] = true
		}
	}
	return out
}

// countForced counts the cards sent with force.
func countForced(cards []massupdate.CardPrice) int {
	n := 0
	for _, cp := range cards {
		if cp.Force {
			n++
		}
	}
	return n
}
