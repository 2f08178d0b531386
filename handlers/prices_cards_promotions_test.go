package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestCardPricesBesidePromotions: a card in a promotion is marked on the
// prices form with the promotion and its floor before anything is sent;
// a price below the floor is held by the price check, the answer marks
// it below the floor and "send anyway" names the promotion the card
// leaves; sending anyway forces it once, and the history says the card
// left the promotion. The same with either price API.
func TestCardPricesBesidePromotions(t *testing.T) {
	t.Parallel()
	for _, api := range []apiclient.PriceAPI{apiclient.PriceAPIV1, apiclient.PriceAPIV2} {
		t.Run(string(api), func(t *testing.T) {
			app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Sandbox: sandbox.Options{Live: true},
				APIOptions: func(o *apiclient.Options) { o.PriceAPI = api }})
			b := app.Browser(t)
			b.LoginDemo()
			promo := app.Sandbox.Promotions(1001)[0]
			card := promo.Cards[0]
			waitUntil(t, "the promotions in the copy", func() bool { return b.Get("/promotions").Has("#promotions-table") })
			var p *testapp.Page
			waitUntil(t, "the card's promotion on the prices form", func() bool {
				p = b.Get("/prices?limit=100")
				return p.Has("[data-testid=card-" + card + "] [data-testid=promotion]")
			})
			note := p.Doc.Find("[data-testid=card-" + card + "] [data-testid=promotion]")
			if !strings.Contains(note.Text(), promo.Name) || note.Find("[data-testid=promo-floor]").Length() != 1 || note.AttrOr("data-promo-floor", "") == "" {
				t.Fatalf("promotion note %q", note.Text())
			}
			if _, hidden := note.Find("[data-testid=promo-below]").Attr("hidden"); !hidden {
				t.Error("the current price is marked below the floor")
			}
			var current int64
			for _, s := range app.Sandbox.Products(1001) {
				if s.ParentSKU == card {
					current = s.Price
					break
				}
			}
			want := current * 6 / 10 // below the floor (30 % off), above half: held by the promotion alone
			form := p.FormValues("#prices-form")
			for i, s := range form["sku"] {
				if s == card {
					form["price"][i], form["sale"][i] = moneyIn(want), ""
				}
			}
			form.Set("action", "send")
			res := b.Post("/prices?limit=100", form)
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("submit: %d, want 422", res.Status)
			}
			if _, hidden := res.Doc.Find("[data-testid=card-" + card + "] [data-testid=promo-below]").Attr("hidden"); hidden {
				t.Error("the held price is not marked below the floor")
			}
			if got := res.Text("[data-testid=leaving]"); got == "" || !strings.Contains(res.Text("[data-testid=fraud-confirm]"), card+" «"+promo.Name+"»") {
				t.Errorf("send anyway does not name the promotion left: %q", res.Text("[data-testid=fraud-confirm]"))
			}
			confirm := res.FormValues("#prices-form")
			confirm.Set("action", "force")
			b.Post("/prices?limit=100", confirm)
			if f := app.Sandbox.Counters().Forced; f[card] != 1 || len(f) != 1 {
				t.Errorf("forced writes %v, want one for %s", f, card)
			}
			h := b.Get("/history")
			if !strings.Contains(h.Text("#history-table"), promo.Name) {
				t.Errorf("the history does not say the card left %q: %q", promo.Name, h.Text("#history-table"))
			}
		})
	}
}
