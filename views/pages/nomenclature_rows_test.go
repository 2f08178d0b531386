package pages

import (
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func nomenclatureDoc(t *testing.T, v NomenclatureView) *goquery.Document {
	t.Helper()
	var b strings.Builder
	if err := NomenclatureForm(v).Render(i18n.WithLang(context.Background(), i18n.RU), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestNomenclatureWithoutWarehouses: records that keep no warehouse (the
// lamoda profile) get no «Склад» column, their fields no «на складе» in
// their names, and their keys still travel with the form; records with
// warehouses keep the column.
func TestNomenclatureWithoutWarehouses(t *testing.T) {
	row := NomenclatureRow{Key: "_4601", Barcode: "4601", SKU: "MP1", Brand: "", Size: "M", Quantity: "3", OrigQuantity: "3", Status: "online", OrigStatus: "online"}
	doc := nomenclatureDoc(t, NomenclatureView{Action: "/nomenclature", Rows: []NomenclatureRow{row}})
	heads := doc.Find("#nomenclature-table thead th")
	if strings.Contains(heads.Text(), "Склад") {
		t.Errorf("a table without warehouses has a «Склад» column: %q", heads.Text())
	}
	if cells := doc.Find("#nomenclature-table tbody tr").First().Find("td").Length(); cells != heads.Length() {
		t.Errorf("%d cells under %d heads", cells, heads.Length())
	}
	if label := doc.Find("#qty-0").AttrOr("aria-label", ""); strings.Contains(label, "склад") {
		t.Errorf("quantity field named %q", label)
	}
	if doc.Find("input[name=wh]").Length() != 1 || doc.Find("input[name=bc]").AttrOr("value", "") != "4601" {
		t.Error("the row's keys are not in the form")
	}
	if got := strings.Join(strings.Fields(doc.Find("#nomenclature-table tbody td").Eq(1).Find(".muted").Text()), " "); got != "размер M" {
		t.Errorf("brand and size line %q, want «размер M» with no leading «·»", got)
	}

	row.Warehouse, row.Brand = "MSK-1", "Acme"
	doc = nomenclatureDoc(t, NomenclatureView{Action: "/nomenclature", Rows: []NomenclatureRow{row}})
	if !strings.Contains(doc.Find("#nomenclature-table thead th").First().Text(), "Склад") {
		t.Error("a table with warehouses lost its «Склад» column")
	}
	if label := doc.Find("#qty-0").AttrOr("aria-label", ""); !strings.HasSuffix(label, "на складе MSK-1") {
		t.Errorf("quantity field named %q", label)
	}
}
