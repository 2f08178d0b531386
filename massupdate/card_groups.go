package massupdate

import (
	"maps"
	"slices"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// CardGroup is a product card of a list page with its sizes, in the
// page's order (the lamoda profile's prices form shows one row a card).
type CardGroup struct {
	Parent string
	Sizes  []apiclient.Nomenclature
}

// GroupCards groups the records of a list page by product card, cards in
// the order of their first size; a record without its card cannot be
// priced by card and is left out, a size listed twice is kept once.
func GroupCards(recs []apiclient.Nomenclature) []CardGroup {
	var out []CardGroup
	index := map[string]int{}
	seen := map[string]bool{}
	for _, n := range recs {
		if n.ParentSKU == "" || seen[n.MarketplaceSKU] {
			continue
		}
		seen[n.MarketplaceSKU] = true
		if i, ok := index[n.ParentSKU]; ok {
			out[i].Sizes = append(out[i].Sizes, n)
			continue
		}
		index[n.ParentSKU] = len(out)
		out = append(out, CardGroup{Parent: n.ParentSKU, Sizes: []apiclient.Nomenclature{n}})
	}
	return out
}

// MatchSizes is the report with each item error that named a size of
// cards instead of its card (Unmatched, by SizeKey) made the card's: a
// card sent has its outcome turned rejected with the error (Reject), and
// the error leaves Unmatched. The report itself is not changed; a nil
// report stays nil.
func (r *Report) MatchSizes(cards []CardGroup) *Report {
	if r == nil {
		return nil
	}
	out := *r
	out.Outcomes, out.Unmatched = maps.Clone(r.Outcomes), maps.Clone(r.Unmatched)
	for k, o := range out.Outcomes {
		o.Messages = slices.Clip(o.Messages) // Reject appends to a copy
		out.Outcomes[k] = o
	}
	for _, g := range cards {
		for _, n := range g.Sizes {
			key := SizeKey(n.MarketplaceSKU)
			if msgs, ok := out.Unmatched[key]; ok && out.Outcomes[g.Parent].State != "" {
				out.Reject(g.Parent, msgs)
				delete(out.Unmatched, key)
			}
		}
	}
	return &out
}
