package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 6: the marketplace tokens expire between two actions (15 minutes
// in the sandbox); the second action just works.
func TestJourneyTokenExpiry(t *testing.T) {
	j := newJourney(t, 6, "token-expiry", testapp.Options{})
	j.loginDemo()
	j.open("/prices")
	orig := eval[string](j, `document.querySelector("#prices-form tbody tr input[name=orig_price]").value`)
	sku := eval[string](j, `document.querySelector("#prices-form tbody tr input[name=sku]").value`)
	if sku == "" || orig == "" {
		t.Fatal("the prices page shows no first row")
	}
	newPrice := money(t, orig) + 100
	tokens := j.app.Sandbox.Counters().TokensIssued["seller"]

	j.app.Sandbox.Advance(16 * time.Minute) // past the token lifetime

	j.markPage()
	j.typeInto("price-0", newPrice.Decimal()+"\n")
	j.untilNewPage("the flash after the update", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(j.trn("prices.updated", 1))+`)`)
	if got := j.text("#flash-area"); !strings.Contains(got, j.trn("prices.updated", 1)) {
		t.Errorf("flash %q, want %q", got, j.trn("prices.updated", 1))
	}
	if !strings.HasSuffix(j.location(), "/prices") {
		t.Errorf("the update ended on %s, want /prices", j.location())
	}
	if got := j.text(priceRowSel(sku) + " [data-testid=current]"); got != j.shown(newPrice) {
		t.Errorf("current price %q after the update, want %q", got, j.shown(newPrice))
	}
	if got := j.app.Sandbox.Counters().TokensIssued["seller"] - tokens; got != 1 {
		t.Errorf("%d seller tokens issued after the expiry, want 1", got)
	}
}
