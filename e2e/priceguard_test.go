package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// Journey 18: the overview's "rejected by moderation" link opens the
// filtered nomenclature; one quantity changed there is saved, the page
// comes back filtered, and the marketplace holds the new quantity.
func TestJourneySaveOnFilteredList(t *testing.T) {
	j := newJourney(t, 17, "filtered-save", testapp.Options{Catalog: true})
	j.loginDemo()
	link := `[data-testid=needs-action] a[href*="status=rejected"]`
	deadline := time.Now().Add(waitTimeout)
	for {
		j.open("/")
		if j.count(link) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no link to the rejected records on the overview: %q", j.visibleText())
		}
		time.Sleep(200 * time.Millisecond) // the copy's first pass is still running
	}
	if got := j.text(link); got != j.tr("overview.rejected") {
		t.Errorf("the link reads %q, want %q", got, j.tr("overview.rejected"))
	}
	j.markPage()
	j.press(link)
	j.untilNewPage("the filtered list", `location.search.includes("status=rejected") && document.querySelector("#nomenclature-form")`)
	wh := eval[string](j, `document.querySelector("#nomenclature-form input[name=wh]").value`)
	bc := eval[string](j, `document.querySelector("#nomenclature-form input[name=bc]").value`)
	q, err := strconv.Atoi(j.value("qty-0"))
	if err != nil {
		t.Fatalf("row 0 quantity %q", j.value("qty-0"))
	}
	want := q + 3
	j.typeInto("qty-0", strconv.Itoa(want))
	if got := j.text("#nomenclature-submit"); got != j.tr("nomenclature.save") {
		t.Errorf("the button reads %q, want %q", got, j.tr("nomenclature.save"))
	}
	stores := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
	j.markPage()
	j.press("#nomenclature-submit")
	updated := j.trn("nomenclature.rows_updated", 1)
	j.untilNewPage("the flash after the save", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	if loc := j.location(); !strings.Contains(loc, "status=rejected") {
		t.Errorf("after the save the list is %q, want it still filtered", loc)
	}
	if got, _, ok := j.app.Sandbox.Stock(1001, wh, bc); !ok || got != want {
		t.Errorf("the marketplace holds %d for %s|%s, want %d", got, wh, bc, want)
	}
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] - stores; n != 1 {
		t.Errorf("%d store requests, want 1", n)
	}
}

// Journey 19: a price typed with a finger slip (17 399 → 2 000, −88 %)
// beside a small change of another product: the small change is sent, the
// slip is held with its change (and, were the product on sale, a word that
// the sale ends); nothing of it reaches the marketplace. Ticked and saved
// again, it is sent.
func TestJourneyPriceGuard(t *testing.T) {
	j := newJourney(t, 18, "price-guard", testapp.Options{})
	j.loginDemo()
	products := j.app.Sandbox.Products(1001)
	slip, other := products[0], products[1]
	for _, p := range products {
		if p.Price == 17399_00 { // the seller's product; else the first, at the same −88.5 %
			slip = p
			break
		}
	}
	for _, p := range products {
		if p.MarketplaceSKU != slip.MarketplaceSKU {
			other = p
			break
		}
	}
	j.open("/prices?limit=1000")
	rows := priceRows(j)
	at := map[string]int{}
	for i, r := range rows {
		at[r.SKU] = i
	}
	i, ok1 := at[slip.MarketplaceSKU]
	k, ok2 := at[other.MarketplaceSKU]
	if !ok1 || !ok2 {
		t.Fatalf("%s or %s not on the prices page", slip.MarketplaceSKU, other.MarketplaceSKU)
	}
	typo := apiclient.Money(slip.Price * 2000_00 / 17399_00)
	j.typeInto("price-"+strconv.Itoa(i), typo.Decimal())
	onSale := slip.SalePrice > 0 && slip.SalePrice < slip.Price
	if onSale {
		j.typeInto("sale-"+strconv.Itoa(i), "\b")
		// Before anything is sent, the row says its sale ends.
		note := j.text(fmt.Sprintf("#sale-%d-drop", i))
		if !strings.Contains(note, j.shown(apiclient.Money(slip.SalePrice))) {
			t.Errorf("emptied sale field: note %q, want the sale %s named", note, j.shown(apiclient.Money(slip.SalePrice)))
		}
	}
	// On a product on sale, emptying the sale field says at once, before
	// anything is sent, that the sale ends; typed back, the note goes.
	saleRow := eval[int](j, fmt.Sprintf(`Array.from(document.querySelectorAll("#prices-form tbody tr")).findIndex((r, n) => n !== %d && n !== %d && r.querySelector("input[name=orig_sale]").value !== "")`, i, k))
	if saleRow < 0 {
		t.Fatalf("no other product on sale on the page (row %d)", saleRow)
	}
	origSale := j.value("sale-" + strconv.Itoa(saleRow))
	j.typeInto("sale-"+strconv.Itoa(saleRow), "\b")
	if note := j.text(fmt.Sprintf("#sale-%d-drop", saleRow)); !strings.Contains(note, j.shown(money(t, origSale))) || !j.says(note, "prices.sale_ends_hint") {
		t.Errorf("emptied sale field: note %q, want that the sale %s ends", note, j.shown(money(t, origSale)))
	}
	j.typeInto("sale-"+strconv.Itoa(saleRow), origSale)
	if note := j.text(fmt.Sprintf("#sale-%d-drop", saleRow)); note != "" {
		t.Errorf("the sale typed back: note %q, want none", note)
	}
	small := money(t, rows[k].Orig) + 100
	j.typeInto("price-"+strconv.Itoa(k), small.Decimal())
	calls := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	j.markPage()
	j.press("#prices-submit")
	row := priceRowSel(slip.MarketplaceSKU)
	j.until("the held row", `document.querySelector("`+row+` [data-testid=held]")`)
	j.swappedInPlace("#prices-form")

	wantDelta := squash(format.PercentIn(j.lang, massupdate.GuardDelta{Old: slip.Price, New: int64(typo)}.Permille()))
	if got := j.text(row + " [data-testid=held-delta]"); got != wantDelta || !strings.HasPrefix(got, "−88") {
		t.Errorf("held change %q, want %q", got, wantDelta)
	}
	result := j.text(row + " [data-testid=result]")
	if !j.says(result, "prices.held") {
		t.Errorf("held row says %q, want why it is held", result)
	}
	if onSale && !j.says(result, "mass.sale_ends") {
		t.Errorf("held row says %q, want that the sale ends", result)
	}
	if got := j.text("[data-testid=summary]"); !strings.Contains(got, squash(j.trd("prices.summary_held", map[string]any{"Held": "1"}))) {
		t.Errorf("summary %q does not count the held row", got)
	}
	now := j.app.Sandbox.Products(1001)
	for _, p := range now {
		switch p.MarketplaceSKU {
		case slip.MarketplaceSKU:
			if p.Price != slip.Price {
				t.Errorf("the held price reached the marketplace: %d, was %d", p.Price, slip.Price)
			}
		case other.MarketplaceSKU:
			if p.Price != int64(small) {
				t.Errorf("the small change was not sent: %d, want %d", p.Price, int64(small))
			}
		}
	}
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 1 {
		t.Errorf("%d set-prices requests, want 1 (the small change alone)", n)
	}
	j.snapshot("held", true)

	// Confirm the row and save again.
	confirm := row + " [data-testid=confirm-guard]"
	j.do("tick the confirmation with Space", chromedp.Focus(chromedp.CSS(confirm)), chromedp.KeyEvent(" "))
	if !eval[bool](j, `document.querySelector("`+confirm+`").checked`) {
		t.Fatal("Space did not tick the confirmation")
	}
	j.markPage()
	j.press("#prices-submit")
	updated := j.trn("prices.updated", 1)
	j.untilNewPage("the flash after the confirmed save", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	for _, p := range j.app.Sandbox.Products(1001) {
		if p.MarketplaceSKU == slip.MarketplaceSKU && p.Price != int64(typo) {
			t.Errorf("confirmed: the marketplace holds %d, want %d", p.Price, int64(typo))
		}
	}
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 2 {
		t.Errorf("%d set-prices requests in all, want 2", n)
	}
}
