package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestCardPricesSummaryCountsUnchanged: the card prices form is answered by
// the one submit flow, so its summary counts the cards left unchanged as
// the per-SKU form counts its rows.
func TestCardPricesSummaryCountsUnchanged(t *testing.T) {
	t.Parallel()
	app, tap := newCardApp(t, false)
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/prices?limit=20")
	form := p.FormValues("#prices-form")
	n := len(form["sku"])
	if n < 2 {
		t.Fatalf("the form has %d cards, want several", n)
	}
	form["price"][0] = "not a price"
	form.Set("action", "send")
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("invalid card: %d, want 422", res.Status)
	}
	if len(tap.params()) != 0 {
		t.Fatal("a form with an invalid card was sent")
	}
	summary := res.Text("[data-testid=summary]")
	if want := strconv.Itoa(n-1) + " unchanged"; !strings.Contains(summary, want) {
		t.Errorf("summary %q lacks %q", summary, want)
	}
}
