package massupdate

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestGroupCards: cards in the order of their first size, each size once,
// a record without its card left out.
func TestGroupCards(t *testing.T) {
	recs := []apiclient.Nomenclature{
		{MarketplaceSKU: "A1", ParentSKU: "A"}, {MarketplaceSKU: "B1", ParentSKU: "B"}, {MarketplaceSKU: "X"},
		{MarketplaceSKU: "A2", ParentSKU: "A"}, {MarketplaceSKU: "A1", ParentSKU: "A", WarehouseCode: "W2"},
	}
	g := GroupCards(recs)
	if len(g) != 2 || g[0].Parent != "A" || g[1].Parent != "B" || len(g[0].Sizes) != 2 || g[0].Sizes[1].MarketplaceSKU != "A2" || len(g[1].Sizes) != 1 {
		t.Errorf("groups %+v, want A (A1, A2) then B (B1)", g)
	}
}

// TestMatchSizes: an error that named a size becomes its card's (the card
// rejected with it, the counts moved), an error of a size of a card not
// sent stays unmatched, and the report matched from is left as it was.
func TestMatchSizes(t *testing.T) {
	refused := i18n.Of(i18n.Msg{Text: "price too low"})
	rep := &Report{
		Outcomes: map[string]Outcome{"A": {State: Accepted}, "B": {State: Accepted}},
		Accepted: 2,
		Unmatched: map[string]i18n.Msgs{
			SizeKey("A2"): refused, SizeKey("C1"): refused,
		},
	}
	cards := GroupCards([]apiclient.Nomenclature{
		{MarketplaceSKU: "A1", ParentSKU: "A"}, {MarketplaceSKU: "A2", ParentSKU: "A"},
		{MarketplaceSKU: "B1", ParentSKU: "B"}, {MarketplaceSKU: "C1", ParentSKU: "C"},
	})
	got := rep.MatchSizes(cards)
	if got.Outcomes["A"].State != Rejected || len(got.Outcomes["A"].Messages) != 1 || got.Outcomes["B"].State != Accepted ||
		got.Accepted != 1 || got.Rejected != 1 || len(got.Unmatched) != 1 || got.Unmatched[SizeKey("C1")] == nil {
		t.Errorf("matched %+v, want A rejected for its size A2 and C1 left unmatched", got)
	}
	if rep.Outcomes["A"].State != Accepted || rep.Accepted != 2 || rep.Rejected != 0 || len(rep.Unmatched) != 2 {
		t.Errorf("the report matched from changed: %+v", rep)
	}
	if (*Report)(nil).MatchSizes(cards) != nil {
		t.Error("a nil report matched to something")
	}
}
