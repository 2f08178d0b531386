package massupdate

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestPricesFormHoldsBeyondGuard: the per-SKU form's check holds a row
// beyond the guard until the form carries its token, and refuses a form
// confirming more rows than a form may hold.
func TestPricesFormHoldsBeyondGuard(t *testing.T) {
	rows := []PriceInput{{SKU: "A", OrigPrice: "100.00", Price: "150.00"}, {SKU: "B", OrigPrice: "100.00", Price: "101.00"}}
	f := PricesForm{Guard: 20}
	c, err := f.Check(url.Values{}, rows)
	if err != nil || len(c.Send) != 1 || c.Send[0].MarketplaceSKU != "B" || c.Waiting() != 1 {
		t.Fatalf("unconfirmed: send %+v, waiting %d, err %v", c.Send, c.Waiting(), err)
	}
	c, err = f.Check(url.Values{"confirm_guard": {c.Held["A"].Token}}, rows)
	if err != nil || len(c.Send) != 2 || c.Waiting() != 0 || !c.Held["A"].Confirmed {
		t.Fatalf("confirmed: send %+v, held %+v, err %v", c.Send, c.Held, err)
	}
	if c, _ := (PricesForm{}).Check(url.Values{}, rows); len(c.Send) != 2 {
		t.Fatalf("guard off: %d sent, want 2", len(c.Send))
	}
	many := url.Values{}
	for i := 0; i <= MaxFormRows; i++ {
		many.Add("confirm_guard", strconv.Itoa(i))
	}
	var fe *FormError
	if _, err := f.Check(many, rows); !errors.As(err, &fe) || fe.Msgs[0].Key != "prices.too_many_guard" {
		t.Fatalf("too many confirmations: %v", err)
	}
}

// TestCardsFormForcesOnlyHeld: "send anyway" forces a card only with
// action=force and only when the previous answer held it; too many
// forced cards are refused.
func TestCardsFormForcesOnlyHeld(t *testing.T) {
	rows := []PriceInput{{SKU: "P1", OrigPrice: "100.00", Price: "90.00"}}
	d := drafts{}
	rep := &Report{Outcomes: map[string]Outcome{"P1": {State: Rejected}},
		Fraud: map[string][]apiclient.FraudValidation{"P1": {{Status: "warning"}}}}
	KeepHeldCards(d, "acct", rep, CheckCards(rows, nil).Send)
	held := PopHeldCards(d)
	force := url.Values{"action": {"force"}, "force_card": {"P1"}}
	c, err := CardsForm{Held: held, Account: "acct"}.Check(force, rows)
	if err != nil || len(c.Send) != 1 || !c.Send[0].Force {
		t.Fatalf("held and forced: %+v, %v", c.Send, err)
	}
	if c, _ := (CardsForm{Held: held, Account: "acct"}).Check(url.Values{"force_card": {"P1"}}, rows); c.Send[0].Force {
		t.Fatal("forced without action=force")
	}
	if c, _ := (CardsForm{Held: held, Account: "other"}).Check(force, rows); c.Send[0].Force {
		t.Fatal("forced for another account")
	}
	for i := 0; i < MaxFormRows; i++ {
		force.Add("force_card", strconv.Itoa(i))
	}
	var fe *FormError
	if _, err := (CardsForm{Held: held, Account: "acct"}).Check(force, rows); !errors.As(err, &fe) || fe.Msgs[0].Key != "prices.too_many_confirmed" {
		t.Fatalf("too many forced: %v", err)
	}
}

// TestLastChunkKeys: the keys of the last chunk, a partial one included.
func TestLastChunkKeys(t *testing.T) {
	ups := []apiclient.PriceUpdate{{MarketplaceSKU: "a"}, {MarketplaceSKU: "b"}, {MarketplaceSKU: "c"}}
	if got := LastChunkKeys(Prices, ups, 2); len(got) != 1 || got[0] != "c" {
		t.Fatalf("got %v, want [c]", got)
	}
	if got := LastChunkKeys(Prices, ups, 3); len(got) != 3 {
		t.Fatalf("got %v, want all three", got)
	}
	if got := LastChunkKeys(Prices, nil, 3); got != nil {
		t.Fatalf("got %v for none", got)
	}
}

// TestChangeTexts: the price as an amount, the sale too only when it
// changed, "—" for none, an unreadable amount as typed.
func TestChangeTexts(t *testing.T) {
	b, a := ChangeTexts(PriceInput{OrigPrice: "17399", Price: "17 399,00", OrigSale: "", Sale: "15000"})
	if len(b) != 2 || len(a) != 2 || b[0].Text != "17399.00" || b[1].Args["Sale"] != "—" || a[1].Args["Sale"] != "15000.00" {
		t.Fatalf("before %+v, after %+v", b, a)
	}
	b, a = ChangeTexts(PriceInput{OrigPrice: "100", Price: "1x", OrigSale: "5", Sale: "5.00"})
	if len(b) != 1 || len(a) != 1 || a[0].Text != "1x" {
		t.Fatalf("sale unchanged: before %+v, after %+v", b, a)
	}
}

// TestFraudNote: the value named, warned or refused, and the count of
// promotions named.
func TestFraudNote(t *testing.T) {
	promos, _ := json.Marshal([]map[string]int{{"id": 1}, {"id": 2}})
	ms := FraudNote(apiclient.FraudValidation{ChangedValue: "red_price", Status: "restriction", Promotions: promos})
	if len(ms) != 2 || ms[0].Key != "prices.fraud_not_allowed" || ms[0].Args["What"].(i18n.Msg).Key != "prices.fraud_red_price" || ms[1].Args["Count"] != 2 {
		t.Fatalf("got %+v", ms)
	}
	if ms := FraudNote(apiclient.FraudValidation{ChangedValue: "odd", Status: "warning"}); len(ms) != 1 || ms[0].Key != "prices.fraud_differs" || ms[0].Args["What"].(i18n.Msg).Key != "prices.fraud_change" {
		t.Fatalf("got %+v", ms)
	}
}

// TestHeldNote: held with the guard, and the sale's end when the change
// ends it.
func TestHeldNote(t *testing.T) {
	in := PriceInput{SKU: "A", OrigPrice: "100.00", OrigSale: "80.00", Price: "150.00"}
	ms := HeldNote(20, in, Held{Delta: GuardDelta{SaleEnds: true}})
	if len(ms) != 2 || ms[0].Args["Guard"] != "20" || ms[1].Key != "mass.sale_ends" {
		t.Fatalf("got %+v", ms)
	}
	if ms := HeldNote(20, in, Held{}); len(ms) != 1 {
		t.Fatalf("sale kept: %+v", ms)
	}
}

// TestAnswerCards: each typed card's answer; the cards off the page
// listed while they need the user; "send anyway" offered only for a
// card rejected past a warning.
func TestAnswerCards(t *testing.T) {
	inputs := map[string]PriceInput{"on": {}, "bad": {}, "held": {}, "gone-ok": {}, "gone-warned": {}, "restricted": {}}
	invalid := map[string]map[string]i18n.Msgs{"bad": {"price": i18n.Of(i18n.M("mass.no_sku", nil))}}
	held := map[string]Held{"held": {Token: "t"}}
	rep := &Report{Outcomes: map[string]Outcome{"on": {State: Accepted}, "gone-ok": {State: Accepted}, "gone-warned": {State: Rejected}, "restricted": {State: Rejected}},
		Fraud: map[string][]apiclient.FraudValidation{"gone-warned": {{Status: "warning"}}, "restricted": {{Status: "restriction"}}}}
	listed := func(p string) bool { return p == "on" || p == "restricted" }
	ans := AnswerCards(listed, inputs, invalid, held, rep)
	if got := ans.OffPage; len(got) != 3 || got[0] != "bad" || got[1] != "gone-warned" || got[2] != "held" {
		t.Fatalf("off page %v", got)
	}
	if len(ans.Force) != 1 || ans.Force[0] != "gone-warned" || !ans.Cards["gone-warned"].Confirmable || ans.Cards["restricted"].Confirmable {
		t.Fatalf("force %v", ans.Force)
	}
	if a := ans.Cards["held"]; !a.Waiting || a.Outcome.State != "" {
		t.Fatalf("held %+v", a)
	}
	if a := ans.Cards["bad"]; a.Invalid == nil || a.Outcome.State != "" {
		t.Fatalf("bad %+v", a)
	}
	if a := ans.Cards["on"]; a.Outcome.State != Accepted || !a.Sent {
		t.Fatalf("on %+v", a)
	}
	if ans := AnswerCards(listed, inputs, nil, nil, nil); len(ans.OffPage) != 4 || ans.Cards["on"].Sent {
		t.Fatalf("before a send: %+v", ans)
	}
}

// TestPromotionNotes: a floor above the typed price is below it; an
// unreadable price is below none; an upcoming promotion is marked; a
// forced, accepted card in a promotion says it left it.
func TestPromotionNotes(t *testing.T) {
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	ps := []copystore.CardPromotion{{Name: "Black\nFriday", Floor: 100_00, ActiveFrom: now.Add(time.Hour)}, {Name: "Any"}}
	ns := PromotionNotes(ps, "99.99", now)
	if len(ns) != 2 || !ns[0].Below || !ns[0].Upcoming || ns[0].Floor != 100_00 || ns[1].Below || ns[1].Floor != 0 {
		t.Fatalf("got %+v", ns)
	}
	if ns := PromotionNotes(ps, "x", now); ns[0].Below {
		t.Fatal("an unreadable price is below a floor")
	}
	if got := PromotionNames(ps); got != "«Black Friday», «Any»" {
		t.Fatalf("names %q", got)
	}
	rep := &Report{Outcomes: map[string]Outcome{"P1": {State: Accepted}, "P2": {State: Rejected}, "P3": {State: Accepted}}}
	forced := ForcedAccepted(rep, []CardPrice{{Parent: "P1", Force: true}, {Parent: "P2", Force: true}, {Parent: "P3"}})
	if len(forced) != 1 || forced[0] != "P1" {
		t.Fatalf("forced %v", forced)
	}
	NoteLeftPromotions(rep, forced, map[string][]copystore.CardPromotion{"P1": ps})
	if ms := rep.Outcomes["P1"].Messages; len(ms) != 1 || ms[0].Key != "prices.left_promotions" || ms[0].Args["Names"] != "«Black Friday», «Any»" {
		t.Fatalf("left: %+v", ms)
	}
}

// promoStore is a copy's promotions, in memory.
type promoStore struct {
	promos []copystore.Promotion
	asked  []int // promotion, offset, limit of the last cards read
}

func (s *promoStore) Promotions(context.Context, copystore.Key) ([]copystore.Promotion, error) {
	return s.promos, nil
}

func (s *promoStore) PromotionCards(_ context.Context, _ copystore.Key, id int64, search string, offset, limit int) ([]copystore.PromotionCard, int, error) {
	s.asked = []int{int(id), offset, limit, len([]rune(search))}
	return []copystore.PromotionCard{{ParentSKU: "P"}}, 120, nil
}

// TestReadPromotions: the first promotion when none is asked, the page's
// offset, the search trimmed and bounded, no cards for a promotion the
// copy does not hold, nothing before a sync.
func TestReadPromotions(t *testing.T) {
	s := &promoStore{promos: []copystore.Promotion{{ID: 7}, {ID: 9}}}
	p, err := ReadPromotions(context.Background(), s, copystore.Key{}, 0, "  "+strings.Repeat("я", 150)+" ", 3)
	if err != nil || p.Selected != 7 || p.Pages != 3 || p.Total != 120 || len(p.Cards) != 1 || len([]rune(p.Search)) != 100 {
		t.Fatalf("page %+v, %v", p, err)
	}
	if s.asked[0] != 7 || s.asked[1] != 100 || s.asked[2] != PromotionCardsPage || s.asked[3] != 100 {
		t.Fatalf("asked %v", s.asked)
	}
	if p, _ := ReadPromotions(context.Background(), s, copystore.Key{}, 5, "", 0); p.Selected != 5 || p.Cards != nil || p.Page != 1 {
		t.Fatalf("unknown promotion %+v", p)
	}
	if p, _ := ReadPromotions(context.Background(), &promoStore{}, copystore.Key{}, 0, "", 1); len(p.Promotions) != 0 {
		t.Fatalf("not synced %+v", p)
	}
}

// TestCardGroupMixedAndStatus: sizes priced alike are not mixed, another
// price or sale is; a size still processing shows on the card.
func TestCardGroupMixedAndStatus(t *testing.T) {
	g := CardGroup{Sizes: []apiclient.Nomenclature{{Price: 100, SalePrice: 80, PriceUpdateStatus: "OK"}, {Price: 100, SalePrice: 80, PriceUpdateStatus: "PROCESSING"}}}
	if g.Mixed() || g.UpdateStatus() != "PROCESSING" {
		t.Fatalf("alike: mixed %v, status %q", g.Mixed(), g.UpdateStatus())
	}
	g.Sizes[1].SalePrice = 70
	if !g.Mixed() {
		t.Fatal("another sale is not mixed")
	}
	g.Sizes[0].PriceUpdateStatus = "FAILED"
	if g.UpdateStatus() != "FAILED" {
		t.Fatalf("status %q", g.UpdateStatus())
	}
}

// TestGroupSKUs: a SKU listed once, first record kept, warehouses joined.
func TestGroupSKUs(t *testing.T) {
	gs := GroupSKUs([]apiclient.Nomenclature{{MarketplaceSKU: "A", WarehouseCode: "W1", Barcode: "1"}, {MarketplaceSKU: "B", WarehouseCode: "W1"}, {MarketplaceSKU: "A", WarehouseCode: "W2", Barcode: "2"}})
	if len(gs) != 2 || gs[0].Record.Barcode != "1" || gs[0].Warehouses != "W1, W2" || gs[1].Warehouses != "W1" {
		t.Fatalf("got %+v", gs)
	}
}
