package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// setPrice sends one product's new price through the prices form.
func setPrice(t *testing.T, b *testapp.Browser, sku string, price apiclient.Money) {
	t.Helper()
	form := b.Get("/prices?limit=100").FormValues("#prices-form")
	found := false
	for i, s := range form["sku"] {
		form["price"][i], form["sale"][i] = form["orig_price"][i], form["orig_sale"][i]
		if s == sku {
			form["price"][i], form["sale"][i], found = price.Decimal(), "", true
		}
	}
	if !found {
		t.Fatalf("%s not in the prices form", sku)
	}
	form.Set("action", "send")
	if res := b.Post("/prices?limit=100", form); res.Status != http.StatusOK && res.Status != http.StatusSeeOther {
		t.Fatalf("price of %s: %d %q", sku, res.Status, res.Text("[data-testid=summary]"))
	}
}

// TestProductPage: a product's page (the contract profile) shows its
// name, SKU, price, stock per warehouse and status from the copy, its two
// price changes made through the form in the history, newest first, with
// a link to the history filtered on it, and its price history drawn as an
// SVG whose line makes the two steps; the prices and nomenclature lists
// link to it, the forms keep working; an unknown SKU, or another seller's,
// is a 404 in the reader's language.
func TestProductPage(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true, GuardPercent: -1})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	prod := app.Sandbox.Products(1001)[2]
	was := apiclient.Money(prod.Price)
	setPrice(t, b, prod.MarketplaceSKU, was+10000)
	setPrice(t, b, prod.MarketplaceSKU, was+25000)

	list := b.Get("/prices?limit=100")
	link := list.Doc.Find(`#prices-form a[href="` + b.InAccount("/products/"+url.PathEscape(prod.MarketplaceSKU)) + `"]`)
	if link.Length() != 1 {
		t.Fatalf("the prices list does not link to %s", prod.MarketplaceSKU)
	}
	if nom := b.Get("/nomenclature?limit=100"); !nom.Has(`#nomenclature-form a[href="` + b.InAccount("/products/"+url.PathEscape(prod.MarketplaceSKU)) + `"]`) {
		t.Error("the nomenclature list does not link to the product")
	}
	href, _ := link.Attr("href")
	if h := b.Get("/history"); h.Doc.Find(`#history-table a[data-testid=product-link][href="`+href+`"]`).Length() != 2 {
		t.Error("the history's two price changes do not link to the product")
	}
	p := b.Get(href)
	if p.Status != http.StatusOK {
		t.Fatalf("product page: %d", p.Status)
	}
	if got := strings.TrimSpace(p.Text("#product-name")); got != prod.Name {
		t.Errorf("name %q, want %q", got, prod.Name)
	}
	if got := p.Text("[data-testid=product-sku]"); got != prod.MarketplaceSKU {
		t.Errorf("sku %q", got)
	}
	if got := p.Text("[data-testid=product-price]"); !strings.Contains(got, shownEN(was+25000)) {
		t.Errorf("price %q, want %s", got, shownEN(was+25000))
	}
	if n := p.Doc.Find("[data-testid=product-stock-row]").Length(); n != len(prod.Warehouses) {
		t.Errorf("%d warehouses, want %d", n, len(prod.Warehouses))
	}
	if n := p.Doc.Find("[data-testid=product-record]").Length(); n != len(prod.Warehouses) {
		t.Errorf("%d records, want %d", n, len(prod.Warehouses))
	}
	svg := p.Doc.Find("svg[data-testid=price-chart]")
	if svg.Length() != 1 || svg.AttrOr("data-steps", "") != "2" {
		t.Fatalf("chart: %d svg, %q steps; want one with 2", svg.Length(), svg.AttrOr("data-steps", ""))
	}
	if d := svg.Find("path[data-testid=chart-price]").AttrOr("d", ""); strings.Count(d, "V") != 2 {
		t.Errorf("price path %q: want two vertical steps", d)
	}
	if svg.Find("title").Text() == "" || svg.Find("desc").Text() == "" {
		t.Error("the chart has no title or description")
	}
	if narrow := p.Doc.Find("svg[data-testid=price-chart-narrow]"); narrow.AttrOr("data-steps", "") != "2" || narrow.Find("title").AttrOr("id", "") == svg.Find("title").AttrOr("id", "") {
		t.Errorf("the phone's drawing: %q steps, title ids %q and %q", narrow.AttrOr("data-steps", ""), narrow.Find("title").AttrOr("id", ""), svg.Find("title").AttrOr("id", ""))
	}
	if n := p.Doc.Find("[data-testid=price-point]").Length(); n != 3 {
		t.Errorf("%d observed prices listed, want 3 (the first and two changes)", n)
	}
	entries := p.Doc.Find("#product-history > li")
	if entries.Length() != 2 {
		t.Fatalf("%d history entries, want 2", entries.Length())
	}
	if got := entries.First().Find("[data-testid=product-history-change]").Text(); !strings.Contains(got, shownEN(was+25000)) {
		t.Errorf("newest entry %q, want the second change first", got)
	}
	if h := p.Doc.Find("#product-history-all").AttrOr("href", ""); !strings.Contains(h, "q="+url.QueryEscape(prod.MarketplaceSKU)) {
		t.Errorf("history link %q", h)
	}

	switchLang(t, b, "ru")
	for _, sku := range []string{"NO-SUCH-SKU", app.Sandbox.Products(1002)[0].MarketplaceSKU} {
		nf := b.Get("/products/" + url.PathEscape(sku))
		if nf.Status != http.StatusNotFound || !strings.Contains(nf.Body, "Страница не найдена") {
			t.Errorf("%s: %d, want a 404 in Russian", sku, nf.Status)
		}
	}
	if ru := b.Get(href); !strings.Contains(ru.Text("#product-chart h2"), "История цены") {
		t.Errorf("the page in Russian: %q", ru.Text("#product-chart h2"))
	}
}

// TestProductPageCards: in the lamoda profile a product is a card with
// its sizes; the card rows of the prices form link to it.
func TestProductPageCards(t *testing.T) {
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	cards := cardsOf(app.Sandbox, 1001)
	card := cards[0]
	list := b.Get("/prices?limit=100")
	link := list.Doc.Find(`a[href="` + b.InAccount("/products/"+url.PathEscape(card.parent)) + `"]`)
	if link.Length() == 0 {
		t.Fatalf("the card rows do not link to card %s", card.parent)
	}
	p := b.Get(link.First().AttrOr("href", ""))
	if p.Status != http.StatusOK || p.Text("[data-testid=product-sku]") != card.parent {
		t.Fatalf("card page: %d %q", p.Status, p.Text("[data-testid=product-sku]"))
	}
	if n := p.Doc.Find("[data-testid=product-record]").Length(); n < len(card.sizes) {
		t.Errorf("%d records for %d sizes", n, len(card.sizes))
	}
	if !p.Has("[data-testid=product-no-promotions]") && !p.Has("[data-testid=product-promotion]") {
		t.Error("no promotions section on a card's page")
	}
	if !p.Has("[data-testid=chart-empty]") {
		t.Error("a card without price changes does not say the chart is empty")
	}
}

// TestProductPageHostile: a product named with markup renders it as text:
// one SVG (the chart's), no injected element.
func TestProductPageHostile(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{Hostile: true}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	seen := 0
	for _, pr := range app.Sandbox.Products(1001) {
		if !strings.HasPrefix(pr.SellerSKU, "HOSTILE-") {
			continue
		}
		seen++
		// A change, so the chart (titled with the name) is drawn.
		if err := app.Catalog.Store().Accept(context.Background(), copyKey1001, []copystore.Change{{SKU: pr.MarketplaceSKU, Price: new(pr.Price + 100)}}); err != nil {
			t.Fatal(err)
		}
		p := b.Get("/products/" + url.PathEscape(pr.MarketplaceSKU))
		if !p.Has("svg[data-testid=price-chart]") {
			t.Errorf("%s: no chart after a change", pr.SellerSKU)
		}
		if p.Status != http.StatusOK {
			t.Fatalf("%s: %d", pr.SellerSKU, p.Status)
		}
		if n := p.Doc.Find("head title").Length(); n != 1 {
			t.Errorf("%s: %d head titles", pr.SellerSKU, n)
		}
		if n := len(p.Body); n > 40*1024 {
			t.Errorf("%s: the page is %d bytes: a long name is not bounded", pr.SellerSKU, n)
		}
		if n := p.Doc.Find("body svg:not(.chart-svg), style, body img, iframe").Length(); n > 0 {
			t.Errorf("%s: %d injected elements", pr.SellerSKU, n)
		}
		p.Doc.Find("script").Each(func(_ int, s *goquery.Selection) {
			if !strings.HasPrefix(s.AttrOr("src", ""), "/static/") {
				t.Errorf("%s: a live script", pr.SellerSKU)
			}
		})
		if name := []rune(pr.Name); len(name) < 200 && strings.ContainsAny(pr.Name, "<>") && !strings.Contains(p.Doc.Text(), pr.Name) {
			t.Errorf("%s: the name %q is not shown as text", pr.SellerSKU, pr.Name)
		}
	}
	if seen < 5 {
		t.Errorf("%d hostile products seen, want the sandbox's six", seen)
	}
}
