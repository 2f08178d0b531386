package handlers_test

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestExportStatusesAreLabelsTheImportReads: the Russian whole-catalogue
// export writes each status and price update status by its Russian label,
// never the marketplace's code, and the stock import reads every status
// label it wrote back as the status it stands for.
func TestExportStatusesAreLabelsTheImportReads(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 12}, Catalog: true})
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
	status, priceStatus := slices.Index(recs[0], "Статус"), slices.Index(recs[0], "Статус обновления цены")
	if status < 0 || priceStatus < 0 {
		t.Fatalf("header %q", recs[0])
	}
	for _, r := range recs[1:] {
		if code := i18n.StatusCode(r[status], massupdate.Statuses); r[status] == code || !slices.Contains(massupdate.Statuses, code) {
			t.Errorf("status cell %q: read back as %q, want a Russian label of a status", r[status], code)
		}
		if c := r[priceStatus]; c != "" && strings.ToUpper(c) == c {
			t.Errorf("price update status cell %q is a code, want a label", c)
		}
	}
}
