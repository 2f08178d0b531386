package handlers_test

import (
	"net/http"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestCardPricesHeldFlowBothAPIs: the held-card flow is the same whichever
// API writes the prices (SELLERDESK_LAMODA_PRICE_API): the first submit
// applies the plain change and holds the steep drop with a warning and
// "send anyway"; "send anyway" forces that card once, at exactly the
// price typed (kopecks), through the chosen API only.
func TestCardPricesHeldFlowBothAPIs(t *testing.T) {
	t.Parallel()
	for _, api := range []apiclient.PriceAPI{apiclient.PriceAPIV1, apiclient.PriceAPIV2} {
		t.Run(string(api), func(t *testing.T) {
			// The price check holds the card, not the fat-finger guard.
			app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, GuardPercent: -1, APIOptions: func(o *apiclient.Options) {
				o.PriceAPI = api
			}})
			b := app.Browser(t)
			b.LoginDemo()
			cards := cardsOf(app.Sandbox, 1001)
			ok, held := cards[0], cards[2]
			p := b.Get("/prices?limit=100")
			form := p.FormValues("#prices-form")
			set := func(parent, price string) {
				for i, s := range form["sku"] {
					if s == parent {
						form["price"][i], form["sale"][i] = price, ""
						return
					}
				}
				t.Fatalf("card %s not in the form", parent)
			}
			held0 := held.sizes[0].Price
			want := held0/3 + 1 // an amount with kopecks
			set(ok.parent, moneyIn(ok.sizes[0].Price+10000))
			set(held.parent, moneyIn(want))
			form.Set("action", "send")
			res := b.Post("/prices?limit=100", form)
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("submit: %d, want 422", res.Status)
			}
			if got := res.Doc.Find("[data-testid=card-" + held.parent + "] [data-testid=fraud]"); got.Length() != 1 || got.AttrOr("data-status", "") != "warning" {
				t.Fatalf("held card: %d price-check notes", got.Length())
			}
			if got := res.Doc.Find("input[name=force_card]"); got.Length() != 1 || got.AttrOr("value", "") != held.parent || !res.Has("[data-testid=send-anyway]") {
				t.Fatalf("send anyway not offered for %s alone", held.parent)
			}
			if got := app.Sandbox.Products(1001)[indexOf(app.Sandbox, ok.sizes[0].MarketplaceSKU)].Price; got != ok.sizes[0].Price+10000 {
				t.Errorf("the plain change: price %d, want %d", got, ok.sizes[0].Price+10000)
			}
			if got := app.Sandbox.Products(1001)[indexOf(app.Sandbox, held.sizes[0].MarketplaceSKU)].Price; got != held0 {
				t.Fatalf("the held price was applied without confirmation: %d", got)
			}
			confirm := res.FormValues("#prices-form")
			confirm.Set("action", "force")
			b.Post("/prices?limit=100", confirm)
			for _, s := range held.sizes {
				if got := app.Sandbox.Products(1001)[indexOf(app.Sandbox, s.MarketplaceSKU)].Price; got != want {
					t.Errorf("size %s: %d kopecks after send anyway, want %d", s.MarketplaceSKU, got, want)
				}
			}
			c := app.Sandbox.Counters()
			if c.Forced[held.parent] != 1 || len(c.Forced) != 1 {
				t.Errorf("forced writes %v, want exactly one, for %s", c.Forced, held.parent)
			}
			v1, v2 := c.Requests[sandbox.RouteRPCSetPrices], c.Requests[sandbox.RouteV2SetPrices]
			if (api == apiclient.PriceAPIV1 && (v1 != 2 || v2 != 0)) || (api == apiclient.PriceAPIV2 && (v1 != 0 || v2 != 2)) {
				t.Errorf("price writes: %d through v1, %d through v2; want both through %s", v1, v2, api)
			}
		})
	}
}
