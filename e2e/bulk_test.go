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
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// bulkDashboard is a dashboard with a bulk job runner in front of market,
// built by app through testapp. The journey's tab is pointed at
// it.
func bulkDashboard(t *testing.T, m *demo.Marketplace, chunk int) (*testapp.App, *bulkjobs.Store, *apiclient.Client) {
	t.Helper()
	app := testapp.New(t, testapp.Options{Market: m, ChunkSize: chunk, Jobs: &bulkjobs.RunnerOptions{}, AcceptLanguage: string(e2eLang(t))})
	return app, app.JobStore, app.API
}

// Journey 9: a 2,000-row price file with valid, unchanged, invalid,
// guarded and marketplace-rejected rows goes through the preview, the
// confirmation of the guarded ones, the job with its live progress, the
// results in the grid, a retry of the rejected rows only and the
// read-back.
func TestJourneyBulkImport(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{PriceApplyDelay: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	j := newJourney(t, 9, "bulk-import", testapp.Options{Market: m})
	app, jobs, api := bulkDashboard(t, m, 25)
	j.app = app
	j.loginDemo()

	// The catalogue as it is, for the file.
	acct := api.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: apiclient.Test}, nil)
	var skus []string
	prices := map[string]apiclient.Money{}
	for n, err := range acct.Seller.AllNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1001, Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := prices[n.MarketplaceSKU]; !ok {
			skus = append(skus, n.MarketplaceSKU)
			prices[n.MarketplaceSKU] = n.Price
		}
	}
	if len(skus) < 200 {
		t.Fatalf("the sandbox has %d products, want 200", len(skus))
	}
	comma := func(p apiclient.Money) string { return fmt.Sprintf("%d,%02d", p/100, p%100) }
	var csv strings.Builder
	csv.WriteString("\ufeffMarketplace SKU;Price;Sale price\n")
	line := 1
	lineOf := map[string]int{}
	add := func(sku, price, sale string) {
		line++
		fmt.Fprintf(&csv, "%s;%s;%s\n", sku, price, sale)
		if _, ok := lineOf[sku]; !ok {
			lineOf[sku] = line
		}
	}
	for i, sku := range skus[:200] {
		p := prices[sku]
		switch {
		case i < 120: // +10 %
			add(sku, comma(p*11/10), "")
		case i < 140: // unchanged
			add(sku, comma(p), "")
		case i < 150: // +80 %: guarded, confirmed below
			add(sku, comma(p*18/10), "")
		case i < 155: // -95 %: guarded, confirmed, refused by the marketplace (> 90 % drop)
			add(sku, comma(p*5/100), comma(p*5/100))
		case i < 160: // -60 %: guarded, left unconfirmed
			add(sku, comma(p*4/10), comma(p*4/10))
		case i < 180:
			add(sku, "abc", "")
		default:
			add(sku, "12,345", "") // three decimals
		}
	}
	for i := 0; line < 2001; i++ {
		switch i % 3 {
		case 0:
			add(fmt.Sprintf("MPUNKNOWN%05d", i), "100", "")
		case 1:
			add("", "100", "")
		default:
			add(skus[i%200], "100", "") // a duplicate: only the first row counts
		}
	}
	file := filepath.Join(t.TempDir(), "prices-week-47.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	row := func(sku string) string { return "[data-testid=row-" + strconv.Itoa(lineOf[sku]) + "]" }

	// Upload → preview.
	j.open("/bulk/import")
	j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	j.markPage()
	j.press("#import-submit")
	j.untilNewPage("the preview grid", `document.querySelector("#job-submit-form") && document.querySelectorAll("#job-grid tbody tr").length == 2000`)
	for id, want := range map[string]struct {
		key string
		n   int
	}{"count-send": {"jobs.count_send", 140}, "count-unchanged": {"jobs.count_unchanged", 20}, "count-invalid": {"jobs.count_invalid", 1840}, "count-guard": {"jobs.count_guard", 20}} {
		if got := j.text("[data-testid=" + id + "]"); !j.says(got, want.key, want.n) || leadingNumber(got) != strconv.Itoa(want.n) {
			t.Errorf("%s: %q, want %d and the words of %s", id, got, want.n, want.key)
		}
	}
	if got := j.text(row(skus[0]) + " [data-testid=pct]"); strings.Replace(got, ",", ".", 1) != "+10.0 %" { // either decimal mark
		t.Errorf("Δ %% of a +10 %% row: %q", got)
	}
	if got := j.text(row(skus[185]) + " [data-testid=message]"); !j.says(got, "mass.price_decimals") {
		t.Errorf("a three-decimal price: message %q", got)
	}
	if n := m.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 0 {
		t.Fatalf("the preview sent %d requests", n)
	}
	id := strings.TrimPrefix(accountless(j.location()), "/bulk/jobs/")

	// Confirm the +80 % and -95 % rows with the keyboard; not the -60 % ones.
	for _, sku := range skus[140:155] {
		box := "confirm-" + strconv.Itoa(lineOf[sku]-1)
		j.do("tick #"+box, chromedp.Focus(chromedp.ID(box)), chromedp.KeyEvent(" "))
	}
	if n := j.count("#job-grid input[name=confirm]:checked"); n != 15 {
		t.Fatalf("%d confirmations ticked, want 15", n)
	}

	// Send → live progress. The marketplace holds every batch after the
	// first until the page has shown the job between its first and last
	// batch, so the bar is seen moving however slow the machine is.
	release := m.Sandbox.HoldAfter(sandbox.RouteRPCSetPrices, 1)
	defer release()
	j.markPage()
	j.press("#job-submit")
	j.untilNewPage("the progress block", `document.querySelector("#job-progress[hx-trigger]")`)
	j.markPage()
	j.until("progress between the first and the last batch", `(() => {
		// "1,234 of 2,000 rows answered", or in Russian with spaces
		// between the thousands: the first two numbers, in any language.
		const m = ((document.querySelector("[data-testid=progress-text]")||{}).textContent||"").replace(/(\d)[\s,\u202f\u00a0](?=\d{3}\b)/g, "$1").match(/(\d+)\D+(\d+)/);
		return m && +m[1] > 0 && +m[1] < +m[2];
	})()`)
	if !j.samePage() {
		t.Error("the progress moved by reloading the page, not by htmx swaps")
	}
	viewportShot(j, "progress") // the grid below has 2,000 rows: the top of the page only
	release()
	// The job's state shows once it no longer runs (while it runs, the
	// live progress does).
	j.until("the results in the grid (the page reloads when the job ends)", `document.querySelector("[data-testid=progress-state]") &&
		document.querySelector("[data-testid=job-state]") && !document.querySelector("#job-progress[hx-trigger]") &&
		document.querySelector("#job-grid [data-testid=result]")`)
	if got := j.text("[data-testid=progress-accepted]"); got != "130" {
		t.Errorf("accepted %q, want 130", got)
	}
	if got := j.text("[data-testid=progress-rejected]"); got != "5" {
		t.Errorf("rejected %q, want 5", got)
	}
	rej := row(skus[150])
	if st := eval[string](j, fmt.Sprintf(`document.querySelector(%q).dataset.state`, rej)); st != "rejected" {
		t.Errorf("a -95 %% row: state %q, want rejected", st)
	}
	if msg := j.text(rej + " [data-testid=message]"); !strings.Contains(msg, "90%") {
		t.Errorf("a rejected row's message %q lacks the marketplace's reason", msg)
	}
	typed := comma(prices[skus[150]] * 5 / 100) // under 1,000: no thousands to group
	if j.lang == i18n.EN {
		typed = strings.Replace(typed, ",", ".", 1)
	}
	if got := j.text(rej + " [data-testid=new]"); !strings.HasPrefix(got, typed) {
		t.Errorf("a rejected row lost the typed value: %q, want %s…", got, typed)
	}
	if st := eval[string](j, fmt.Sprintf(`document.querySelector(%q).dataset.state`, row(skus[157]))); st != "skipped" {
		t.Errorf("an unconfirmed guarded row: state %q, want skipped", st)
	}
	if n := m.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 6 {
		t.Errorf("%d set-prices requests, want 6 batches of at most 25", n)
	}

	// Read-back: at once after the job, the prices are still processing
	// (applied after an hour); an hour later a new read-back confirms them.
	waitJob := func(what string, ok func(bulkjobs.Job) bool) {
		deadline := time.Now().Add(waitTimeout)
		for {
			jb, err := jobs.Job(context.Background(), id)
			if err == nil && ok(jb) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("job %s: timed out waiting for %s: %+v", id, what, jb.Counts)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitJob("the first read-back", func(jb bulkjobs.Job) bool { return !jb.ReadBackDoneAt.IsZero() })
	m.Sandbox.Advance(2 * time.Hour)
	j.open("/bulk/jobs/" + id)
	j.markPage()
	j.press("#job-readback-now")
	j.untilNewPage("the job page after asking for a read-back", `document.querySelector("#job-grid")`)
	waitJob("the second read-back", func(jb bulkjobs.Job) bool { return !jb.ReadBackDoneAt.IsZero() && jb.Counts.Confirmed > 0 })
	j.open("/bulk/jobs/" + id)
	if n := j.count("#job-grid tr[data-readback=confirmed]"); n != 130 {
		t.Errorf("%d rows confirmed by the read-back, want 130", n)
	}
	if got := j.text("[data-testid=job-readback]"); !strings.Contains(got, "130") {
		t.Errorf("read-back line %q", got)
	}

	// Retry the rejected rows only: a new preview of exactly those 5 rows,
	// still beyond the guard; each confirmed on its own and sent in one
	// batch, the marketplace refuses them again and says why.
	j.markPage()
	j.press("#job-retry")
	j.untilNewPage("the retry preview", `document.querySelector("#job-submit-form")`)
	if n := j.count("#job-grid tbody tr"); n != 5 {
		t.Fatalf("the retry preview has %d rows, want the 5 rejected ones", n)
	}
	retryID := strings.TrimPrefix(accountless(j.location()), "/bulk/jobs/")
	// Issue 17 item 7: the preview says the marketplace will refuse them
	// (drops of more than 90 %), and "confirm all" does not cover them:
	// each is sent only when its own row is confirmed.
	if got := j.text("[data-testid=count-doomed]"); !strings.HasPrefix(got, "5 ") || j.count("#confirm-all") != 0 {
		t.Errorf("retry preview: doomed badge %q, confirm all offered: %d", got, j.count("#confirm-all"))
	}
	for _, id := range eval[[]string](j, `Array.from(document.querySelectorAll("#job-grid input[name=confirm]")).map(i => i.id)`) {
		j.do("send anyway "+id, chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(" "))
	}
	before := m.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	j.markPage()
	j.press("#job-submit")
	j.untilNewPage("the retry's results", `document.querySelector("[data-testid=progress-state]") &&
		!document.querySelector("#job-progress[hx-trigger]") && document.querySelector("#job-grid [data-testid=result]")`)
	if n := m.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 1 {
		t.Errorf("the retry sent %d requests, want 1 (5 rows)", n)
	}
	if got := j.text("[data-testid=progress-rejected]"); got != "5" {
		t.Errorf("retry: rejected %q, want 5", got)
	}
	j.snapshot("retry", true)

	// End state: the first job's problems beside their messages and the
	// read-back, and the history listing both jobs.
	// The runner records a run just after the job shows finished: wait
	// for the retry's entry (a deadline for a condition, not a speed).
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, n, err := app.Audit.List(context.Background(), audit.Filter{SellerID: 1001, Environment: "test", Kind: audit.KindBulk, Text: retryID}, 1, 0, 0)
		if err == nil && n == 1 || time.Now().After(deadline) {
			break
		}
	}
	j.open("/history?kind=bulk")
	if j.count(`#history-table a[href$="/bulk/jobs/`+id+`"]`) == 0 || j.count(`#history-table a[href$="/bulk/jobs/`+retryID+`"]`) == 0 {
		t.Errorf("history lacks a job: %s", j.visibleText())
	}
	j.open("/bulk/jobs/" + id)
	j.choose("job-filter", "send")
	j.markPage()
	j.do("tab to Show and press Enter", chromedp.KeyEvent("\t"), chromedp.KeyEvent("\r"))
	j.untilNewPage("the rows to send", `location.search.includes("show=send")`)
	if n := j.count("#job-grid tbody tr"); n != 140 {
		t.Errorf("rows to send: %d rows, want 140 (130 accepted, 5 rejected, 5 unconfirmed)", n)
	}
	j.do("scroll the results into view", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll(".table-wrap").forEach(w => { w.scrollLeft = w.scrollWidth })`))
}

// leadingNumber is the digits of the number s starts with, without its
// thousands separators ("1 840 invalid", "1840 с ошибками": "1840").
func leadingNumber(s string) string {
	var out []byte
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			out = append(out, byte(r))
		case r == ' ' || r == ',' || r == '\u202f' || r == '\u00a0':
		default:
			return string(out)
		}
	}
	return string(out)
}

// viewportShot saves what the window shows (a full-page picture of a
// 2,000-row grid takes Chromium longer than a step may).
func viewportShot(j *journey, suffix string) {
	j.t.Helper()
	png := run(j, "screenshot", chromedp.CaptureScreenshot())
	name := strings.TrimSuffix(j.shot, ".png") + "-" + suffix + ".png"
	if err := os.WriteFile(filepath.Join(artifactsDir(j.t), name), png, 0o644); err != nil {
		j.t.Errorf("write screenshot: %v", err)
	}
}
