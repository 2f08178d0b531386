package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 16: several accounts in one session. Logged in to seller 1001 in
// the test environment, add seller 1002 in production from the accounts
// page; the header names 1002 and its switcher leads to the same screen
// (prices) of 1001, under that account's path; a price changed there is
// applied to 1001, and seller 1002's prices page still shows the old price.
// Screenshots at 1366 and 390 px wide; no page wider than the screen.
func TestJourneyAccounts(t *testing.T) {
	j := newJourney(t, 16, "accounts", testapp.Options{})
	j.loginDemo()

	// Add an account: the login's form, on the accounts page.
	j.open("/accounts")
	j.typeInto("client_id", "demo-1002")
	j.typeInto("seller_id", "1002")
	j.choose("environment", "production")
	j.markPage()
	j.typeInto("client_secret", "sandbox-secret-1002\n")
	j.untilNewPage("the added account's overview", `document.querySelector("[data-testid=who]") && document.querySelector("[data-testid=who]").textContent.includes("1002")`)
	accountB := j.location()
	if !strings.HasPrefix(accountB, "/a/") {
		t.Fatalf("the added account's overview is at %q", accountB)
	}
	if flash := j.text("#flash-area"); !strings.Contains(flash, "1002") {
		t.Errorf("flash %q", flash)
	}

	// Its prices, then the switcher to the same screen of seller 1001.
	j.open("/prices")
	j.until("seller 1002's prices", `document.querySelector("#prices-form") && location.pathname.startsWith("/a/")`)
	before1002 := priceRows(j)
	j.press("[data-testid=account-switch] summary")
	j.until("the switcher open", `document.querySelector("[data-testid=account-switch]").open`)
	shots := func(name string) {
		for _, width := range []int64{1366, 390} {
			if width < 600 {
				j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
			} else {
				j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
			}
			if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
				t.Errorf("%s at %d px: the page is %d px wide", name, width, sw)
			}
			png := run(j, "screenshot", chromedp.CaptureScreenshot())
			if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-16-accounts-%s-%d.png", name, width)), png, 0o644); err != nil {
				t.Error(err)
			}
		}
		j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
	}
	shots("switcher")
	j.markPage()
	j.press("[data-testid=switch-account]")
	j.untilNewPage("seller 1001's prices", `document.querySelector("#prices-form") && document.querySelector("[data-testid=who]").textContent.includes("1001")`)
	accountA := j.location()
	if !strings.HasPrefix(accountA, "/a/") || !strings.HasSuffix(accountA, "/prices") || strings.HasPrefix(accountA, strings.TrimSuffix(accountB, "/")) {
		t.Fatalf("the switcher led to %q (seller 1002 is at %q)", accountA, accountB)
	}
	if action := eval[string](j, `document.querySelector("#prices-form").getAttribute("action")`); !strings.HasPrefix(action, strings.TrimSuffix(accountA, "/prices")+"/") {
		t.Errorf("seller 1001's price form posts to %q", action)
	}

	// Change one price of seller 1001.
	rows := priceRows(j)
	p := money(t, rows[0].Orig) + 100
	j.typeInto("price-0", p.Decimal())
	j.markPage()
	j.typeInto("price-0", "\n")
	updated := j.trn("prices.updated", 1)
	j.untilNewPage("the flash", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	j.open(accountA)
	j.until("seller 1001's prices again", `document.querySelector("#prices-form")`)
	if got := j.text(priceRowSel(rows[0].SKU) + " [data-testid=current]"); got != j.shown(p) {
		t.Errorf("seller 1001's %s: %q, want %q", rows[0].SKU, got, j.shown(p))
	}
	shots("prices")

	// Seller 1002 is untouched.
	j.open(strings.TrimSuffix(accountB, "/") + "/prices")
	j.until("seller 1002's prices again", `document.querySelector("#prices-form")`)
	after1002 := priceRows(j)
	if fmt.Sprint(after1002) != fmt.Sprint(before1002) {
		t.Errorf("seller 1002's prices changed: %v → %v", before1002, after1002)
	}
	j.open("/accounts")
	j.until("the accounts page", `document.querySelector("[data-testid=account-list]")`)
	if n := j.count("[data-testid=account-list] li"); n != 2 {
		t.Errorf("%d accounts listed, want 2", n)
	}
	shots("list")
}
