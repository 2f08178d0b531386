package e2e

import (
	"context"
	"fmt"
	"github.com/sellerdesk/sellerdesk/i18n"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// marketRecord is the record the marketplace holds at wh with barcode bc,
// read live.
func marketRecord(j *journey, wh, bc string) apiclient.Nomenclature {
	j.t.Helper()
	acct := j.app.API.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: apiclient.Test}, nil)
	for n, err := range acct.Seller.AllNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1001, Limit: 100}) {
		if err != nil {
			j.t.Fatal(err)
		}
		if n.WarehouseCode == wh && n.Barcode == bc {
			return n
		}
	}
	j.t.Fatalf("the marketplace has no record %s|%s", wh, bc)
	return apiclient.Nomenclature{}
}

// Journey 22: a stock and a status saved on the nomenclature page (from
// the local copy) show at once as the new values, old → new, each marked
// "processing" until a read confirms it, and the marketplace holds them.
func TestJourneyStockSavedPending(t *testing.T) {
	j := newJourney(t, 22, "stock-saved-pending", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true})
	j.loginDemo()
	copyComplete(j, 1)
	j.open("/nomenclature")
	origStatus := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-form select[name=status]")).map(s => s.dataset.original)`)
	origQty := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-form input[name=qty]")).map(s => s.dataset.original)`)
	row := -1
	for i, st := range origStatus {
		if st == "online" {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatalf("none of the %d rows is online", len(origStatus))
	}
	i := strconv.Itoa(row)
	was, _ := strconv.Atoi(origQty[row])
	qty := strconv.Itoa(was + 4)
	wh := eval[string](j, `document.querySelectorAll("#nomenclature-form input[name=wh]")[`+i+`].value`)
	bc := eval[string](j, `document.querySelectorAll("#nomenclature-form input[name=bc]")[`+i+`].value`)
	j.typeInto("qty-"+i, qty)
	j.choose("status-"+i, "disabled")
	j.markPage()
	j.typeInto("qty-"+i, qty+"\n") // Enter submits
	updated := j.trn("nomenclature.rows_updated", 1)
	j.untilNewPage("the flash", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)

	if got := j.value("qty-" + i); got != qty {
		t.Errorf("the page shows quantity %q after the save, want %s", got, qty)
	}
	if got := j.value("status-" + i); got != "disabled" {
		t.Errorf("the page shows status %q after the save, want disabled", got)
	}
	tr := fmt.Sprintf(`#nomenclature-form tbody tr[data-row="%d"]`, row)
	processing := j.tr("status.PROCESSING")
	for _, mark := range []string{"qty-pending", "status-pending"} {
		if got := j.text(tr + " [data-testid=" + mark + "]"); got != processing {
			t.Errorf("%s: %q, want %q", mark, got, processing)
		}
	}
	before := j.trd("nomenclature.stock_text", map[string]any{"Qty": origQty[row], "Status": j.tr("status.online")})
	after := j.trd("nomenclature.stock_text", map[string]any{"Qty": qty, "Status": j.tr("status.disabled")})
	if got, want := j.text(tr+" [data-testid=result]"), "✓ "+before+" → "+after; got != want {
		t.Errorf("the saved row says %q, want %q", got, want)
	}
	if rec := marketRecord(j, wh, bc); strconv.Itoa(rec.Quantity) != qty || rec.Status != "disabled" {
		t.Errorf("the marketplace holds %d %s, want %s disabled", rec.Quantity, rec.Status, qty)
	}
}

// Journey 23: a price file previewed, then a price job changes one of its
// products; the current prices exported after the job carry the job's
// price ("processing"), a new preview's "now" shows it, and the file
// previewed before the job, sent now, is held on that row as changed
// meanwhile: the marketplace keeps the job's price. The other row goes.
func TestJourneyPriceJobThenOlderFile(t *testing.T) {
	j := newJourney(t, 23, "price-job-older-file", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 40}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	j.loginDemo()
	copyComplete(j, 1)
	ps := j.app.Sandbox.Products(1001)
	x, z := ps[2], ps[5]
	comma := func(p int64) string { return fmt.Sprintf("%d,%02d", p/100, p%100) }
	write := func(name string, rows ...string) string {
		f := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(f, []byte("\ufeffАртикул маркетплейса;Цена;Цена со скидкой\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	upload := func(file string) string {
		j.open("/bulk/import")
		j.do("choose "+filepath.Base(file), chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
		j.markPage()
		j.press("#import-submit")
		j.untilNewPage("the preview", `document.querySelector("#job-submit-form")`)
		return strings.TrimPrefix(accountless(j.location()), "/bulk/jobs/")
	}
	submit := func(id string) {
		j.open("/bulk/jobs/" + id)
		j.until("the preview", `document.querySelector("#job-submit")`)
		j.markPage()
		j.press("#job-submit")
		j.untilNewPage("the job's end", `document.querySelector("[data-testid=job-state]") && !document.querySelector("#job-progress[hx-trigger]")`)
	}

	// The older file: both products a little dearer, previewed first.
	older := upload(write("prices-older.csv", x.MarketplaceSKU+";"+comma(x.Price*105/100)+";", z.MarketplaceSKU+";"+comma(z.Price*105/100)+";"))
	// The job: the first product at 17 399,00.
	const jobPrice = 17_399_00
	submit(upload(write("prices-job.csv", x.MarketplaceSKU+";"+comma(jobPrice)+";")))

	// The current prices exported after the job carry its price.
	csv := eval[string](j, `(() => { const r = new XMLHttpRequest(); r.open("GET", `+jsString(j.app.URL+"/nomenclature/export-all.csv")+`, false); r.send(); return r.responseText })()`)
	found := false
	for _, line := range strings.Split(csv, "\n") {
		if strings.Contains(line, `"`+x.MarketplaceSKU+`"`) {
			found = true
			if !strings.Contains(line, `"17399.00"`) && !strings.Contains(line, `17399.00`) || !strings.Contains(line, i18n.Status(i18n.WithLang(context.Background(), j.lang), "PROCESSING")) {
				t.Errorf("the export after the job has %q, want its price 17399.00, processing", line)
			}
		}
	}
	if !found {
		t.Fatalf("%s not in the export", x.MarketplaceSKU)
	}
	// A new preview's "now" is the job's price.
	upload(write("prices-again.csv", x.MarketplaceSKU+";"+comma(x.Price*105/100)+";"))
	if got := j.text("#job-grid tbody tr [data-testid=old]"); !strings.HasPrefix(got, j.shown(jobPrice)) {
		t.Errorf("a new preview shows now %q, want the job's %s", got, j.shown(jobPrice))
	}

	// The older preview sent now: the job's product is held as changed
	// meanwhile, the other goes.
	submit(older)
	held := eval[string](j, `(document.querySelector("#job-grid tbody tr[data-state=held] [data-testid=message]")||{textContent:""}).textContent`)
	if !j.says(squash(held), "jobs.held") || !strings.Contains(squash(held), j.shown(jobPrice)) {
		t.Errorf("the held row says %q; want changed meanwhile, now %s", squash(held), j.shown(jobPrice))
	}
	if n := j.count("#job-grid tbody tr[data-state=held]"); n != 1 {
		t.Errorf("%d rows held, want 1", n)
	}
	for _, p := range j.app.Sandbox.Products(1001) {
		switch p.MarketplaceSKU {
		case x.MarketplaceSKU:
			if p.Price != jobPrice {
				t.Errorf("the marketplace holds %d for the job's product, want the job's %d: the older file reverted it", p.Price, int64(jobPrice))
			}
		case z.MarketplaceSKU:
			if p.Price != z.Price*105/100 {
				t.Errorf("the marketplace holds %d for the other product, want %d", p.Price, z.Price*105/100)
			}
		}
	}
}
