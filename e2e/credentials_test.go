package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 21: one account of a session refused. Logged in to seller 1001
// (test) with seller 1002 (production) added, seller 1002's secret is
// rotated and its tokens expire. Opening 1002's orders lands on the
// accounts page: it says why, 1001 is still listed and current, and the
// form offers 1002 again (client id, seller, environment; the secret
// empty). The new secret and Enter bring back 1002's orders, with both
// accounts in the session. Screenshots at 1366 and 390 px wide.
func TestJourneyRefusedAccount(t *testing.T) {
	j := newJourney(t, 18, "refused-account", testapp.Options{})
	j.loginDemo()
	j.open("/accounts")
	j.typeInto("client_id", "demo-1002")
	j.typeInto("seller_id", "1002")
	j.choose("environment", "production")
	j.markPage()
	j.typeInto("client_secret", "sandbox-secret-1002\n")
	j.untilNewPage("the added account's overview", `document.querySelector("[data-testid=who]") && document.querySelector("[data-testid=who]").textContent.includes("1002")`)
	accountB := strings.TrimSuffix(j.location(), "/")
	if !strings.HasPrefix(accountB, "/a/") {
		t.Fatalf("the added account's overview is at %q", accountB)
	}

	j.app.Sandbox.RotateSecret("demo-1002", "rotated-secret-1002")
	j.app.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute)
	j.open(accountB + "/orders")
	j.until("the accounts page offering seller 1002 again", `document.getElementById("client_id") && document.getElementById("client_id").value === "demo-1002"`)
	if loc := j.location(); loc != "/accounts" {
		t.Errorf("the refusal led to %q, want /accounts", loc)
	}
	if flash := j.text("#flash-area"); !strings.Contains(flash, "demo-1002") {
		t.Errorf("flash %q does not name the refused account", flash)
	}
	if got := [3]string{j.value("seller_id"), j.value("environment"), j.value("client_secret")}; got != [3]string{"1002", "production", ""} {
		t.Errorf("the form offers seller, environment, secret %q", got)
	}
	if n := j.count("[data-testid=account-list] li"); n != 1 {
		t.Errorf("%d accounts listed, want seller 1001 alone", n)
	}
	if who := j.text("[data-testid=who]"); !strings.Contains(who, "1001") {
		t.Errorf("the header names %q, want seller 1001", who)
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("the accounts page at %d px is %d px wide", width, sw)
		}
		png := run(j, "screenshot", chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-18-refused-account-%d.png", width)), png, 0o644); err != nil {
			t.Error(err)
		}
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))

	j.markPage()
	j.typeInto("client_secret", "rotated-secret-1002\n")
	j.untilNewPage("seller 1002's orders again", `location.pathname.endsWith("/orders") && document.querySelector("[data-testid=who]") && document.querySelector("[data-testid=who]").textContent.includes("1002")`)
	if loc := j.location(); !strings.HasPrefix(loc, accountB+"/orders") {
		t.Errorf("adding the account again led to %q, want its orders %s/orders", loc, accountB)
	}
	j.open("/accounts")
	j.until("the accounts page", `document.querySelector("[data-testid=account-list]")`)
	if n := j.count("[data-testid=account-list] li"); n != 2 {
		t.Errorf("%d accounts listed after adding seller 1002 again, want 2", n)
	}
}
