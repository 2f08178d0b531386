package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// forcedCards lists the cards set-prices calls sent with force=true.
func forcedCards(t *testing.T, calls []map[string]json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, c := range calls {
		if string(c["force"]) != "true" {
			continue
		}
		var its []map[string]any
		if err := json.Unmarshal(c["prices"], &its); err != nil {
			t.Fatalf("set-prices items: %v", err)
		}
		for _, it := range its {
			p, _ := it["lamoda_parent_sku"].(string)
			out = append(out, p)
		}
	}
	return out
}

// setCardPrice sets the price of parent's row in form (no sale).
func setCardPrice(t *testing.T, form url.Values, parent, price string) {
	t.Helper()
	for i, s := range form["sku"] {
		if s == parent {
			form["price"][i], form["sale"][i] = price, ""
			return
		}
	}
	t.Fatalf("card %s not in the form", parent)
}

// TestCardPricesForceOnlyHeld: "send anyway" forces only a card the
// session's previous answer held, at the price it held it at. A forged
// first submit (action=force, force_card) sends no force and shows the
// hold; a send-anyway with the held card's price changed sends no force
// and shows the hold again; the genuine one forces the card, once.
func TestCardPricesForceOnlyHeld(t *testing.T) {
	t.Parallel()
	app, tap := newCardApp(t, false)
	b := app.Browser(t)
	b.LoginDemo()
	held := cardsOf(app.Sandbox, 1001)[2]
	was := held.sizes[0].Price
	dropped := moneyIn(was * 4 / 10) // 60 % off: the price check holds it

	shown := func(res interface{ Has(string) bool }, what string) {
		t.Helper()
		if !res.Has("[data-testid=card-"+held.parent+"] [data-testid=fraud][data-status=warning]") || !res.Has("[data-testid=send-anyway]") {
			t.Errorf("%s: the hold of %s is not shown", what, held.parent)
		}
	}
	unchanged := func(what string) {
		t.Helper()
		if got := app.Sandbox.Products(1001)[indexOf(app.Sandbox, held.sizes[0].MarketplaceSKU)].Price; got != was {
			t.Fatalf("%s: price %d applied, want %d kept", what, got, was)
		}
	}

	// A forged first submit.
	form := b.Get("/prices?limit=100").FormValues("#prices-form")
	setCardPrice(t, form, held.parent, dropped)
	form.Set("action", "force")
	form.Set("force_card", held.parent)
	res := b.Post("/prices?limit=100", form)
	if got := forcedCards(t, tap.params()); len(got) != 0 {
		t.Fatalf("a first submit forced %v", got)
	}
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("forged submit: status %d, want 422", res.Status)
	}
	shown(res, "forged submit")
	unchanged("forged submit")

	// Send anyway, at another price than the one held.
	before := len(tap.params())
	changed := res.FormValues("#prices-form")
	setCardPrice(t, changed, held.parent, moneyIn(was*3/10))
	changed.Set("action", "force")
	res = b.Post("/prices?limit=100", changed)
	if got := forcedCards(t, tap.params()[before:]); len(got) != 0 {
		t.Fatalf("a send-anyway at a changed price forced %v", got)
	}
	shown(res, "changed price")
	unchanged("changed price")

	// The genuine send-anyway of that answer forces the card.
	before = len(tap.params())
	confirm := res.FormValues("#prices-form")
	confirm.Set("action", "force")
	b.Post("/prices?limit=100", confirm)
	if got := forcedCards(t, tap.params()[before:]); len(got) != 1 || got[0] != held.parent {
		t.Fatalf("send anyway forced %v, want only %s", got, held.parent)
	}

	// Used once: the same confirmation posted again forces nothing.
	before = len(tap.params())
	b.Post("/prices?limit=100", confirm)
	if got := forcedCards(t, tap.params()[before:]); len(got) != 0 {
		t.Fatalf("a replayed send-anyway forced %v", got)
	}
}
