package massupdate

// The cards the price check held past a warning, which the prices form's
// "send anyway" may force: kept in the caller's drafts (the session) for
// the next submit only.

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// Drafts is where the caller keeps a form's state between submits: the
// session's drafts.
type Drafts interface {
	SetDraft(name string, v url.Values) bool
	PopDraft(name string) url.Values
}

// draftHeldCards is the draft that keeps the cards the last answer held
// past a price-check warning.
const draftHeldCards = "prices-held"

// HeldCards are the cards the marketplace held past a price-check warning
// in the previous answer, each with the account it was sent for and the
// price it was held at: the only cards "send anyway" may force. A card's
// values are heldValues of its price update as sent.
type HeldCards url.Values

// HeldAccount names the account held cards were sent for: its
// environment and seller (drafts outlive a login as someone else).
func HeldAccount(environment string, seller int64) string {
	return environment + "/" + strconv.FormatInt(seller, 10)
}

// heldValues is what HeldCards keeps of a card's price update: the
// account (HeldAccount), the price and sale price in kopecks (sale ""
// when none), the sale's start and end.
func heldValues(account string, u apiclient.PriceUpdate) []string {
	sale := ""
	if u.SalePrice != nil {
		sale = strconv.FormatInt(int64(*u.SalePrice), 10)
	}
	return []string{account, strconv.FormatInt(int64(u.Price), 10), sale, u.SaleStartDate, u.SaleEndDate}
}

// PopHeldCards takes the held cards out of d: they answer one submit
// only, the next.
func PopHeldCards(d Drafts) HeldCards {
	return HeldCards(d.PopDraft(draftHeldCards))
}

// KeepHeldCards keeps in d the cards of rep the price check held with a
// warning (rejected, so not applied), at the prices sent for account.
func KeepHeldCards(d Drafts, account string, rep *Report, cards []CardPrice) {
	held := url.Values{}
	for _, cp := range cards {
		if rep.Outcomes[cp.Parent].State != Rejected {
			continue
		}
		for _, f := range rep.Fraud[cp.Parent] {
			if f.Status == "warning" {
				held[cp.Parent] = heldValues(account, cp.PriceUpdate)
				break
			}
		}
	}
	if len(held) > 0 {
		d.SetDraft(draftHeldCards, held)
	}
}

// Confirmed keeps of the cards the user confirmed (asked) those held for
// account at exactly the price the rows now ask; the rows are read as
// CheckCards reads them, and a row that does not validate is not forced.
func (h HeldCards) Confirmed(account string, asked map[string]bool, rows []PriceInput) map[string]bool {
	if len(asked) == 0 || len(h) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, cp := range CheckCards(rows, nil).Send {
		if asked[cp.Parent] && slices.Equal(url.Values(h)[cp.Parent], heldValues(account, cp.PriceUpdate)) {
			out[cp.Parent] = true
		}
	}
	return out
}

// CountForced counts the cards sent with force.
func CountForced(cards []CardPrice) int {
	n := 0
	for _, cp := range cards {
		if cp.Force {
			n++
		}
	}
	return n
}
