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
)

// Journey 11 (issue 15): the prices page of the lamoda profile, one row per
// product card. Cut one card's price by two thirds and raise another: the
// raise is applied, the cut is held by the marketplace's price check, whose
// warning shows beside the card with "send anyway". Enter in a field
// resubmits without force (still held); pressing "send anyway" applies it.
// Screenshots at 1366 and 390 px wide; no page wider than the screen.
func TestJourneyCardPrices(t *testing.T) {
	// The marketplace's price check is the subject: the dashboard's own
	// price guard is off.
	j := newJourney(t, 11, "card-prices", testapp.Options{Profile: apiclient.ProfileLamoda, GuardPercent: -1})
	j.loginDemo()
	j.open("/prices?limit=20")
	if j.count("tbody.card") == 0 || j.count("tr.size") <= j.count("tbody.card") {
		t.Fatalf("%d cards, %d sizes: want cards with their sizes beneath", j.count("tbody.card"), j.count("tr.size"))
	}
	cut := money(t, j.value("price-0"))
	raise := money(t, j.value("price-1"))
	// A drop the marketplace refuses is warned of as it is typed, beside
	// the card's field; the warning goes when the price is fixed.
	j.typeInto("price-0", "1")
	j.until("the drop warning beside the card's price", `(document.getElementById("price-0-drop")||{textContent:""}).textContent.includes("%")`)
	if got := j.text("#price-0-drop"); !j.says(got, "prices.drop_warning") {
		t.Errorf("drop warning %q", got)
	}
	j.typeInto("price-0", (cut / 3).Decimal())
	j.until("no drop warning for a cut the marketplace accepts", `document.getElementById("price-0-drop").textContent === ""`)
	j.typeInto("sale-0", "\b")
	j.typeInto("price-1", (raise + 100).Decimal())
	j.typeInto("sale-1", "\b")
	j.typeInto("price-1", "\n")
	j.until("the price-check warning", `document.querySelector("[data-testid=fraud]") && document.querySelector("[data-testid=send-anyway]")`)
	if got := j.text("[data-testid=summary]"); !strings.Contains(got, j.trd("nomenclature.summary", map[string]any{"Updated": 1, "Rejected": 1})) {
		t.Errorf("summary %q", got)
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("at %d px the page is %d px wide", width, sw)
		}
		png := run(j, "screenshot", chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-11-card-prices-warning-%d.png", width)), png, 0o644); err != nil {
			t.Error(err)
		}
		// What a person sees: the first card, its warning and its sizes.
		eval[chromedp.Void](j, `document.querySelector("[data-testid=fraud-confirm]").scrollIntoView()`)
		png = run(j, "screenshot", chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-11-card-prices-warning-%d-screen.png", width)), png, 0o644); err != nil {
			t.Error(err)
		}
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))

	// Enter in a field: the plain submit, so the card stays held.
	markForm(j)
	j.typeInto("price-0", "\n")
	j.until("the answer again", `!document.querySelector("#prices-form[data-old]") && document.querySelector("[data-testid=fraud]")`)
	if got := j.app.Sandbox.Products(1001)[0].Price; apiclient.Money(got) == cut/3 {
		t.Fatal("Enter in a field sent force: the held price was applied")
	}

	markForm(j)
	j.press("[data-testid=send-anyway]")
	j.until("the confirmed card", `!document.querySelector("#prices-form[data-old]") && !document.querySelector("[data-testid=send-anyway]")`)
	if got := j.app.Sandbox.Products(1001)[0].Price; apiclient.Money(got) != cut/3 {
		t.Errorf("after send anyway the first size costs %d, want %d", got, cut/3)
	}
}

// markForm tags the prices form, so that a wait can tell the answer swapped
// in (a new form) from the one on screen.
func markForm(j *journey) {
	j.t.Helper()
	eval[chromedp.Void](j, `document.querySelector("#prices-form").dataset.old = "1"`)
}
