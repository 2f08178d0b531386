package e2e

import (
	"github.com/sellerdesk/sellerdesk/views/paths"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 8: with JavaScript off, the dashboard still works: htmx only
// enhances plain forms. Log in, change one price, see the result.
func TestJourneyNoJavaScript(t *testing.T) {
	j := newJourney(t, 8, "no-javascript", testapp.Options{})
	if _, err := chromedp.Call(j.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("disable JavaScript: %v", err)
	}

	// Record the form posts and the redirects that answer them.
	type post struct {
		url      string
		htmx     bool
		redirect int    // status of the redirect answering it, 0 if none
		location string // where it pointed
	}
	var (
		mu    sync.Mutex
		posts = map[network.RequestID]*post{}
	)
	if err := chromedp.Listen(j.ctx, func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if p := posts[e.RequestID]; p != nil && e.RedirectResponse != nil {
			p.redirect = int(e.RedirectResponse.Status)
			p.location = strings.TrimPrefix(e.Request.URL, j.app.URL)
		}
		if e.Request.Method == http.MethodPost {
			_, hx := e.Request.Headers["HX-Request"]
			if !hx {
				_, hx = e.Request.Headers["Hx-Request"]
			}
			posts[e.RequestID] = &post{url: strings.TrimPrefix(e.Request.URL, j.app.URL), htmx: hx}
		}
	}); err != nil {
		t.Fatal(err)
	}

	j.loginDemo()
	if on := eval[bool](j, `typeof htmx !== "undefined"`); on {
		t.Fatal("htmx ran although JavaScript is off")
	}
	j.open("/prices")
	orig := eval[string](j, `document.querySelector("#prices-form tbody tr input[name=orig_price]").value`)
	sku := eval[string](j, `document.querySelector("#prices-form tbody tr input[name=sku]").value`)
	newPrice := money(t, orig) + 100
	j.markPage()
	j.typeInto("price-0", newPrice.Decimal()+"\n") // a plain form post
	j.untilNewPage("the flash after the plain post", `location.pathname.endsWith("/prices") && (document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(j.trn("prices.updated", 1))+`)`)
	if got := j.text("#flash-area"); !strings.Contains(got, j.trn("prices.updated", 1)) {
		t.Errorf("flash %q, want %q", got, j.trn("prices.updated", 1))
	}
	if got := j.text(priceRowSel(sku) + " [data-testid=current]"); got != j.shown(newPrice) {
		t.Errorf("current price %q, want %q", got, j.shown(newPrice))
	}

	mu.Lock()
	defer mu.Unlock()
	var found bool
	for _, p := range posts {
		if !strings.HasPrefix(accountless(p.url), "/prices") {
			continue
		}
		found = true
		if p.htmx {
			t.Errorf("POST %s carried HX-Request with JavaScript off", p.url)
		}
		if p.redirect != http.StatusSeeOther || !strings.HasPrefix(accountless(p.location), "/prices") {
			t.Errorf("POST %s answered %d to %q, want 303 to /prices", p.url, p.redirect, p.location)
		}
	}
	if !found {
		t.Error("no POST /prices was seen")
	}
}

// accountless is an account's path ("/a/{account}/prices") without the
// account ("/prices").
func accountless(p string) string {
	if _, rest, ok := paths.Split(p); ok {
		return rest
	}
	return p
}
