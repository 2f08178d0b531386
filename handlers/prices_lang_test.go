package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

func TestPricesPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/prices")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("h1"); got != "Цены" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#prices-submit"); got != "Обновить цены" {
		t.Errorf("submit %q", got)
	}
	cur := p.Doc.Find("[data-testid=current]")
	if cur.Length() == 0 || !rubles.MatchString(strings.TrimSpace(cur.First().Text())) {
		t.Errorf("current price %q is not written the Russian way", cur.First().Text())
	}
	if got, _ := p.Doc.Find("#price-0").Attr("aria-label"); !strings.HasPrefix(got, "Новая цена ") {
		t.Errorf("price input label %q", got)
	}
	body := withoutData(p.Doc.Find("body"),
		"#prices-table tbody td:nth-child(1)", // SKUs, sizes
		"#prices-table tbody td:nth-child(2)", // names, brands
		"[data-testid=export-links]",          // exports: converted with the export pages
	)
	body.Find("#prices-table tbody input").RemoveAttr("aria-label") // each names its SKU
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian prices page: %q", words)
	}
}

func TestPricesPageStillInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/prices")
	if got := p.Text("h1"); got != "Prices" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#prices-submit"); got != "Update prices" {
		t.Errorf("submit %q", got)
	}
	if got, _ := p.Doc.Find("#price-0").Attr("aria-label"); !strings.HasPrefix(got, "New price of ") {
		t.Errorf("price input label %q", got)
	}
}

// shownEN is an amount as the English pages show it: "21,300.00".
func shownEN(m apiclient.Money) string { return format.MoneyIn(i18n.EN, int64(m)) }

// The per-card editor, in Russian, down to the price check's hold and its
// "send anyway".
func TestCardPricesPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{Profile: apiclient.ProfileLamoda, GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/prices?limit=100")
	if p.Status != http.StatusOK || p.Text("h1") != "Цены" {
		t.Fatalf("status %d, h1 %q", p.Status, p.Text("h1"))
	}
	held := cardsOf(app.Sandbox, 1001)[2]
	form := p.FormValues("#prices-form")
	for i, s := range form["sku"] {
		if s == held.parent {
			form["price"][i], form["sale"][i] = moneyIn(held.sizes[0].Price/3), ""
		}
	}
	form.Set("action", "send")
	res := b.Post("/prices?limit=100", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit: %d, want 422", res.Status)
	}
	if got := res.Text("[data-testid=send-anyway]"); got != "Всё равно отправить: подтвердить 1 карточку" {
		t.Errorf("send anyway %q", got)
	}
	if got := res.Text("[data-testid=fraud]"); !strings.Contains(got, "Проверка цен: предупреждение") || !strings.Contains(got, "резкое отличие") {
		t.Errorf("price check note %q", got)
	}
	body := withoutData(res.Doc.Find("body"),
		"#prices-table tbody tr > td:nth-child(1)", // card and size SKUs, barcodes
		"#prices-table tbody tr > td:nth-child(2)", // names, brands, sizes
		"[data-testid=export-links]",
		"[data-testid=summary]", // its note is the mass update's (issue 17)
		".row-msg[role=alert]",  // the marketplace's own rejection, as sent
	)
	body.Find("#prices-table tbody input").RemoveAttr("aria-label")
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian card prices page: %q", words)
	}
}
