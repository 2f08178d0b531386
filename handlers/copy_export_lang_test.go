package handlers_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestExportAllHeaderInBothLanguages: the whole-catalogue export's header
// (CSV and XLSX, and the XLSX sheet's name) is in the reader's language,
// the cells as the marketplace sent them; the Russian header is one the
// stock import reads back.
func TestExportAllHeaderInBothLanguages(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 5}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)

	p := b.Get("/nomenclature/export-all.csv")
	if p.Status != http.StatusOK {
		t.Fatalf("csv: %d", p.Status)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(p.Body, "\ufeff"))).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	want := "Склад,Штрихкод,Артикул маркетплейса,Артикул продавца,Название,Бренд,Размер,Статус,Количество,Цена,Цена со скидкой,Статус обновления цены"
	if got := strings.Join(recs[0], ","); got != want {
		t.Errorf("Russian header %q, want %q", got, want)
	}
	if _, probs := bulkjobs.MapColumns(recs[0], bulkjobs.StockColumns); len(probs) > 0 {
		t.Errorf("the stock import cannot read the Russian header: %v", probs)
	}
	name := app.Sandbox.Products(1001)[0].Name
	if !strings.Contains(p.Body, name) {
		t.Errorf("the export lacks the product name %q as sent", name)
	}

	x := b.Get("/nomenclature/export-all.xlsx")
	f, err := excelize.OpenReader(strings.NewReader(x.Body))
	if err != nil {
		t.Fatalf("xlsx: %d %v", x.Status, err)
	}
	rows, err := f.GetRows("Номенклатура")
	if err != nil || len(rows) < 2 || strings.Join(rows[0], ",") != want {
		t.Errorf("Russian xlsx: %v %q", err, rows[:min(1, len(rows))])
	}

	en := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 5}, Catalog: true})
	eb := en.Browser(t)
	eb.LoginDemo()
	copyDone(t, en, 1)
	p = eb.Get("/nomenclature/export-all.csv")
	first := strings.TrimPrefix(strings.SplitN(p.Body, "\r\n", 2)[0], "\ufeff")
	if first != `"Warehouse","Barcode","Marketplace SKU","Seller SKU","Name","Brand","Size","Status","Quantity","Price","Sale price","Price update status"` {
		t.Errorf("English header %q", first)
	}
}
