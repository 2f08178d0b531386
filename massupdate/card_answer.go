package massupdate

import (
	"slices"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// CardAnswer is what became of one card the card prices form held typed:
// invalid (its fields' problems), held beyond the guard and not
// confirmed (Waiting: not sent), or sent with the marketplace's outcome;
// with the price check's findings, and whether "send anyway" may
// confirm it.
type CardAnswer struct {
	Invalid map[string]i18n.Msgs
	// Held is the card's hold beyond the guard, when it is beyond it
	// (Confirmed: it was sent).
	Held    *Held
	Waiting bool
	// Sent: the form was sent (a report exists); Outcome is the card's.
	Sent    bool
	Outcome Outcome
	Fraud   []apiclient.FraudValidation
	// Confirmable: held by the price check past a warning; a restriction
	// is the marketplace's refusal.
	Confirmable bool
}

// CardAnswers are the card form's answers: each typed card's, the typed
// cards the page does not list that still need the user (OffPage,
// sorted), and the cards "send anyway" may confirm (Force, sorted).
type CardAnswers struct {
	Cards   map[string]CardAnswer
	OffPage []string
	Force   []string
}

// AnswerCards decides what the card form answers of its typed cards
// inputs, their problems invalid, their holds held and the report rep
// (nil before a send); listed says whether the page lists a card. A card
// off the page that was accepted without a finding is not listed again.
func AnswerCards(listed func(parent string) bool, inputs map[string]PriceInput, invalid map[string]map[string]i18n.Msgs,
	held map[string]Held, rep *Report) CardAnswers {
	out := CardAnswers{Cards: make(map[string]CardAnswer, len(inputs))}
	for parent := range inputs {
		a := CardAnswer{Invalid: invalid[parent], Sent: rep != nil}
		if h, ok := held[parent]; ok {
			a.Held, a.Waiting = &h, !h.Confirmed
		}
		if rep != nil && a.Invalid == nil && !a.Waiting {
			a.Outcome, a.Fraud = rep.Outcomes[parent], rep.Fraud[parent]
			for _, f := range a.Fraud {
				a.Confirmable = a.Confirmable || (f.Status == "warning" && a.Outcome.State == Rejected)
			}
		}
		if a.Confirmable {
			out.Force = append(out.Force, parent)
		}
		out.Cards[parent] = a
		_, bad := invalid[parent]
		if !listed(parent) && (bad || rep == nil || rep.Outcomes[parent].State != Accepted || len(rep.Fraud[parent]) > 0) {
			out.OffPage = append(out.OffPage, parent)
		}
	}
	slices.Sort(out.OffPage)
	slices.Sort(out.Force)
	return out
}

// Mixed reports whether a card's sizes are priced differently: another
// price, or another sale (OnSale), than its first size's.
func (g CardGroup) Mixed() bool {
	first := g.Sizes[0]
	onSale := OnSale(int64(first.Price), int64(first.SalePrice))
	for _, n := range g.Sizes[1:] {
		s := OnSale(int64(n.Price), int64(n.SalePrice))
		if n.Price != first.Price || s != onSale || (s && n.SalePrice != first.SalePrice) {
			return true
		}
	}
	return false
}

// UpdateStatus is a card's price update status: its first size's, unless
// that is done ("OK" or none) and a later size is still processing or
// failed.
func (g CardGroup) UpdateStatus() string {
	status := ""
	for i, n := range g.Sizes {
		if i == 0 || status == "OK" || status == "" {
			status = n.PriceUpdateStatus
		}
	}
	return status
}

// SKUGroup is a product as the per-SKU prices page lists it, once: its
// first record and the warehouses of all its records, in page order.
type SKUGroup struct {
	Record     apiclient.Nomenclature
	Warehouses string
}

// GroupSKUs lists a page's records once per SKU: a price belongs to the
// product, not to a warehouse.
func GroupSKUs(recs []apiclient.Nomenclature) []SKUGroup {
	var out []SKUGroup
	index := map[string]int{}
	for _, n := range recs {
		if i, ok := index[n.MarketplaceSKU]; ok {
			out[i].Warehouses += ", " + n.WarehouseCode
			continue
		}
		index[n.MarketplaceSKU] = len(out)
		out = append(out, SKUGroup{Record: n, Warehouses: n.WarehouseCode})
	}
	return out
}
