package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

func TestNomenclaturePageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/nomenclature")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("h1"); got != "Номенклатура" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#nomenclature-submit"); got != "Сохранить изменения" {
		t.Errorf("submit %q", got)
	}
	rows := p.Doc.Find("#nomenclature-table tbody tr")
	if rows.Length() == 0 {
		t.Fatal("no rows")
	}
	price := strings.TrimSpace(rows.First().Find("td.num").First().Contents().First().Text())
	if !rubles.MatchString(price) {
		t.Errorf("price %q is not written the Russian way", price)
	}
	body := withoutData(p.Doc.Find("body"),
		"#nomenclature-table tbody td:nth-child(1)", // warehouse codes
		"#nomenclature-table tbody td:nth-child(2)", // barcodes, SKUs
		"#nomenclature-table tbody td:nth-child(3)", // names, brands, sizes
		"#nomenclature-table tbody input",
		"[data-testid=export-links]", // exports: converted with the export pages
	)
	// The controls' labels name a barcode and a warehouse code (data).
	if got, _ := p.Doc.Find("#status-0").Attr("aria-label"); !strings.HasPrefix(got, "Статус ") || !strings.Contains(got, " на складе ") {
		t.Errorf("status label %q", got)
	}
	body.Find("#nomenclature-table tbody select").RemoveAttr("aria-label")
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian nomenclature page: %q", words)
	}
}

func TestNomenclaturePageStillInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/nomenclature")
	if got := p.Text("h1"); got != "Nomenclature" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#nomenclature-submit"); got != "Save changes" {
		t.Errorf("submit %q", got)
	}
	if got, _ := p.Doc.Find("#qty-0").Attr("aria-label"); !strings.HasPrefix(got, "Quantity of ") || !strings.Contains(got, " at ") {
		t.Errorf("quantity label %q", got)
	}
}
