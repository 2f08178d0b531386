package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// copyComplete waits until the session's local copy is complete and no
// sync of the instance runs.
func copyComplete(j *journey, gen int64) {
	j.t.Helper()
	k := copystore.Key{SellerID: 1001, Env: "test"}
	deadline := time.Now().Add(waitTimeout)
	for time.Now().Before(deadline) {
		st, err := j.app.Catalog.Store().SyncStates(context.Background(), k)
		if err != nil {
			j.t.Fatal(err)
		}
		done := !j.app.Catalog.Running(k)
		for _, kind := range copystore.Kinds {
			done = done && st[kind].Gen >= gen && st[kind].Complete() && !st[kind].Running
		}
		if done {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	j.t.Fatalf("the copy was not complete within %s", waitTimeout)
}

// queryOf is the query of a location.
func queryOf(t *testing.T, loc string) url.Values {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatalf("location %q: %v", loc, err)
	}
	return u.Query()
}

// Journey 13 (issue 16): search the local copy for a product by a word of
// its Russian name as it is typed, on the nomenclature and on the prices
// page, change its price on the filtered prices page, land back on it with
// the new price pending, and see it (pending, then confirmed) in the
// filtered lists; the filtered prices in Russian at 1366 and 390 px.
func TestJourneyCopySearch(t *testing.T) {
	j := newJourney(t, 13, "copy-search", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 40}, Catalog: true})
	// The sync reads the return boxes last: held there, the overview
	// shows what the copy holds so far and the sync's progress.
	release := j.app.Sandbox.HoldAfter(sandbox.RouteReturnBoxes, 0)
	defer release()
	j.loginDemo()
	j.open("/")
	refreshing := strings.TrimLeft(j.trd("copy.refreshing", map[string]any{"Kind": j.tr("copy.kind_boxes")}), ", ")
	j.until("the sync's progress", `(document.querySelector("[data-testid=sync-status]")||{textContent:""}).textContent.includes(`+jsString(refreshing)+`) && document.querySelector("[data-testid=sync-status] progress")`)
	j.snapshot("overview-syncing", false)
	release()
	copyComplete(j, 1)
	j.open("/")
	if got := j.text("[data-testid=sync-status]"); !strings.HasPrefix(got, j.lead("copy.as_of")) {
		t.Errorf("overview freshness %q", got)
	}
	j.snapshot("overview", false)

	var target sandbox.Product
	for _, p := range j.app.Sandbox.Products(1001) {
		if strings.HasPrefix(p.Name, "Кроссовки") {
			target = p
			break
		}
	}
	if target.MarketplaceSKU == "" {
		t.Fatal("no Кроссовки among the fixtures")
	}
	j.open("/nomenclature")
	j.markPage()
	j.typeInto("copy-q", "крос")
	j.until("the results of the search as typed", `new URLSearchParams(location.search).get("q") === "крос" && document.querySelectorAll("#nomenclature-table tbody tr").length > 0 && Array.from(document.querySelectorAll("#nomenclature-table tbody tr")).every(r => r.textContent.includes("Кроссовки"))`)
	if !j.samePage() {
		t.Error("the search reloaded the page instead of swapping the results")
	}
	if eval[string](j, `document.activeElement && document.activeElement.id`) != "copy-q" {
		t.Error("the search box lost the focus while the results changed")
	}
	if !eval[bool](j, fmt.Sprintf(`document.querySelector("#nomenclature-table").textContent.includes(%q)`, target.MarketplaceSKU)) {
		t.Fatalf("the search for крос does not list %s (%s)", target.MarketplaceSKU, target.Name)
	}
	j.snapshot("search", false)
	j.do("phone width", chromedp.EmulateViewport(390, 844))
	j.snapshot("search-390", false)
	j.do("desktop width", chromedp.EmulateViewport(1366, 900))

	// Change its price on the prices page, found there too by a word of
	// its name typed into the copy's search.
	j.open("/prices")
	j.markPage()
	j.typeInto("copy-q", "крос")
	j.until("the prices found as typed", `new URLSearchParams(location.search).get("q") === "крос" && document.querySelectorAll("#prices-table tbody tr").length > 0 && Array.from(document.querySelectorAll("#prices-table tbody tr")).every(r => r.textContent.includes("Кроссовки"))`)
	if !j.samePage() {
		t.Error("the prices search reloaded the page instead of swapping the results")
	}
	filtered := j.location()
	if accountless(filtered) != "/prices?q=%D0%BA%D1%80%D0%BE%D1%81" {
		t.Errorf("the search as typed shows %s, want the short link /prices?q=крос", filtered)
	}
	rows := priceRows(j)
	idx := -1
	for i, r := range rows {
		if r.SKU == target.MarketplaceSKU {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("%s is not on the prices page found by крос", target.MarketplaceSKU)
	}
	// Moving from the search box into the form asks for nothing more: a
	// second search would swap the form away under the user's typing.
	eval[chromedp.Void](j, `window.__copySearches = 0; document.addEventListener("htmx:beforeRequest", e => { if (e.detail.elt.closest("form.copy-search")) window.__copySearches++ })`)
	// The results were swapped in: the drop warning still follows the
	// typing.
	j.typeInto("price-"+strconv.Itoa(idx), "1")
	if n := eval[int](j, `window.__copySearches`); n != 0 {
		t.Errorf("leaving the search box for the form searched again (%d requests)", n)
	}
	j.until("the drop warning on the swapped-in form", `(document.querySelector("[data-testid=drop-warning]")||{textContent:""}).textContent.includes("%")`)
	newPrice := money(t, rows[idx].Orig) + 77700
	j.typeInto("price-"+strconv.Itoa(idx), newPrice.Decimal())
	j.typeInto("sale-"+strconv.Itoa(idx), "\b")
	j.typeInto("price-"+strconv.Itoa(idx), "\n")
	pending := priceRowSel(target.MarketplaceSKU) + " [data-status=PROCESSING]"
	j.until("the new price, pending, on the filtered page", fmt.Sprintf(`document.querySelector("#flash-area .flash") && document.querySelector(%q)`, pending))
	if got := j.location(); queryOf(t, got).Get("q") != "крос" || !strings.HasPrefix(accountless(got), "/prices?") {
		t.Errorf("after the change the page is %s, want the filtered prices (%s)", got, filtered)
	}
	if got := j.text(priceRowSel(target.MarketplaceSKU) + " [data-testid=current]"); squash(got) != j.shown(newPrice) {
		t.Errorf("the filtered prices show %q, want the new price %q", got, j.shown(newPrice))
	}
	if n := j.count("#prices-table tbody tr"); n != len(rows) {
		t.Errorf("the filtered prices list %d rows after the change, %d before", n, len(rows))
	}
	j.snapshot("prices-pending", true)

	j.open("/nomenclature?q=" + "%D0%BA%D1%80%D0%BE%D1%81")
	row := fmt.Sprintf(`Array.from(document.querySelectorAll("#nomenclature-table tbody tr")).filter(r => r.textContent.includes(%q))`, target.MarketplaceSKU)
	shows := eval[[]string](j, row+`.map(r => r.querySelector("td.num").firstChild.textContent.trim())`)
	if len(shows) != 3 {
		t.Fatalf("%d rows of %s in the filtered list", len(shows), target.MarketplaceSKU)
	}
	for _, s := range shows {
		if squash(s) != j.shown(newPrice) {
			t.Errorf("the filtered list shows %q, want the new price %q", s, j.shown(newPrice))
		}
	}
	j.press("[data-testid=sync-refresh]")
	copyComplete(j, 2)
	j.open("/nomenclature?q=" + "%D0%BA%D1%80%D0%BE%D1%81")
	shows = eval[[]string](j, row+`.map(r => r.querySelector("td.num").firstChild.textContent.trim())`)
	for _, s := range shows {
		if squash(s) != j.shown(newPrice) {
			t.Errorf("after the next read the list shows %q, want %q", s, j.shown(newPrice))
		}
	}

	// The filtered prices, confirmed, in Russian at 1366 and 390 px.
	j.open(filtered)
	if n := j.count(pending); n != 0 {
		t.Errorf("%s is still pending after the next read", target.MarketplaceSKU)
	}
	j.markPage()
	j.press("[data-testid=lang-switch] button[value=ru]")
	j.untilNewPage("the Russian prices page", `document.documentElement.lang === "ru"`)
	if got := j.location(); queryOf(t, got).Get("q") != "крос" {
		t.Errorf("the language switch left the filtered view for %s", got)
	}
	if got := j.text("[data-testid=sync-status]"); !strings.HasPrefix(got, "По состоянию на") {
		t.Errorf("Russian freshness line %q", got)
	}
	for _, w := range []int64{1366, 390} {
		j.do("viewport", chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile))
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("the Russian prices page is %d px wide in a %d px window", sw, iw)
		}
		j.snapshot("prices-ru-"+strconv.FormatInt(w, 10), false)
	}
	j.do("desktop width", chromedp.EmulateViewport(1366, 900))
}
