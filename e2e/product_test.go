package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 26: a product's price changed twice through the prices form;
// its page, opened from the list, draws its price history (the first
// price and two steps up), lists both changes newest first and reads in
// the run's language; at 1366 and 390 px it is no wider than the screen.
func TestJourneyProductPage(t *testing.T) {
	j := newJourney(t, 26, "product", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true, GuardPercent: -1})
	j.loginDemo()
	copyComplete(j, 1)
	j.open("/prices")
	j.until("the prices form", `document.querySelector("#prices-form")`)
	sku := eval[string](j, `document.querySelector("#prices-form input[name=sku]").value`)
	was := money(t, eval[string](j, `document.querySelector("#prices-form input[name=orig_price]").value`))
	updated := j.trn("prices.updated", 1)
	for n, p := range []int64{was.Kopecks() + was.Kopecks()/20, was.Kopecks() + was.Kopecks()/10} {
		if n > 0 {
			j.open("/prices")
			j.until("the prices form", `document.querySelector("#prices-form")`)
		}
		j.typeInto("price-0", fmt.Sprintf("%d.%02d", p/100, p%100))
		j.markPage()
		j.typeInto("price-0", "\n")
		j.untilNewPage("the flash", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	}

	// The product's page, from its link in the list.
	link := `#prices-form a[data-testid=product-link]`
	if got := j.text(link); got != sku {
		t.Fatalf("the first row links %q, want %s", got, sku)
	}
	j.markPage()
	j.press(link)
	j.untilNewPage("the product's page", `document.querySelector("#product-chart")`)
	if got := j.text("#product-chart h2"); got != j.tr("product.chart_heading") {
		t.Errorf("chart heading %q, want %q", got, j.tr("product.chart_heading"))
	}
	if got := j.text("[data-testid=product-sku]"); got != sku {
		t.Errorf("the page names %q, want %s", got, sku)
	}
	if steps := eval[string](j, `document.querySelector("svg[data-testid=price-chart]").dataset.steps`); steps != "2" {
		t.Errorf("the chart draws %s steps, want 2", steps)
	}
	path := eval[string](j, `document.querySelector("path[data-testid=chart-price]").getAttribute("d")`)
	if n := strings.Count(path, "V"); n != 2 {
		t.Errorf("the price line %q has %d steps, want 2", path, n)
	}
	// The line is drawn: it has a length on screen, and both steps go up.
	if l := eval[float64](j, `document.querySelector("path[data-testid=chart-price]").getTotalLength()`); l < 100 {
		t.Errorf("the price line is %.0f units long", l)
	}
	if n := j.count("#product-history > li"); n != 2 {
		t.Errorf("%d changes in the history, want 2", n)
	}
	newest := j.text("#product-history > li:first-child [data-testid=product-history-change]")
	last := j.shown(money(t, fmt.Sprintf("%d.%02d", (was.Kopecks()+was.Kopecks()/10)/100, (was.Kopecks()+was.Kopecks()/10)%100)))
	if !strings.Contains(newest, last) {
		t.Errorf("the newest change %q does not end at %s", newest, last)
	}
	if n := j.count("[data-testid=price-point]"); n != 3 {
		t.Errorf("%d observed prices listed, want 3", n)
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw := eval[int](j, `document.documentElement.scrollWidth`); sw > int(width) {
			t.Errorf("at %d px the page is %d px wide", width, sw)
		}
		// The drawing for the width is the one shown, within the screen.
		shown, hidden := "price-chart", "price-chart-narrow"
		if width < 600 {
			shown, hidden = hidden, shown
		}
		box := eval[[]float64](j, `(r => [r.width, r.right])(document.querySelector("svg[data-testid=`+shown+`]").getBoundingClientRect())`)
		if box[0] < 200 || box[1] > float64(width) {
			t.Errorf("at %d px the chart %s is %.0f px wide and ends at %.0f px", width, shown, box[0], box[1])
		}
		if w := eval[float64](j, `document.querySelector("svg[data-testid=`+hidden+`]").getBoundingClientRect().width`); w != 0 {
			t.Errorf("at %d px the chart %s is shown too", width, hidden)
		}
		png := run(j, "screenshot", chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-26-product-%d.png", width)), png, 0o644); err != nil {
			t.Error(err)
		}
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
}
