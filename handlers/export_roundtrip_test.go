package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// roundTripFile is a file the dashboard offers for download, imported as
// kind as ("" lets the import tell it by its header, as the form's
// default does), and the kind of import that is.
type roundTripFile struct {
	path, as, kind string
}

// offeredFiles are the pairs of a file the dashboard offers and an import
// that reads it: the page exports of /prices and /nomenclature (the page
// on screen, and every record, as the import page's "start from your
// current data" links), each as CSV and XLSX, and with a local copy the
// whole-catalogue export; each imported as the kind its header says, and
// the stock-shaped ones, which carry prices too, as prices.
func offeredFiles(copy bool) []roundTripFile {
	var out []roundTripFile
	for _, ext := range []string{"csv", "xlsx"} {
		stock := []string{paths.Export(paths.Nomenclature, ext), paths.ExportWhole(paths.Nomenclature, ext)}
		if copy {
			stock = append(stock, paths.ExportAll(ext))
		}
		out = append(out,
			roundTripFile{paths.Export(paths.Prices, ext), "", "prices"},
			roundTripFile{paths.ExportWhole(paths.Prices, ext), "", "prices"})
		for _, p := range stock {
			out = append(out, roundTripFile{p, "", "stock"}, roundTripFile{p, "prices", "prices"})
		}
	}
	return out
}

// uploadAs posts a file to the import form as kind ("": told by its
// header) and returns the new job's id.
func uploadAs(t *testing.T, app *testapp.App, b *testapp.Browser, data []byte, kind string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", kind)
	fw, _ := mw.CreateFormFile("file", "current.csv")
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, app.URL+b.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if _, rest, ok := paths.Split(loc); ok {
		loc = rest
	}
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/bulk/jobs/") {
		t.Fatalf("upload: %d to %q", resp.StatusCode, loc)
	}
	return strings.TrimPrefix(loc, "/bulk/jobs/")
}

// TestExportImportIsIdentity: every file the dashboard offers, in both
// wire profiles (the contract's and lamoda's cards), CSV and XLSX, with
// Russian and English headers, live and from the local copy, imported
// unchanged, previews nothing to send: every row unchanged, none invalid
// or held, and the import reads it as the kind it is.
func TestExportImportIsIdentity(t *testing.T) {
	t.Parallel()
	for _, profile := range []apiclient.Profile{apiclient.ProfileContract, apiclient.ProfileLamoda} {
		for _, copy := range []bool{false, true} {
			for _, lang := range []string{"ru", "en"} {
				t.Run(fmt.Sprintf("%s/copy=%v/%s", profile, copy, lang), func(t *testing.T) {
					app := testapp.New(t, testapp.Options{Profile: profile, AcceptLanguage: lang, Catalog: copy,
						Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{ProductsPerSeller: 60}})
					b := app.Browser(t)
					b.LoginDemo()
					if copy {
						copyDone(t, app, 1)
					}
					for _, f := range offeredFiles(copy) {
						resp := b.Get(f.path)
						if resp.Status != http.StatusOK {
							t.Fatalf("%s: %d %s", f.path, resp.Status, resp.Body)
						}
						id := uploadAs(t, app, b, []byte(resp.Body), f.as)
						j, err := app.JobStore.Job(context.Background(), id)
						if err != nil {
							t.Fatal(err)
						}
						c := j.Counts
						if j.Kind != f.kind || c.Rows == 0 || c.Unchanged != c.Rows || c.OK+c.Guard+c.Invalid != 0 {
							items, _ := app.JobStore.Items(context.Background(), id)
							var why []string
							for _, it := range items {
								if it.Flag != bulkjobs.FlagUnchanged && len(why) < 3 {
									why = append(why, fmt.Sprintf("line %d %s %s: %s → %s (%v)", it.Line, it.Key, it.Flag, it.OldText, it.NewText, it.Message))
								}
							}
							t.Errorf("%s imported unchanged as %q: kind %s, counts %+v; want %s, every row unchanged; %s", f.path, f.as, j.Kind, c, f.kind, strings.Join(why, "; "))
						}
						if p := b.Get("/bulk/jobs/" + id); !strings.HasPrefix(p.Text("[data-testid=count-send]"), "0 ") {
							t.Errorf("%s: the preview says %q", f.path, p.Text("[data-testid=count-send]"))
						}
					}
				})
			}
		}
	}
}

// TestImportPageLinksExportEveryRecord: the import page's "start from
// your current data" links download every product (prices) and every
// record (stock), not the first page of the list.
func TestImportPageLinksExportEveryRecord(t *testing.T) {
	t.Parallel()
	for _, copy := range []bool{false, true} {
		t.Run(fmt.Sprintf("copy=%v", copy), func(t *testing.T) {
			app := testapp.New(t, testapp.Options{Catalog: copy, Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{ProductsPerSeller: 200}})
			b := app.Browser(t)
			b.LoginDemo()
			if copy {
				copyDone(t, app, 1)
			}
			products, records := 0, 0
			for _, p := range app.Sandbox.Products(1001) {
				products++
				records += len(p.Warehouses)
			}
			form := b.Get("/bulk/import")
			for id, want := range map[string]int{"export-prices-csv": products, "export-prices-xlsx": products, "export-stock-csv": records, "export-stock-xlsx": records} {
				href, ok := form.Doc.Find("#" + id).Attr("href")
				if !ok {
					t.Fatalf("no link #%s", id)
				}
				resp := b.Get(href)
				tab, err := bulkjobs.ReadTable([]byte(resp.Body))
				if resp.Status != http.StatusOK || err != nil {
					t.Fatalf("%s: %d %v", href, resp.Status, err)
				}
				if len(tab.Rows) != want {
					t.Errorf("#%s (%s): %d rows, want %d", id, href, len(tab.Rows), want)
				}
			}
		})
	}
}

// TestPageExportFollowsTheFilter: "export this page" of a filtered list
// from the copy writes the page on screen, filter included.
func TestPageExportFollowsTheFilter(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Catalog: true, Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{ProductsPerSeller: 200}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	for _, list := range []string{paths.Prices, paths.Nomenclature} {
		p := b.Get(list + "?q=" + url.QueryEscape("крос") + "&sort=-price&limit=20")
		href, ok := p.Doc.Find("#export-csv").Attr("href")
		if p.Status != http.StatusOK || !ok {
			t.Fatalf("%s: %d, export link %v", list, p.Status, ok)
		}
		if !strings.Contains(href, "q=") || !strings.Contains(href, "sort=-price") {
			t.Errorf("%s: export link %q lacks the filter", list, href)
		}
		resp := b.Get(href)
		tab, err := bulkjobs.ReadTable([]byte(resp.Body))
		if resp.Status != http.StatusOK || err != nil || len(tab.Rows) == 0 {
			t.Fatalf("%s: %d %v, %d rows", href, resp.Status, err, len(tab.Rows))
		}
		name := 1 // the prices export's name column
		if list == paths.Nomenclature {
			name = 4
		}
		for _, row := range tab.Rows {
			if !strings.Contains(row[name], "Кроссовки") {
				t.Errorf("%s: row %q does not match the filter", href, row)
			}
		}
	}
}

// TestEditedExportChangesOnlyPrices: the prices file from the import
// page, one price lowered and one raised (products without a sale):
// exactly those two rows are sent and applied, and neither gets a sale.
func TestEditedExportChangesOnlyPrices(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{ProductsPerSeller: 60}})
	b := app.Browser(t)
	b.LoginDemo()
	var plain []sandbox.Product
	for _, p := range app.Sandbox.Products(1001) {
		if p.SalePrice == p.Price {
			plain = append(plain, p)
		}
	}
	if len(plain) < 2 {
		t.Fatalf("%d products without a sale, want 2", len(plain))
	}
	lower, raise := plain[0], plain[1]
	resp := b.Get(paths.ExportWhole(paths.Prices, "csv"))
	tab, err := bulkjobs.ReadTable([]byte(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{lower.MarketplaceSKU: lower.Price * 9 / 10 / 100 * 100, raise.MarketplaceSKU: raise.Price * 11 / 10 / 100 * 100}
	for _, row := range tab.Rows {
		if m, ok := want[row[0]]; ok {
			row[4] = apiclient.Money(m).Decimal()
		}
	}
	var file bytes.Buffer
	if err := sheets.Write(&file, sheets.CSV, sheets.Sheet{Columns: sheets.Columns(tab.Header...), Rows: tab.Rows}); err != nil {
		t.Fatal(err)
	}
	id := uploadImport(t, app, b, file.Bytes())
	j, err := app.JobStore.Job(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if j.Counts.OK != 2 || j.Counts.Invalid+j.Counts.Guard != 0 || j.Counts.Unchanged != j.Counts.Rows-2 {
		t.Fatalf("preview counts %+v, want 2 to send and the rest unchanged", j.Counts)
	}
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	waitUntil(t, "the job's end", func() bool {
		j, err := app.JobStore.Job(context.Background(), id)
		return err == nil && j.State == bulkjobs.StateDone
	})
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 1 {
		t.Errorf("%d set-prices calls, want 1", n)
	}
	for _, p := range app.Sandbox.Products(1001) {
		if m, ok := want[p.MarketplaceSKU]; ok && (p.Price != m || p.SalePrice != m) {
			t.Errorf("%s: price %d, sale %d; want %d and no sale", p.MarketplaceSKU, p.Price, p.SalePrice, m)
		}
	}
}

// TestExportWholeStopsAtTheImportLimit: a whole export with more rows than
// one import reads is refused with the reason, not cut short silently;
// the same catalogue's prices, one row a product, fit.
func TestExportWholeStopsAtTheImportLimit(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Jobs: &bulkjobs.RunnerOptions{}, Sandbox: sandbox.Options{ProductsPerSeller: 3400}})
	b := app.Browser(t)
	b.LoginDemo()
	stock := b.Get(paths.ExportWhole(paths.Nomenclature, "csv"))
	if stock.Status != http.StatusUnprocessableEntity || !strings.Contains(stock.Body, "10,000") {
		t.Errorf("stock of 10,200 records: %d, want 422 saying the import reads 10,000 rows", stock.Status)
	}
	prices := b.Get(paths.ExportWhole(paths.Prices, "csv"))
	tab, err := bulkjobs.ReadTable([]byte(prices.Body))
	if prices.Status != http.StatusOK || err != nil || len(tab.Rows) != 3400 {
		t.Errorf("prices of 3,400 products: %d %v", prices.Status, err)
	}
}
