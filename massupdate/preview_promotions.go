package massupdate

// Promotions beside a price file's cards (the lamoda profile): the row
// that carries a card in a running or upcoming promotion is marked with
// the promotion's name and its promo price floor, and, when the new price
// is below the floor, with what will happen to it (the marketplace's price
// check holds it; "send anyway", on the card prices form, takes the card
// out of the promotion), before anything is sent. The marks are typed
// messages kept with the job's row, so the grid reads them in the reader's
// language; they change no row's flag.

import (
	"encoding/json"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// maxRowPromotions bounds the promotions named on one row.
const maxRowPromotions = 5

// promotionMarks are the catalogue keys of the marks MarkPromotions adds.
var promotionMarks = map[string]bool{
	i18n.K("mass.promo_running"): true, i18n.K("mass.promo_upcoming"): true,
	i18n.K("mass.promo_floor"): true, i18n.K("mass.promo_below"): true,
}

// IsPromotionMark reports whether m is one of the marks MarkPromotions
// adds, so a view can show them apart from the row's other messages.
func IsPromotionMark(m i18n.Msg) bool { return promotionMarks[m.Key] }

// IsPromotionBelow reports whether m says the row's new price is below a
// promotion's floor.
func IsPromotionBelow(m i18n.Msg) bool { return m.Key == "mass.promo_below" }

// CardsOf names the product cards of the rows of items the catalogue
// knows, each once, in row order: the cards whose promotions a preview
// reads.
func (p Previewer) CardsOf(items []bulkjobs.Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if rec, ok := p.Catalog.BySKU[it.Key]; ok && rec.ParentSKU != "" && !seen[rec.ParentSKU] {
			seen[rec.ParentSKU] = true
			out = append(out, rec.ParentSKU)
		}
	}
	return out
}

// MarkPromotions marks the first row of each card in a promotion (promos:
// the promotions by card, copystore.Store.CardPromotions) that has not
// ended at now: each promotion's name, running or upcoming, and its
// floor; and, on a row sending the card a price below a floor, that the
// price check will hold it and "send anyway" takes the card out of the
// promotion. The rows riding along with their card's first row are not
// marked again.
func (p Previewer) MarkPromotions(items []bulkjobs.Item, promos map[string][]copystore.CardPromotion, now time.Time) {
	if len(promos) == 0 {
		return
	}
	marked := map[string]bool{}
	for i := range items {
		it := &items[i]
		rec, ok := p.Catalog.BySKU[it.Key]
		if !ok || rec.ParentSKU == "" || marked[rec.ParentSKU] {
			continue
		}
		marked[rec.ParentSKU] = true
		price, sending := newCardPrice(*it)
		var marks []i18n.Msg
		below := false
		n := 0
		for _, cp := range promos[rec.ParentSKU] {
			if !cp.ActiveTo.IsZero() && cp.ActiveTo.Before(now) {
				continue // ended since the copy read it
			}
			if n == maxRowPromotions {
				break
			}
			n++
			name := map[string]any{"Name": i18n.Plain(cp.Name)}
			if now.Before(cp.ActiveFrom) {
				marks = append(marks, i18n.M("mass.promo_upcoming", name))
			} else {
				marks = append(marks, i18n.M("mass.promo_running", name))
			}
			if cp.Floor > 0 {
				marks = append(marks, i18n.M("mass.promo_floor", map[string]any{"Floor": apiclient.Money(cp.Floor).Decimal()}))
				below = below || (sending && int64(price) < cp.Floor)
			}
		}
		if below {
			marks = append(marks, i18n.M("mass.promo_below", nil))
		}
		it.Message = i18n.Join(it.Message, i18n.Of(marks...))
	}
}

// newCardPrice is the price a row sends its card at, and whether it sends
// one at all.
func newCardPrice(it bulkjobs.Item) (apiclient.Money, bool) {
	if it.Payload == "" || (it.Flag != bulkjobs.FlagOK && it.Flag != bulkjobs.FlagGuard) {
		return 0, false
	}
	var cp CardPrice
	if err := json.Unmarshal([]byte(it.Payload), &cp); err != nil {
		return 0, false
	}
	return cp.Price, true
}
