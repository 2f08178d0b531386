package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// download clicks the link css and returns the file the browser saved.
func download(j *journey, css string) []byte {
	j.t.Helper()
	dir := j.t.TempDir()
	progress := chromedp.Events(j.ctx, browser.DownloadProgress)
	events := true
	// The setting belongs to the journey's browser context: the journeys
	// running beside it share the browser, not their downloads.
	j.do("allow downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &events,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID})
		return err
	}))
	j.press(css)
	done := make(chan string, 1)
	go func() {
		for ev, err := range progress {
			if err != nil {
				return
			}
			if ev.State == browser.DownloadProgressStateCompleted {
				done <- ev.GUID
				return
			}
		}
	}()
	select {
	case guid := <-done:
		data, err := os.ReadFile(filepath.Join(dir, guid))
		if err != nil {
			j.t.Fatal(err)
		}
		return data
	case <-time.After(waitTimeout):
		j.t.Fatalf("no download from %s", css)
		return nil
	}
}

// Journey 17: the current prices from the import page's "start from your
// current data" link, imported unchanged: the preview has nothing to send
// and nothing reaches the marketplace. The same file with one price
// lowered (a product without a sale): exactly that row is sent and
// applied, and no sale is created.
func TestJourneyExportImportRoundTrip(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	j := newJourney(t, 17, "export-import", testapp.Options{Market: m})
	app, jobs, _ := bulkDashboard(t, m, 25)
	j.app = app
	j.loginDemo()
	before := m.Sandbox.Products(1001)
	var target sandbox.Product
	for _, p := range before {
		if p.SalePrice == p.Price {
			target = p
			break
		}
	}
	if target.MarketplaceSKU == "" {
		t.Fatal("no product without a sale")
	}

	// The current prices, from the import page.
	j.open("/bulk/import")
	if got := j.text("#export-prices-csv"); got != j.tr("import.prices_csv") {
		t.Errorf("the link reads %q, want %q", got, j.tr("import.prices_csv"))
	}
	file := download(j, "#export-prices-csv")
	tab, err := bulkjobs.ReadTable(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != len(before) {
		t.Errorf("the file has %d products, want all %d", len(tab.Rows), len(before))
	}

	// Imported unchanged: nothing to send.
	upload := func(name string, data []byte) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		j.open("/bulk/import")
		j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{path}))
		j.markPage()
		j.press("#import-submit")
		j.untilNewPage("the preview", `document.querySelector("[data-testid=count-send]")`)
		return strings.TrimPrefix(accountless(j.location()), "/bulk/jobs/")
	}
	upload("prices.csv", file)
	if got := j.text("[data-testid=count-send]"); !j.says(got, "jobs.count_send", 0) || leadingNumber(got) != "0" {
		t.Errorf("the unchanged file's preview: %q, want nothing to send", got)
	}
	if got := j.text("[data-testid=count-unchanged]"); leadingNumber(got) != strconv.Itoa(len(before)) {
		t.Errorf("the unchanged file's preview: %q, want all %d unchanged", got, len(before))
	}
	viewportShot(j, "unchanged")
	c := m.Sandbox.Counters()
	if n := c.Requests[sandbox.RouteRPCSetPrices] + c.Requests[sandbox.RouteRPCStore]; n != 0 {
		t.Errorf("%d writes reached the marketplace", n)
	}

	// One price lowered by a tenth, in the file as downloaded.
	lowered := target.Price * 9 / 10 / 100 * 100
	for _, row := range tab.Rows {
		if row[0] == target.MarketplaceSKU {
			row[4] = apiclient.Money(lowered).Decimal()
		}
	}
	var edited bytes.Buffer
	if err := sheets.Write(&edited, sheets.CSV, sheets.Sheet{Columns: sheets.Columns(tab.Header...), Rows: tab.Rows}); err != nil {
		t.Fatal(err)
	}
	id := upload("prices-lowered.csv", edited.Bytes())
	if got := j.text("[data-testid=count-send]"); !j.says(got, "jobs.count_send", 1) || leadingNumber(got) != "1" {
		t.Errorf("the edited file's preview: %q, want one row to send", got)
	}
	j.markPage()
	j.press("#job-submit")
	j.untilNewPage("the job's progress", `document.querySelector("#job-progress")`)
	j.until("the results in the grid (the page reloads when the job ends)", `document.querySelector("[data-testid=job-state]") &&
		!document.querySelector("#job-progress[hx-trigger]") && document.querySelector("#job-grid [data-testid=result]")`)
	deadline := time.Now().Add(waitTimeout)
	for {
		jb, err := jobs.Job(context.Background(), id)
		if err == nil && jb.State == bulkjobs.StateDone {
			if jb.Counts.Accepted != 1 || jb.Counts.Rejected+jb.Counts.Unknown+jb.Counts.Unsent != 0 {
				t.Errorf("job counts %+v, want one accepted", jb.Counts)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s: not done: %+v", id, jb.Counts)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := m.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 1 {
		t.Errorf("%d set-prices requests, want 1", n)
	}
	was := map[string]sandbox.Product{}
	for _, p := range before {
		was[p.MarketplaceSKU] = p
	}
	for _, p := range m.Sandbox.Products(1001) {
		w := was[p.MarketplaceSKU]
		switch {
		case p.MarketplaceSKU == target.MarketplaceSKU:
			if p.Price != lowered || p.SalePrice != lowered {
				t.Errorf("%s: price %d, sale %d; want %d and no sale", p.MarketplaceSKU, p.Price, p.SalePrice, lowered)
			}
		case p.Price != w.Price || p.SalePrice != w.SalePrice:
			t.Errorf("%s changed: %d/%d, was %d/%d", p.MarketplaceSKU, p.Price, p.SalePrice, w.Price, w.SalePrice)
		}
	}
}
