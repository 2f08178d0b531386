package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// priceRowOf is the form index of sku's row, or -1.
func priceRowOf(form url.Values, sku string) int {
	for i, s := range form["sku"] {
		if s == sku {
			return i
		}
	}
	return -1
}

// TestPriceFormHoldsChangesBeyondTheGuard: of one submit, a price typed
// far below the current one (17 399 → 2 000 in the seller's words) is
// held with its change and a confirmation, not sent, and nothing about it
// reaches the marketplace; a small change of another row is sent at once.
// Ticked and saved again, the held row is sent.
func TestPriceFormHoldsChangesBeyondTheGuard(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	products := app.Sandbox.Products(1001)
	typo, small := products[0], products[1]
	p := b.Get("/prices")
	form := p.FormValues("#prices-form")
	action, _ := p.Doc.Find("#prices-form").Attr("action")
	i, j := priceRowOf(form, typo.MarketplaceSKU), priceRowOf(form, small.MarketplaceSKU)
	if i < 0 || j < 0 {
		t.Fatalf("rows %d, %d not on the page", i, j)
	}
	typoPrice := typo.Price * 115 / 1000 // −88.5 %
	smallPrice := small.Price * 95 / 100
	form["price"][i], form["price"][j] = format.MoneyInput(typoPrice), format.MoneyInput(smallPrice)
	form["sale"][i], form["sale"][j] = "", "" // the price alone: no sale to keep below it
	calls := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]

	res := b.Post(action, form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit with a row beyond the guard: %d, want 422 with the row held", res.Status)
	}
	row := "[data-testid=price-" + typo.MarketplaceSKU + "] "
	if !res.Has(row + "[data-testid=held]") {
		t.Fatalf("the row is not held: %q", res.Text(row+"[data-testid=result]"))
	}
	delta := res.Text(row + "[data-testid=held-delta]")
	if !strings.HasPrefix(delta, "−88.") || !strings.HasSuffix(delta, "%") {
		t.Errorf("held change %q, want −88.x %% with the minus sign", delta)
	}
	if !strings.Contains(res.Text("[data-testid=summary]"), "1 held") {
		t.Errorf("summary %q does not count the held row", res.Text("[data-testid=summary]"))
	}
	now := app.Sandbox.Products(1001)
	if now[0].Price != typo.Price {
		t.Errorf("the held row reached the marketplace: price %d, was %d", now[0].Price, typo.Price)
	}
	if now[1].Price != smallPrice {
		t.Errorf("the row within the guard was not sent: price %d, want %d", now[1].Price, smallPrice)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 1 {
		t.Errorf("%d set-prices calls, want 1 (the small change)", n)
	}

	again := res.FormValues("#prices-form")
	if len(again["confirm_guard"]) != 0 {
		t.Fatal("the confirmation is ticked before the user ticks it")
	}
	token, ok := res.Doc.Find(row + "[data-testid=confirm-guard]").Attr("value")
	if !ok {
		t.Fatal("no confirmation on the held row")
	}
	again.Set("confirm_guard", token)
	res = b.Post(action, again)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed: %d %q, want 303", res.Status, res.Text("[data-testid=summary]"))
	}
	if got := app.Sandbox.Products(1001)[0].Price; got != typoPrice {
		t.Errorf("confirmed row: the marketplace holds %d, want %d", got, typoPrice)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 2 {
		t.Errorf("%d set-prices calls in all, want 2", n)
	}
}

// TestPriceFormGuardOff: with the guard off (SELLERDESK_BULK_GUARD_PERCENT=0)
// the same change is sent at once.
func TestPriceFormGuardOff(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{GuardPercent: -1})
	b := app.Browser(t)
	b.LoginDemo()
	typo := app.Sandbox.Products(1001)[0]
	p := b.Get("/prices")
	form := p.FormValues("#prices-form")
	i := priceRowOf(form, typo.MarketplaceSKU)
	want := typo.Price * 115 / 1000
	form["price"][i], form["sale"][i] = format.MoneyInput(want), ""
	if res := b.Post("/prices", form); res.Status != http.StatusSeeOther {
		t.Fatalf("guard off: %d, want 303", res.Status)
	}
	if got := app.Sandbox.Products(1001)[0].Price; got != want {
		t.Errorf("guard off: the marketplace holds %d, want %d", got, want)
	}
}

// TestCardPriceFormHoldsChangesBeyondTheGuard (lamoda profile): the card
// form holds a card changed beyond the guard by the same rule, sends
// nothing of it, and sends it once that card is confirmed.
func TestCardPriceFormHoldsChangesBeyondTheGuard(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda})
	b := app.Browser(t)
	b.LoginDemo()
	card := cardsOf(app.Sandbox, 1001)[0]
	p := b.Get("/prices?limit=100")
	form := p.FormValues("#prices-form")
	i := priceRowOf(form, card.parent)
	if i < 0 {
		t.Fatalf("card %s not on the page", card.parent)
	}
	want := card.sizes[0].Price * 16 / 10 // +60 %: no price check of the marketplace's, only the guard
	form["price"][i], form["sale"][i] = moneyIn(want), ""
	form.Set("action", "send")
	calls := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res := b.Post("/prices?limit=100", form)
	row := "[data-testid=card-" + card.parent + "] "
	if res.Status != http.StatusUnprocessableEntity || !res.Has(row+"[data-testid=held]") {
		t.Fatalf("card beyond the guard: %d, result %q; want it held", res.Status, res.Text(row+"[data-testid=result]"))
	}
	if d := res.Text(row + "[data-testid=held-delta]"); d != "+60.0 %" {
		t.Errorf("held change %q, want +60.0 %%", d)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 0 {
		t.Errorf("%d set-prices calls for a held card, want 0", n)
	}
	again := res.FormValues("#prices-form")
	token, _ := res.Doc.Find(row + "[data-testid=confirm-guard]").Attr("value")
	again.Set("confirm_guard", token)
	again.Set("action", "send")
	if res := b.Post("/prices?limit=100", again); res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed card: %d %q, want 303", res.Status, res.Text("[data-testid=summary]"))
	}
	for _, s := range app.Sandbox.Products(1001) {
		if s.ParentSKU == card.parent && s.Price != want {
			t.Errorf("size %s: the marketplace holds %d, want %d", s.MarketplaceSKU, s.Price, want)
		}
	}
}

// TestPriceUnderSaleNamesThePriceAndKeepsTheHint: 1 typed instead of the
// price of a product on sale is refused on the price field, whose drop
// warning the answer keeps; the same row with the sale cleared says, before
// anything is sent, that the sale ends.
func TestPriceUnderSaleNamesThePriceAndKeepsTheHint(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	var onSale sandbox.Product
	for _, p := range app.Sandbox.Products(1001) {
		if p.SalePrice > 0 && p.SalePrice < p.Price {
			onSale = p
			break
		}
	}
	if onSale.MarketplaceSKU == "" {
		t.Fatal("no product on sale in the fixtures")
	}
	p := b.Get("/prices")
	form := p.FormValues("#prices-form")
	i := priceRowOf(form, onSale.MarketplaceSKU)
	if i < 0 {
		t.Fatalf("%s not on the page", onSale.MarketplaceSKU)
	}
	form["price"][i] = "1"
	calls := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res := b.Post("/prices", form)
	row := "[data-testid=price-" + onSale.MarketplaceSKU + "] "
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("price under the sale: %d, want 422", res.Status)
	}
	priceErr, saleErr := res.Text(row+"#price-"+strconv.Itoa(i)+"-error"), res.Text(row+"#sale-"+strconv.Itoa(i)+"-error")
	if !strings.Contains(priceErr, "below the sale price") || saleErr != "" {
		t.Errorf("errors: price %q, sale %q; want the price named", priceErr, saleErr)
	}
	if hint := res.Text(row + "#price-" + strconv.Itoa(i) + "-drop"); !strings.HasPrefix(hint, "−99.9 %") {
		t.Errorf("drop warning on the answer %q, want −99.9 %% kept", hint)
	}

	again := res.FormValues("#prices-form")
	again["sale"][i] = ""
	res = b.Post("/prices", again)
	sale := format.MoneyIn("en", onSale.SalePrice)
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Text(row+"[data-testid=result]"), "The sale price "+sale+" ends") {
		t.Errorf("sale cleared: %d, result %q; want the row held, saying the sale ends", res.Status, res.Text(row+"[data-testid=result]"))
	}
	if hint := res.Text(row + "#sale-" + strconv.Itoa(i) + "-drop"); !strings.Contains(hint, sale) {
		t.Errorf("sale field hint %q, want the sale %s named", hint, sale)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - calls; n != 0 {
		t.Errorf("%d set-prices calls, want none before the confirmation", n)
	}
}

// TestCardGuardThenSendAnyway (lamoda profile): a card cut by 60 % is
// held by the dashboard's guard first; confirmed, it is sent and held by
// the marketplace's price check; the answer keeps the guard's
// confirmation ticked, so "send anyway" sends it (with force) without
// asking for the guard's confirmation again.
func TestCardGuardThenSendAnyway(t *testing.T) {
	t.Parallel()
	tap := &wireTap{next: http.DefaultTransport}
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, APIOptions: func(o *apiclient.Options) {
		o.HTTPClient = &http.Client{Transport: tap}
	}})
	b := app.Browser(t)
	b.LoginDemo()
	held := cardsOf(app.Sandbox, 1001)[2]
	want := held.sizes[0].Price * 4 / 10 // −60 %: beyond the guard, and under the price check's half
	form := b.Get("/prices?limit=100").FormValues("#prices-form")
	setCardPrice(t, form, held.parent, moneyIn(want))
	form.Set("action", "send")
	res := b.Post("/prices?limit=100", form)
	row := "[data-testid=card-" + held.parent + "] "
	token, ok := res.Doc.Find(row + "[data-testid=confirm-guard]").Attr("value")
	if res.Status != http.StatusUnprocessableEntity || !ok || len(tap.params()) != 0 {
		t.Fatalf("guard: %d, confirmation %v, %d set-prices calls; want the card held, nothing sent", res.Status, ok, len(tap.params()))
	}
	confirmed := res.FormValues("#prices-form")
	confirmed.Set("confirm_guard", token)
	confirmed.Set("action", "send")
	res = b.Post("/prices?limit=100", confirmed)
	if !res.Has(row+"[data-testid=fraud][data-status=warning]") || !res.Has("[data-testid=send-anyway]") {
		t.Fatalf("confirmed card: result %q, want the marketplace's price check shown", res.Text(row+"[data-testid=result]"))
	}
	anyway := res.FormValues("#prices-form")
	if anyway.Get("confirm_guard") != token {
		t.Fatalf("the guard's confirmation is not kept on the answer: %q", anyway["confirm_guard"])
	}
	before := len(tap.params())
	anyway.Set("action", "force")
	b.Post("/prices?limit=100", anyway)
	if got := forcedCards(t, tap.params()[before:]); len(got) != 1 || got[0] != held.parent {
		t.Fatalf("send anyway forced %v, want %s", got, held.parent)
	}
	for _, s := range app.Sandbox.Products(1001) {
		if s.ParentSKU == held.parent && s.Price != want {
			t.Errorf("size %s: %d, want %d", s.MarketplaceSKU, s.Price, want)
		}
	}
}
