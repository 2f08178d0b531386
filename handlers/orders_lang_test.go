package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// withoutData removes the marketplace's data (order numbers, payment
// methods, SKUs, descriptions) from a page before it is searched for
// English: the marketplace's words are shown as it sent them.
func withoutData(p *goquery.Selection, selectors ...string) *goquery.Selection {
	p = p.Clone()
	// One selector: removing one by one would shift nth-child.
	p.Find(strings.Join(selectors, ", ")).Remove()
	p.Find("[data-testid=who]").Remove() // the client id, the marketplace's
	return p
}

// rubles matches a Russian sum: thousands by a narrow no-break space, a
// comma before the kopecks.
var rubles = regexp.MustCompile(`^\d{1,3}(\x{202f}\d{3})*,\d\d$`)

// ruDateTime matches "22.11.2026 14:05 МСК".
var ruDateTime = regexp.MustCompile(`^\d\d\.\d\d\.\d{4} \d\d:\d\d\x{a0}МСК$`)

func TestOrdersPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/orders?limit=20")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("h1"); got != "Заказы" {
		t.Errorf("h1 %q", got)
	}
	if got := strings.TrimSpace(p.Doc.Find("title").Text()); !strings.Contains(got, "Заказы") {
		t.Errorf("title %q", got)
	}
	rows := p.Doc.Find("#orders-table tbody tr")
	if rows.Length() == 0 {
		t.Fatal("no orders")
	}
	rows.Each(func(_ int, r *goquery.Selection) {
		if s := strings.TrimSpace(r.Find("td.num").Eq(1).Text()); !rubles.MatchString(s) {
			t.Errorf("sum %q is not written the Russian way", s)
		}
		if s := strings.TrimSpace(r.Find("td").Eq(3).Text()); !ruDateTime.MatchString(s) {
			t.Errorf("created %q is not dd.mm.yyyy hh:mm МСК", s)
		}
	})
	body := withoutData(p.Doc.Find("body"),
		"#orders-table tbody td:nth-child(2)", // order numbers
		"#orders-table tbody td:nth-child(7)", // payment methods, as the marketplace names them
		"#orders-table tbody input[name=orderNr]",
	)
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian orders page: %q", words)
	}
	// An order's own page.
	href, _ := rows.First().Find("td:nth-child(2) a").Attr("href")
	d := b.Get(href)
	if d.Status != http.StatusOK || !strings.HasPrefix(d.Text("h1"), "Заказ ") {
		t.Fatalf("detail %d, h1 %q", d.Status, d.Text("h1"))
	}
	body = withoutData(d.Doc.Find("body"), "h1", "#order-items tbody td:nth-child(-n+4)",
		"[data-testid=order-facts] dd:nth-of-type(7)", "input[name=orderNr]")
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian order page: %q", words)
	}
}

func TestOrdersPageStillInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/orders?limit=20")
	if got := p.Text("h1"); got != "Orders" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#filter-apply"); got != "Show" {
		t.Errorf("filter button %q", got)
	}
	if got := p.Doc.Find("#orders-table thead th").Eq(1).Text(); strings.TrimSpace(got) != "Order" {
		t.Errorf("first column %q", got)
	}
	if got := p.Doc.Find("#filter-status option").First().Text(); got != "All statuses" {
		t.Errorf("status filter %q", got)
	}
}
