package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// Journey 24: the current prices downloaded from the import page; then a
// price job changes two products; the current prices downloaded again
// carry the job's prices. The file downloaded before the job, with
// another product's price lowered, imported now: the job's two rows are
// marked changed meanwhile (the price now, the price in the file, when it
// changed) and left out of "confirm all"; sent, they are held and the
// lowered price goes: the marketplace keeps the job's prices.
func TestJourneyOlderExportChangedMeanwhile(t *testing.T) {
	j := newJourney(t, 24, "changed-meanwhile", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 40}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	j.loginDemo()
	copyComplete(j, 1)
	var plain []sandbox.Product // products without a sale
	for _, p := range j.app.Sandbox.Products(1001) {
		if p.SalePrice == p.Price {
			plain = append(plain, p)
		}
	}
	if len(plain) < 3 {
		t.Fatalf("%d products without a sale", len(plain))
	}
	x, y, z := plain[0], plain[1], plain[2]
	const xPrice = 19_999_00
	yPrice := y.Price * 11 / 10 / 100 * 100
	zPrice := z.Price * 9 / 10 / 100 * 100

	upload := func(name string, data []byte) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		j.open("/bulk/import")
		j.do("choose "+name, chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{path}))
		j.markPage()
		j.press("#import-submit")
		j.untilNewPage("the preview", `document.querySelector("#job-submit-form")`)
		return strings.TrimPrefix(accountless(j.location()), "/bulk/jobs/")
	}
	submit := func() {
		j.markPage()
		j.press("#job-submit")
		j.untilNewPage("the job's end", `document.querySelector("[data-testid=job-state]") && !document.querySelector("#job-progress[hx-trigger]") &&
			document.querySelector("#job-grid [data-testid=result]")`)
	}
	currentPrices := func() *bulkjobs.Table {
		j.open("/bulk/import")
		tab, err := bulkjobs.ReadTable(download(j, "#export-prices-csv"))
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	priceIn := func(tab *bulkjobs.Table, sku string) string {
		for _, row := range tab.Rows {
			if row[0] == sku {
				return row[4]
			}
		}
		t.Fatalf("%s not in the current prices", sku)
		return ""
	}

	// The current prices, downloaded before the job.
	older := currentPrices()

	// The job: two products changed.
	comma := func(p int64) string { return strings.Replace(apiclient.Money(p).Decimal(), ".", ",", 1) }
	upload("prices-job.csv", []byte("\ufeffАртикул маркетплейса;Цена;Цена со скидкой\n"+
		x.MarketplaceSKU+";"+comma(xPrice)+";\n"+y.MarketplaceSKU+";"+comma(yPrice)+";\n"))
	submit()
	if n := j.count("#job-grid tbody tr[data-state=accepted]"); n != 2 {
		t.Fatalf("%d rows of the job accepted, want 2", n)
	}

	// The current prices after the job carry its prices.
	after := currentPrices()
	for sku, want := range map[string]int64{x.MarketplaceSKU: xPrice, y.MarketplaceSKU: yPrice} {
		if got := priceIn(after, sku); got != apiclient.Money(want).Decimal() {
			t.Errorf("the current prices after the job have %s at %s, want %s", sku, got, apiclient.Money(want).Decimal())
		}
	}

	// The file downloaded before the job, one other price lowered.
	for _, row := range older.Rows {
		if row[0] == z.MarketplaceSKU {
			row[4] = apiclient.Money(zPrice).Decimal()
		}
	}
	var edited bytes.Buffer
	if err := sheets.Write(&edited, sheets.CSV, sheets.Sheet{Columns: sheets.Columns(older.Header...), Rows: older.Rows}); err != nil {
		t.Fatal(err)
	}
	j.app.Sandbox.ResetCounters()
	upload("prices-before-the-job.csv", edited.Bytes())
	if got := j.text("[data-testid=count-meanwhile]"); !j.says(got, "jobs.count_meanwhile", 2) || leadingNumber(got) != "2" {
		t.Errorf("the preview counts %q, want 2 changed meanwhile", got)
	}
	if got := j.text("[data-testid=count-guard]"); leadingNumber(got) != "0" {
		t.Errorf("the preview counts %q beyond the guard, want none but the rows changed meanwhile", got)
	}
	if j.count("#confirm-all") != 0 {
		t.Error(`"confirm all" is offered for the rows changed meanwhile`)
	}
	for sku, now := range map[string]int64{x.MarketplaceSKU: xPrice, y.MarketplaceSKU: yPrice} {
		row := `[...document.querySelectorAll("#job-grid tbody tr")].find(r => r.textContent.includes(` + jsString(sku) + `))`
		if !eval[bool](j, `!!(`+row+`||{querySelector(){return null}}).querySelector("[data-testid=meanwhile]")`) {
			t.Errorf("%s is not marked changed meanwhile", sku)
			continue
		}
		msg := squash(eval[string](j, `(`+row+`.querySelector("[data-testid=message]")||{textContent:""}).textContent`))
		if !j.says(msg, "mass.changed_meanwhile") || !strings.Contains(msg, j.shown(apiclient.Money(now))) {
			t.Errorf("%s says %q; want changed after the file was exported, now %s", sku, msg, j.shown(apiclient.Money(now)))
		}
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw := eval[int](j, `document.documentElement.scrollWidth`); sw > int(width) {
			t.Errorf("at %d px the preview is %d px wide", width, sw)
		}
		eval[chromedp.Void](j, `document.querySelector("[data-testid=meanwhile]").closest("tr").scrollIntoView({block: "center"})`)
		viewportShot(j, fmt.Sprintf("preview-%d", width))
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))

	// Sent as it is: the rows changed meanwhile are held, the lowered
	// price goes.
	submit()
	if n := j.count("#job-grid tbody tr[data-state=held]"); n != 2 {
		t.Errorf("%d rows held, want the 2 changed meanwhile", n)
	}
	held := squash(j.text("#job-grid tbody tr[data-state=held] [data-testid=message]"))
	if !j.says(held, "jobs.held_meanwhile") {
		t.Errorf("the held row says %q, want why", held)
	}
	if got := j.text("#job-grid tbody tr[data-state=held] [data-testid=result]"); got != j.tr("jobs.flag_meanwhile") {
		t.Errorf("the held row's result reads %q, want %q", got, j.tr("jobs.flag_meanwhile"))
	}
	if n := j.count("#job-grid tbody tr[data-state=accepted]"); n != 1 {
		t.Errorf("%d rows accepted, want the lowered price", n)
	}
	eval[chromedp.Void](j, `document.querySelector("#job-grid tbody tr[data-state=held]").scrollIntoView({block: "center"})`)
	viewportShot(j, "sent")
	for _, p := range j.app.Sandbox.Products(1001) {
		want, ok := map[string]int64{x.MarketplaceSKU: xPrice, y.MarketplaceSKU: yPrice, z.MarketplaceSKU: zPrice}[p.MarketplaceSKU]
		if ok && p.Price != want {
			t.Errorf("the marketplace holds %d for %s, want %d", p.Price, p.MarketplaceSKU, want)
		}
	}
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 1 {
		t.Errorf("%d set-prices requests, want 1 (the lowered price)", n)
	}
}
