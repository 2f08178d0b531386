package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 25: promotions beside prices (lamoda profile, demo). Open
// "Promotions": a running promotion with its windows and its cards. An
// import of a price file lowering a card in it below the floor: the
// preview marks the card with the promotion, its floor and what the price
// check and "send anyway" will do, and nothing is written. On
// the prices page, the card in it is marked with the promotion and its
// floor; lowering it below the floor marks it as typed, before anything
// is sent; send: held by the price check, "send anyway" names the
// promotion the card leaves; send anyway: applied, the sandbox counts one
// forced write for that card, and the history says the card left the
// promotion. Journey 25b runs the same with the Seller API v2 writing the
// prices (kopecks on the wire, which the sandbox checks strictly).
func TestJourneyPromotions(t *testing.T) { promotionsJourney(t, "promotions", apiclient.PriceAPIV1) }

// TestJourneyPromotionsV2 is journey 25 with SELLERDESK_LAMODA_PRICE_API=v2.
func TestJourneyPromotionsV2(t *testing.T) {
	promotionsJourney(t, "promotions-v2", apiclient.PriceAPIV2)
}

func promotionsJourney(t *testing.T, name string, api apiclient.PriceAPI) {
	j := newJourney(t, 17, name, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{Live: true},
		APIOptions: func(o *apiclient.Options) { o.PriceAPI = api }})
	j.loginDemo()
	promo := j.app.Sandbox.Promotions(1001)[0]
	card := promo.Cards[0]
	// The copy reads the promotions after the catalogue: look again until
	// they are there, as a person would.
	for i := 0; ; i++ {
		j.open("/promotions")
		if j.count("#promotions-table") > 0 {
			break
		}
		if i == 200 {
			t.Fatalf("no promotions after %d looks: %q", i, j.visibleText())
		}
	}
	row := fmt.Sprintf("[data-testid=promotion-%d]", promo.ID)
	if got := j.text(row); !strings.Contains(got, promo.Name) || j.text(row+" [data-testid=add-until]") == "—" || j.text(row+" [data-testid=remove-until]") == "—" {
		t.Errorf("promotion row %q", got)
	}
	if j.count("[data-testid=promo-card-"+card+"]") != 1 {
		t.Errorf("card %s not among the promotion's cards", card)
	}
	j.snapshot("list", false)

	// An import of a price file lowering the card below the floor: its
	// preview marks the card with the promotion, the floor and what the
	// price check and "send anyway" will do, before anything is sent.
	var size sandbox.Product
	for _, p := range j.app.Sandbox.Products(1001) {
		if p.ParentSKU == card {
			size = p
			break
		}
	}
	file := filepath.Join(t.TempDir(), "promotion-prices.csv")
	csv := "Marketplace SKU;Price\n" + size.MarketplaceSKU + ";" + apiclient.Money(size.Price*6/10).Decimal() + "\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	j.open("/bulk/import")
	j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	j.markPage()
	j.press("#import-submit")
	j.untilNewPage("the import's preview", `document.querySelector("#job-submit-form")`)
	if got := j.text("[data-testid=row-2] [data-testid=promotion]"); !strings.Contains(got, promo.Name) || !j.says(got, "mass.promo_floor") {
		t.Errorf("the preview marks card %s %q, want %q and its floor", card, got, promo.Name)
	}
	if got := j.text("[data-testid=row-2] [data-testid=promo-below]"); !j.says(got, "mass.promo_below") {
		t.Errorf("the preview's below-the-floor mark %q", got)
	}
	if c := j.app.Sandbox.Counters(); c.Requests[sandbox.RouteRPCSetPrices]+c.Requests[sandbox.RouteV2SetPrices] != 0 || len(c.Forced) != 0 {
		t.Fatalf("the import's preview wrote: %v", c.Requests)
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("the preview at %d px is %d px wide", width, sw)
		}
		j.snapshot(fmt.Sprintf("import-%d", width), false)
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1280, 900))

	j.open("/prices?limit=100")
	i := eval[int](j, fmt.Sprintf(`+document.querySelector("[data-testid=card-%s] tr[data-row]").dataset.row`, card))
	if !strings.Contains(j.text("[data-testid=card-"+card+"] [data-testid=promotion]"), promo.Name) {
		t.Fatalf("card %s not marked with %q", card, promo.Name)
	}
	current := money(t, j.value(fmt.Sprintf("price-%d", i)))
	low := current * 6 / 10 // 40 % off: below the promotion's floor, above the marketplace's half
	j.typeInto(fmt.Sprintf("sale-%d", i), "\b")
	j.typeInto(fmt.Sprintf("price-%d", i), low.Decimal())
	j.until("the below-the-floor mark as typed", fmt.Sprintf(`!document.querySelector("[data-testid=card-%s] [data-testid=promo-below]").hidden`, card))
	if got := j.text("[data-testid=card-" + card + "] [data-testid=promo-below]"); !j.says(got, "prices.promo_below") {
		t.Errorf("below-the-floor mark %q", got)
	}
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] + j.app.Sandbox.Counters().Requests[sandbox.RouteV2SetPrices]; n != 0 {
		t.Fatalf("%d price writes before sending", n)
	}
	j.snapshot("marked", false)
	markForm(j)
	j.typeInto(fmt.Sprintf("price-%d", i), "\n")
	j.until("the held card and send anyway", `!document.querySelector("#prices-form[data-old]") && document.querySelector("[data-testid=send-anyway]")`)
	if got := j.text("[data-testid=fraud-confirm]"); !strings.Contains(got, card+" «"+promo.Name+"»") || !j.says(j.text("[data-testid=leaving]"), "prices.promo_leaving") {
		t.Errorf("send anyway does not name the promotion left: %q", got)
	}
	j.snapshot("held", true)
	markForm(j)
	j.press("[data-testid=send-anyway]")
	j.until("the confirmed card", `!document.querySelector("#prices-form[data-old]") && !document.querySelector("[data-testid=send-anyway]")`)
	c := j.app.Sandbox.Counters()
	if c.Forced[card] != 1 || len(c.Forced) != 1 {
		t.Errorf("forced writes %v, want exactly one for %s", c.Forced, card)
	}
	if api == apiclient.PriceAPIV2 && (c.Requests[sandbox.RouteV2SetPrices] != 2 || c.Requests[sandbox.RouteRPCSetPrices] != 0) {
		t.Errorf("price writes: %d v2, %d v1; want 2 through v2", c.Requests[sandbox.RouteV2SetPrices], c.Requests[sandbox.RouteRPCSetPrices])
	}
	for _, p := range j.app.Sandbox.Products(1001) {
		if p.ParentSKU == card && apiclient.Money(p.Price) != low {
			t.Errorf("size %s costs %d after send anyway, want %d", p.MarketplaceSKU, p.Price, low)
		}
	}
	j.open("/history")
	if got := j.text("#history-table"); !strings.Contains(got, j.trd("prices.left_promotions", map[string]any{"Names": "«" + promo.Name + "»"})) {
		t.Errorf("the history does not say the card left the promotion: %q", got)
	}
}
