package handlers_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"github.com/sellerdesk/sellerdesk/views/paths"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// bulkEnv is a marketplace, a session database and one URL in front of a
// dashboard that can be restarted (a new App and job runner on the same
// database) while the browser keeps its cookies.
type bulkEnv struct {
	t       *testing.T
	market  *demo.Marketplace
	sb      *sandbox.Sandbox
	dbPath  string
	store   *sessions.Store
	api     *apiclient.Client
	srv     *httptest.Server
	current atomic.Pointer[handlers.App]
	app     *testapp.App
	built   *app.App
	runner  *bulkjobs.Runner
	jobs    *bulkjobs.Store
	audit   *audit.Store
	opts    bulkjobs.RunnerOptions
	chunk   int
	budget  time.Duration     // app.MassUpdateOptions.RetryBudget; 0 = the default
	profile apiclient.Profile // issue 15: the sandbox's profile
	logs    *testapp.SafeBuffer
}

func newBulkEnv(t *testing.T, sbOpts sandbox.Options, chunk int, ropts bulkjobs.RunnerOptions) *bulkEnv {
	t.Helper()
	e := &bulkEnv{t: t, dbPath: filepath.Join(t.TempDir(), "sellerdesk.db"), chunk: chunk, opts: ropts, logs: &testapp.SafeBuffer{},
		profile: apiclient.Profile(sbOpts.Profile)}
	m, err := demo.Start(sandbox.New(sbOpts))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	e.market, e.sb = m, m.Sandbox
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.api, err = apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: e.sb.Now, Logger: log,
		Profile: e.profile})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Language") == "" {
			r.Header.Set("Accept-Language", "en") // as testapp: English unless a test asks otherwise
		}
		e.current.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(e.srv.Close)
	e.start()
	t.Cleanup(func() { e.stop() })
	return e
}

// start builds a dashboard on the database through app, as
// cmd/web does at start-up.
func (e *bulkEnv) start() {
	t := e.t
	t.Helper()
	opts := e.opts
	opts.Logger = slog.New(slog.NewTextHandler(e.logs, nil))
	a, err := app.New(context.Background(), app.Config{
		Logger:      slog.New(slog.NewTextHandler(e.logs, nil)),
		Marketplace: app.Marketplace{B2B: e.market.B2BURL, B2BTest: e.market.B2BTestURL, Seller: e.market.SellerURL},
		Profile:     e.profile, // issue 15: the sandbox's profile
		APIOptions:  func(o *apiclient.Options) { o.Now = e.sb.Now },
		DatabaseURL: e.dbPath,
		Sessions: sessions.Options{Keys: [][]byte{bytes.Repeat([]byte{7}, sessions.KeySize)},
			Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))},
		Jobs:             &opts,
		JobsCloseTimeout: 10 * time.Second,
		History:          &app.HistoryOptions{},
		MassUpdate:       app.MassUpdateOptions{ChunkSize: e.chunk, RetryBudget: e.budget},
		Dashboard:        handlers.Deps{Demo: true, DemoCredentials: app.DemoCredentials(), Now: e.sb.Now},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The local copy's sync never starts here: the jobs' checks of the
	// current values read the marketplace live, before a first full copy.
	a.Catalog.Close()
	e.built = a
	e.current.Store(a.Handler)
	e.store, e.runner, e.jobs, e.audit = a.Sessions, a.Jobs, a.JobStore, a.Audit
	e.app = &testapp.App{Sandbox: e.sb, Market: e.market, Handler: a.Handler, Store: a.Sessions, Server: e.srv, URL: e.srv.URL, Logs: e.logs, Audit: a.Audit}
}

// stop shuts the dashboard down gracefully (the chunk in flight finishes)
// and closes its database.
func (e *bulkEnv) stop() {
	if e.built == nil {
		return
	}
	if err := e.built.Close(); err != nil {
		e.t.Errorf("closing the dashboard: %v", err)
	}
	e.built, e.runner = nil, nil
}

func (e *bulkEnv) browser() *testapp.Browser {
	b := e.app.Browser(e.t)
	b.LoginDemo()
	return b
}

// upload posts a file to the import form.
func upload(t *testing.T, e *bulkEnv, b *testapp.Browser, name string, data []byte, kind string) *http.Response {
	t.Helper()
	resp := postUpload(t, e, b, name, data, kind)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// postUpload posts a file to the import form ("" kind: told by the
// headers) and returns the answer with its body to read and close.
func postUpload(t *testing.T, e *bulkEnv, b *testapp.Browser, name string, data []byte, kind string) *http.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", kind)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+b.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", e.srv.URL)
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func download(t *testing.T, e *bulkEnv, b *testapp.Browser, path string) (*http.Response, []byte) {
	t.Helper()
	resp, err := b.Client.Get(e.srv.URL + b.InAccount(path))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

// waitJob waits until the job satisfies ok.
func waitJob(t *testing.T, e *bulkEnv, id string, what string, ok func(bulkjobs.Job) bool) bulkjobs.Job {
	t.Helper()
	var j bulkjobs.Job
	waitUntil(t, "job "+id+": "+what, func() bool {
		var err error
		if j, err = e.jobs.Job(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		return ok(j)
	})
	return j
}

func jobIDOf(t *testing.T, resp *http.Response) string {
	t.Helper()
	loc := resp.Header.Get("Location")
	if _, rest, ok := paths.Split(loc); ok {
		loc = rest
	}
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/bulk/jobs/") {
		t.Fatalf("upload: status %d to %q, want 303 to a job", resp.StatusCode, loc)
	}
	return strings.TrimPrefix(loc, "/bulk/jobs/")
}

// catalogPrices reads the seller's products and prices through the
// dashboard's own CSV export.
func catalogPrices(t *testing.T, e *bulkEnv, b *testapp.Browser) ([]string, map[string]apiclient.Money) {
	t.Helper()
	resp, data := download(t, e, b, "/prices/export.csv?limit=1000")
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Disposition"), "prices_seller-1001_test_page-1_limit-1000_") {
		t.Fatalf("export: %d %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
	tab, err := bulkjobs.ReadTable(data)
	if err != nil {
		t.Fatal(err)
	}
	var skus []string
	prices := map[string]apiclient.Money{}
	for _, row := range tab.Rows {
		m, err := apiclient.ParseMoney(row[4])
		if err != nil {
			t.Fatal(err)
		}
		skus = append(skus, row[0])
		prices[row[0]] = m
	}
	return skus, prices
}

func commaMoney(m apiclient.Money) string { return fmt.Sprintf("%d,%02d", m/100, m%100) } // decimal comma

func TestBulkPriceImportFlow(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{PriceApplyDelay: time.Hour}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	if len(skus) < 200 {
		t.Fatalf("catalogue has %d products, want 200", len(skus))
	}

	// 2,000 rows: 120 changes (+10 %), 20 unchanged, 10 confirmed rises
	// (+80 %), 5 confirmed drops the marketplace rejects (-95 %), 5 guarded
	// drops left unconfirmed (-60 %), 40 invalid values, 1,800 rows with
	// unknown SKUs or blanks. Separator ';', decimal commas, BOM, odd headers.
	var csv bytes.Buffer
	csv.WriteString("\ufeffMarketplace SKU;PRICE;Sale price;Comment\n")
	line := 1
	rowOf := map[string]int{}
	addSale := func(sku, price, sale string) {
		line++
		fmt.Fprintf(&csv, "%s;%s;%s;note %d\n", sku, price, sale, line)
		if _, ok := rowOf[sku]; !ok {
			rowOf[sku] = line
		}
	}
	add := func(sku, price string) { addSale(sku, price, "") }
	for i, sku := range skus[:200] {
		p := prices[sku]
		switch {
		case i < 120:
			add(sku, commaMoney(p*11/10))
		case i < 140:
			add(sku, commaMoney(p))
		case i < 150:
			add(sku, commaMoney(p*18/10))
		case i < 155: // a drop below the current sale price needs a sale price too
			addSale(sku, commaMoney(p*5/100), commaMoney(p*5/100))
		case i < 160:
			addSale(sku, commaMoney(p*4/10), commaMoney(p*4/10))
		case i < 180:
			add(sku, "abc")
		default:
			add(sku, "12,345")
		}
	}
	for i := 0; line < 2001; i++ {
		switch i % 3 {
		case 0:
			add(fmt.Sprintf("MPUNKNOWN%05d", i), "100")
		case 1:
			add("", "100")
		default:
			add(skus[i%200], "100") // duplicate: only the first row counts
		}
	}
	start := time.Now()
	mark := func(what string) { t.Logf("%6.2fs %s", time.Since(start).Seconds(), what) }
	resp := upload(t, e, b, "prices-week-47.csv", csv.Bytes(), "")
	mark("upload")
	id := jobIDOf(t, resp)

	preview := b.Get("/bulk/jobs/" + id)
	mark("preview page")
	if preview.Status != http.StatusOK {
		t.Fatalf("preview: %d", preview.Status)
	}
	if got := preview.Doc.Find("#job-grid tbody tr").Length(); got != 2000 {
		t.Fatalf("preview grid has %d rows, want 2000", got)
	}
	wantCounts := map[string]string{"count-send": "140 to send", "count-unchanged": "20 unchanged", "count-invalid": "1840 invalid", "count-guard": "20 beyond"}
	for id, want := range wantCounts {
		if got := preview.Text("[data-testid=" + id + "]"); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q…", id, got, want)
		}
	}
	first := skus[0]
	r0 := preview.Doc.Find(fmt.Sprintf("[data-testid=row-%d]", rowOf[first]))
	if pct := strings.TrimSpace(r0.Find("[data-testid=pct]").Text()); pct != "+10.0\u00a0%" {
		t.Errorf("row %d Δ%% = %q, want +10.0 %%", rowOf[first], pct)
	}
	if flag, _ := preview.Doc.Find(fmt.Sprintf("[data-testid=row-%d]", rowOf[skus[145]])).Attr("data-flag"); flag != "guard" {
		t.Errorf("a +80 %% row is flagged %q, want guard", flag)
	}
	if msg := preview.Text(fmt.Sprintf("[data-testid=row-%d] [data-testid=message]", rowOf[skus[185]])); !strings.Contains(msg, "2 decimals") {
		t.Errorf("a 3-decimal price: message %q", msg)
	}
	if e.sb.Counters().Requests[sandbox.RouteRPCSetPrices] != 0 {
		t.Fatal("the preview sent something")
	}

	// Someone changes one product between preview and submit.
	stale := skus[1]
	acct := e.api.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: apiclient.Test}, nil)
	if _, err := acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: stale, Price: prices[stale] + 100}}}); err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(2 * time.Hour) // the stale change applies
	e.sb.ResetCounters()

	// Confirm the rises and the big drops, not the -60 % rows.
	form := url.Values{}
	for _, sku := range skus[140:155] {
		seq := rowOf[sku] - 1
		form.Add("confirm", strconv.Itoa(seq))
	}
	p := b.Post("/bulk/jobs/"+id+"/submit", form)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	mark("submit")
	j := waitJob(t, e, id, "read-back", func(j bulkjobs.Job) bool { return !j.ReadBackDoneAt.IsZero() })
	mark("job and read-back")

	c := j.Counts
	if c.Accepted != 129 || c.Rejected != 5 || c.Held != 1 || c.Unsent != 0 {
		t.Errorf("counts %+v: want 129 accepted, 5 rejected, 1 held", c)
	}
	if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 6 {
		t.Errorf("set-prices requests = %d, want 6 chunks of ≤25", got)
	}
	if mif := e.sb.Counters().MaxInFlight[sandbox.RouteRPCSetPrices+"/1001"]; mif > 1 {
		t.Errorf("max in flight %d, want 1", mif)
	}
	if c.Processing != 129 {
		t.Errorf("read-back with a 1 h apply delay: %d processing, want 129", c.Processing)
	}

	res := b.Get("/bulk/jobs/" + id)
	mark("results page")
	if got := res.Text("[data-testid=progress-accepted]"); got != "129" {
		t.Errorf("progress accepted %q", got)
	}
	rej := res.Doc.Find(fmt.Sprintf("[data-testid=row-%d]", rowOf[skus[150]]))
	if st, _ := rej.Attr("data-state"); st != "rejected" || !strings.Contains(rej.Find("[data-testid=message]").Text(), "90%") {
		t.Errorf("rejected row: state %q, message %q", st, rej.Find("[data-testid=message]").Text())
	}
	if got, typed := strings.TrimSpace(rej.Find("[data-testid=new]").Text()), strings.Replace(commaMoney(prices[skus[150]]*5/100), ",", ".", 1); !strings.HasPrefix(got, typed) {
		t.Errorf("rejected row keeps the typed value: %q", got)
	}
	held := res.Doc.Find(fmt.Sprintf("[data-testid=row-%d]", rowOf[stale]))
	if st, _ := held.Attr("data-state"); st != "held" || !strings.Contains(held.Find("[data-testid=message]").Text(), "Changed since preview") {
		t.Errorf("stale row: state %q, message %q", st, held.Find("[data-testid=message]").Text())
	}
	if st, _ := res.Doc.Find(fmt.Sprintf("[data-testid=row-%d]", rowOf[skus[157]])).Attr("data-state"); st != "skipped" {
		t.Errorf("unconfirmed guarded row state %q, want skipped", st)
	}

	// Progress fragment for htmx, after the job: no more polling.
	b.HTMX = true
	frag := b.Get("/bulk/jobs/" + id + "/progress")
	b.HTMX = false
	if frag.Has("[hx-trigger]") || !frag.Has("#job-progress") {
		t.Errorf("finished progress fragment: %s", frag.Body)
	}

	// Errors as CSV: the rejected, held, unconfirmed and invalid rows.
	resp, data := download(t, e, b, "/bulk/jobs/"+id+"/errors.csv")
	tab, err := bulkjobs.ReadTable(data)
	if resp.StatusCode != 200 || err != nil {
		t.Fatalf("errors.csv: %d %v", resp.StatusCode, err)
	}
	if got, want := len(tab.Rows), 5+1+5+1840; got != want {
		t.Errorf("errors.csv has %d rows, want %d", got, want)
	}

	// Read-back once the marketplace applied the prices.
	e.sb.Advance(2 * time.Hour)
	if p := b.Post("/bulk/jobs/"+id+"/readback", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("readback: %d", p.Status)
	}
	j = waitJob(t, e, id, "second read-back", func(j bulkjobs.Job) bool { return !j.ReadBackDoneAt.IsZero() && j.Counts.Confirmed > 0 })
	if j.Counts.Confirmed != 129 || j.Counts.Processing != 0 {
		t.Errorf("read-back after apply: %+v", j.Counts)
	}

	mark("errors csv, read-back 2")
	// Retry the rejected rows only: a new preview of 5 rows.
	p = b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("retry: %d", p.Status)
	}
	retryID := strings.TrimPrefix(p.Location, b.InAccount("/bulk/jobs/"))
	rj, err := e.jobs.Job(context.Background(), retryID)
	if err != nil || rj.Counts.Rows != 5 || rj.Counts.Guard != 5 || rj.ParentID != id {
		t.Fatalf("retry job: %+v %v", rj, err)
	}
	// The server enforces the guard: submitting without confirmation sends nothing.
	before := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]
	b.Post("/bulk/jobs/"+retryID+"/submit", url.Values{})
	rj = waitJob(t, e, retryID, "done", func(j bulkjobs.Job) bool { return !j.Active() })
	if rj.Counts.Skipped != 5 || e.sb.Counters().Requests[sandbox.RouteRPCSetPrices] != before {
		t.Errorf("unconfirmed retry: %+v", rj.Counts)
	}

	mark("retry")
	// History lists the run and its read-backs, who and what (the
	// runner records a run just after the job shows finished: wait for it).
	recorded := func(kind, ref string) bool {
		f := audit.Filter{SellerID: 1001, Environment: "test", Kind: kind, Text: ref}
		_, n, err := e.audit.List(context.Background(), f, 1, 0, 0)
		return err == nil && n > 0
	}
	// The retry sent nothing (unconfirmed): a change not made is not in
	// the audit trail.
	waitUntil(t, "the run and the read-back in the history", func() bool {
		return recorded(audit.KindBulk, id) && recorded(audit.KindReadBack, id)
	})
	h := b.Get("/history?kind=bulk")
	if !h.Has(`#history-table a[href="`+b.InAccount("/bulk/jobs/"+id)+`"]`) || h.Has(`#history-table a[href="`+b.InAccount("/bulk/jobs/"+retryID)+`"]`) {
		t.Errorf("history of the bulk runs: %q", h.Text("#history-table"))
	}
	if got := h.Text("#history-table"); !strings.Contains(got, "demo-1001") || !strings.Contains(got, "test · seller 1001") || !strings.Contains(got, "accepted") || !strings.Contains(got, "partly done") {
		t.Errorf("history of the bulk runs: %q", got)
	}
	if got := b.Get("/history?kind=readback").Text("#history-table"); !strings.Contains(got, "129 confirmed") {
		t.Errorf("history of the read-backs: %q", got)
	}
	resp, data = download(t, e, b, "/history/export.csv")
	if resp.StatusCode != 200 || !bytes.Contains(data, []byte(id)) || !bytes.Contains(data, []byte(`"refused"`)) || !bytes.Contains(data, []byte("129 confirmed")) {
		t.Errorf("history export: %d", resp.StatusCode)
	}
	if strings.Contains(e.logs.String(), "sandbox-secret-1001") {
		t.Error("the secret reached the logs")
	}
}

func TestBulkJobResumesAfterRestart(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{ReadBackDelay: time.Hour})
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	var csv strings.Builder
	csv.WriteString("sku,price\n")
	for _, sku := range skus[:100] {
		p := prices[sku] + 100
		fmt.Fprintf(&csv, "%s,%d.%02d\n", sku, p/100, p%100)
	}
	id := jobIDOf(t, upload(t, e, b, "restart.csv", []byte(csv.String()), "prices"))
	e.sb.SetLatency(sandbox.RouteRPCSetPrices, 60*time.Millisecond)
	e.sb.ResetCounters()
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	waitJob(t, e, id, "three chunks", func(j bulkjobs.Job) bool { return j.NextChunk >= 3 })
	e.stop() // the dashboard goes down mid-job; the chunk in flight completes
	midDB, err := sqldb.Open(context.Background(), e.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	mid, err := bulkjobs.NewStore(context.Background(), midDB)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := mid.Job(context.Background(), id)
	midDB.Close()
	sent := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]
	if j.NextChunk >= 10 || j.NextChunk != sent || j.Counts.Accepted != sent*10 {
		t.Fatalf("after stop: next chunk %d, %d requests, %d accepted", j.NextChunk, sent, j.Counts.Accepted)
	}

	e.start() // a new dashboard process on the same database
	j = waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return j.State == bulkjobs.StateDone })
	if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 10 {
		t.Errorf("set-prices requests over both runs = %d, want exactly 10 (no chunk twice)", got)
	}
	if j.Counts.Accepted != 100 {
		t.Errorf("accepted %d, want 100", j.Counts.Accepted)
	}
	// The page still shows it (same cookie, new process).
	if p := b.Get("/bulk/jobs/" + id); p.Text("[data-testid=progress-accepted]") != "100" {
		t.Errorf("job page after restart: %q", p.Text("[data-testid=progress-text]"))
	}
}

func TestBulkJobStopsOnLogout(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{ReadBackDelay: time.Hour})
	b := e.browser()
	var csv strings.Builder
	csv.WriteString("Warehouse;Barcode;Qty\n")
	resp, data := download(t, e, b, "/nomenclature/export.csv?limit=100")
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	tab, err := bulkjobs.ReadTable(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows[:60] {
		q, _ := strconv.Atoi(row[8])
		fmt.Fprintf(&csv, "%s;%s;%d\n", row[0], row[1], q+1)
	}
	id := jobIDOf(t, upload(t, e, b, "stock.csv", []byte(csv.String()), ""))
	j, _ := e.jobs.Job(context.Background(), id)
	if j.Kind != "stock" || j.Counts.OK+j.Counts.Guard != 60 {
		t.Fatalf("stock preview: kind %s, %+v", j.Kind, j.Counts)
	}
	e.sb.SetLatency(sandbox.RouteRPCStore, 80*time.Millisecond)
	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}})
	waitJob(t, e, id, "a chunk", func(j bulkjobs.Job) bool { return j.NextChunk >= 1 })
	b.Post("/logout", url.Values{})
	j = waitJob(t, e, id, "stop", func(j bulkjobs.Job) bool { return !j.Active() })
	if j.State != bulkjobs.StateStopped || j.Counts.Unsent == 0 || j.Counts.Accepted == 0 {
		t.Fatalf("after logout: %s %+v", j.State, j.Counts)
	}
	items, _ := e.jobs.Items(context.Background(), id)
	for _, it := range items {
		if it.State == bulkjobs.ItemUnsent && it.Message.In(i18n.EN, nil) != "not sent: logged out" {
			t.Fatalf("unsent row message %q", it.Message)
		}
	}
}

// TestBulkJobsMatchSellerAndEnvironment: a job belongs to one seller in one
// environment; the same seller logged in to the other environment neither
// sees it in the history nor opens, drives or exports it.
func TestBulkJobsMatchSellerAndEnvironment(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	test := e.browser() // seller 1001, test environment
	skus, prices := catalogPrices(t, e, test)
	file := fmt.Sprintf("Marketplace SKU;Price\n%s;%s\n", skus[0], commaMoney(prices[skus[0]]+100))
	id := jobIDOf(t, upload(t, e, test, "prices.csv", []byte(file), "prices"))

	prod := e.app.Browser(t)
	prod.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	for _, path := range []string{"/bulk/jobs/" + id, "/bulk/jobs/" + id + "/export.csv", "/bulk/jobs/" + id + "/errors.csv"} {
		if p := prod.Get(path); p.Status != http.StatusNotFound {
			t.Errorf("production login: GET %s answered %d, want 404", path, p.Status)
		}
	}
	if p := prod.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); p.Status != http.StatusNotFound {
		t.Errorf("production login: submit answered %d, want 404", p.Status)
	}
	if p := test.Get("/bulk/jobs/" + id); p.Status != http.StatusOK {
		t.Errorf("its own environment: %d", p.Status)
	}
}

// TestBulkJobCrashWithChunkInFlight: the dashboard dies while a chunk is in
// flight (its lease left behind, the chunk unanswered). Meanwhile a
// colleague changes one of its products through the marketplace, and
// another row turns out applied. The restarted instance (same name) takes
// the job back at once, reads the chunk back instead of sending it blindly:
// the changed product is held and keeps the colleague's price, the applied
// row is accepted without a second send, and only the rest is sent again.
func TestBulkJobCrashWithChunkInFlight(t *testing.T) {
	t.Parallel()
	const instance = "host-a/127.0.0.1:8080"
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{Owner: instance, ReadBackDelay: time.Hour})
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	var csv strings.Builder
	csv.WriteString("sku,price\n")
	for _, sku := range skus[:30] {
		p := prices[sku] + 100
		fmt.Fprintf(&csv, "%s,%d.%02d\n", sku, p/100, p%100)
	}
	id := jobIDOf(t, upload(t, e, b, "crash.csv", []byte(csv.String()), "prices"))

	// The marketplace answers the first chunk and holds the second.
	release := e.sb.HoldAfter(sandbox.RouteRPCSetPrices, 1)
	defer release()
	e.sb.ResetCounters()
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	waitUntil(t, "the second chunk in flight", func() bool { return e.sb.Held(sandbox.RouteRPCSetPrices) == 1 })

	// The process dies: the runner is killed mid-request and its lease is
	// left as a crash leaves it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = e.runner.Close(ctx)
	if _, err := e.jobs.Claim(context.Background(), id, instance, time.Now(), time.Now().Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	j, err := e.jobs.Job(context.Background(), id)
	if err != nil || j.InFlight != 2 || j.NextChunk != 1 {
		t.Fatalf("after the crash: in flight %d, next chunk %d (%v); want chunk 1 recorded in flight", j.InFlight, j.NextChunk, err)
	}
	rows, err := e.jobs.Items(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	e.stop() // the rest of the crash: the database closes
	// The request held at the marketplace must see its client gone before
	// the gate opens; released first, it would be applied after all.
	waitUntil(t, "the held request's client gone", func() bool { return e.sb.Held(sandbox.RouteRPCSetPrices) == 0 })
	release()

	// Meanwhile: a colleague sets another price on one product of the
	// chunk, and another product already shows exactly what the job sends.
	changed, applied := skus[12], skus[15]
	colleague := prices[changed] + 777
	var asSent apiclient.PriceUpdate
	for _, it := range rows {
		if it.Key == applied {
			if err := json.Unmarshal([]byte(it.Payload), &asSent); err != nil {
				t.Fatal(err)
			}
		}
	}
	acct := e.api.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: apiclient.Test}, nil)
	if _, err := acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{
		{MarketplaceSKU: changed, Price: colleague}, asSent}}); err != nil {
		t.Fatal(err)
	}
	e.sb.ResetCounters()

	e.start() // the same instance, restarted: its own lease is its own
	j = waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return j.State == bulkjobs.StateDone })
	if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 2 {
		t.Errorf("set-prices requests after the restart = %d, want 2 (the rest of chunk 2, then chunk 3)", got)
	}
	items, err := e.jobs.Items(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		switch it.Key {
		case changed:
			if it.State != bulkjobs.ItemHeld || !strings.Contains(it.Message.In(i18n.EN, nil), "changed") {
				t.Errorf("the product a colleague changed: %s %q, want held", it.State, it.Message)
			}
		case applied:
			if it.State != bulkjobs.ItemAccepted || !strings.Contains(it.Message.In(i18n.EN, nil), "reading it back") {
				t.Errorf("the product found applied: %s %q, want accepted by the read-back", it.State, it.Message)
			}
		default:
			if it.State != bulkjobs.ItemAccepted {
				t.Errorf("row %s: %s %q, want accepted", it.Key, it.State, it.Message)
			}
		}
	}
	_, now := catalogPrices(t, e, b)
	if now[changed] != colleague {
		t.Errorf("the colleague's price %d was overwritten with %d", colleague, now[changed])
	}
	if j.Counts.Accepted != 29 || j.Counts.Held != 1 {
		t.Errorf("accepted %d, held %d; want 29 and 1", j.Counts.Accepted, j.Counts.Held)
	}
}

// TestImportBombRefused: a ZIP bomb posing as an XLSX gets a 422 on the
// import form that names the limit.
func TestImportBombRefused(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	var packed bytes.Buffer // 64 MB of zeros, about 64 KB packed
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	zero := make([]byte, 1<<20)
	for range 64 {
		fw.Write(zero)
	}
	fw.Close()
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(packed.Bytes())
	zw.Close()

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "prices")
	part, _ := mw.CreateFormFile("file", "prices.xlsx")
	part.Write(bomb.Bytes())
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+b.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", e.srv.URL)
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(page), "unpacks to more than 32 MB") {
		t.Fatalf("bomb upload: %d, want 422 naming the 32 MB limit:\n%s", resp.StatusCode, excerpt(string(page)))
	}
}

// TestImportOneAtATime: while a seller's file is being read, a second
// upload of the same seller gets 429 with Retry-After on the import form
// (the kind chosen kept), and the first completes; once it has, the next
// upload is read. The first import is held in the gate by a hook, so the
// test does not depend on how fast anything runs.
func TestImportOneAtATime(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	handlers.SetImportHeld(e.current.Load(), func() {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	})
	file := []byte("Marketplace SKU;Price\nMP-NONE;100\n")
	b1, b2 := e.browser(), e.browser()
	done := make(chan int, 1)
	go func() {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("kind", "prices")
		fw, _ := mw.CreateFormFile("file", "prices.csv")
		fw.Write(file)
		mw.Close()
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+b1.InAccount("/bulk/import"), &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", e.srv.URL)
		resp, err := b1.Client.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	<-entered

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "stock")
	fw, _ := mw.CreateFormFile("file", "stock.csv")
	fw.Write(file)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+b2.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", e.srv.URL)
	resp, err := b2.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second upload meanwhile: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(string(page), "Another file is being read right now") {
		t.Errorf("second upload's page does not say to wait:\n%s", excerpt(string(page)))
	}
	if !strings.Contains(string(page), `value="stock" checked`) && !strings.Contains(string(page), `value="stock" selected`) {
		t.Errorf("second upload's form lost the kind chosen:\n%s", excerpt(string(page)))
	}

	close(release)
	if code := <-done; code == 0 || code == http.StatusTooManyRequests || code >= 500 {
		t.Fatalf("the held upload ended with %d", code)
	}
	if resp := upload(t, e, b2, "stock.csv", file, "stock"); resp.StatusCode == http.StatusTooManyRequests {
		t.Fatal("an upload after the first ended still gets 429: the place was not given back")
	}
}

// TestImportXMLBombRefused: an XLSX whose shared strings are 600,000 tiny
// elements (4 MB stored, so no size or ratio limit applies) gets a 422 on
// the import form naming the element limit, the kind chosen kept.
func TestImportXMLBombRefused(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	var good bytes.Buffer // a real workbook, to which the bomb is added
	if err := sheets.Write(&good, sheets.XLSX, sheets.Sheet{Columns: sheets.Columns("Warehouse", "Barcode", "Quantity"), Rows: [][]string{{"WH1", "4600000000001", "5"}}}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(good.Bytes()), int64(good.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "xl/sharedStrings.xml", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		strings.Repeat("<si><t/></si>", 300_000) + `</sst>`))
	zw.Close()

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "stock")
	part, _ := mw.CreateFormFile("file", "stock.xlsx")
	part.Write(bomb.Bytes())
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+b.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", e.srv.URL)
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(page), "more than 50000 texts, styles and formulas") {
		t.Fatalf("XML bomb upload: %d, want 422 naming the element limit:\n%s", resp.StatusCode, excerpt(string(page)))
	}
	if !strings.Contains(string(page), `value="stock" selected`) {
		t.Errorf("the form lost the kind chosen:\n%s", excerpt(string(page)))
	}
}
