package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"github.com/xuri/excelize/v2"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// copyKey1001 is the copy LoginDemo's session reads.
var copyKey1001 = copystore.Key{SellerID: 1001, Env: "test"}

// copyDone waits until every list of the copy finished a pass numbered
// gen or later and no sync runs: a login or a page view may start one
// more pass than the test counted (which one is the scheduler's choice),
// so the wait is for the event, not for a number.
func copyDone(t *testing.T, app *testapp.App, gen int64) {
	t.Helper()
	copyWait(t, app, "a full copy", func(st copystore.SyncState) bool { return st.Gen >= gen })
}

// copyDoneSince waits until every list of the copy finished a pass after
// since (a pass that "refresh now" at since started) and no sync runs.
func copyDoneSince(t *testing.T, app *testapp.App, since time.Time) {
	t.Helper()
	since = since.Truncate(time.Millisecond) // the store's precision
	copyWait(t, app, "a full copy since "+since.Format(time.StampMilli), func(st copystore.SyncState) bool { return !st.CompletedAt.Before(since) })
}

func copyWait(t *testing.T, app *testapp.App, what string, done func(copystore.SyncState) bool) {
	t.Helper()
	waitUntil(t, what, func() bool {
		st, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range copystore.Kinds {
			if !done(st[k]) || st[k].Running || !st[k].Complete() {
				return false
			}
		}
		return !app.Catalog.Running(copyKey1001)
	})
}

// beforeFullCopy starts a dashboard with a copy, products per seller, and
// logs in; the return boxes, which the sync reads last, fail until
// release, so the copy is not complete until then. (A request held in
// flight would hold the seller's lock, and the live reads wait for it.)
// release resumes the sync through a view of the overview.
func beforeFullCopy(t *testing.T, products int) (*testapp.App, *testapp.Browser, func()) {
	t.Helper()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: products}, Catalog: true})
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: sandbox.FaultInternal, Times: -1})
	b := app.Browser(t)
	b.LoginDemo()
	waitUntil(t, "the sync failed at the return boxes", func() bool {
		st, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
		return err == nil && st[copystore.KindBoxes].LastError != "" && !app.Catalog.Running(copyKey1001)
	})
	var once sync.Once
	return app, b, func() {
		once.Do(func() {
			app.Sandbox.ClearFaults()
			b.Get("/")
		})
	}
}

// TestOverviewFromCopy: the login starts the sync; the overview answers
// from what the copy holds so far, with the sync's progress, without a
// marketplace call; once the copy is complete it shows the counts per
// status and what needs action, each a link to the filtered list.
func TestOverviewFromCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 200}, Catalog: true})
	release := app.Sandbox.HoldAfter(sandbox.RouteRPCList, 2) // the login's check and page 1
	defer release()
	b := app.Browser(t)
	b.LoginDemo()
	waitUntil(t, "the sync held at page 2", func() bool { return app.Sandbox.Held(sandbox.RouteRPCList) == 1 })
	// The sync stores pages in batches; one waits a second at most for
	// the next page before it is stored.
	waitUntil(t, "page 1 stored", func() bool {
		st, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
		return err == nil && st[copystore.KindNomenclature].NextPage == 2
	})

	before := app.Sandbox.Counters()
	p := b.Get("/")
	if p.Status != http.StatusOK {
		t.Fatalf("overview: %d", p.Status)
	}
	if got := p.Text("[data-testid=sync-status]"); !strings.Contains(got, "No full copy yet, refreshing nomenclature: page 2 of 6") {
		t.Errorf("sync status %q", got)
	}
	if v, _ := p.Doc.Find("[data-testid=sync-status] progress").Attr("value"); v != "16" {
		t.Errorf("progress %q, want 16 (1 page of 6)", v)
	}
	if got := p.Text("[data-testid=counts-nomenclature] h2"); got != "Nomenclature 100" {
		t.Errorf("nomenclature so far %q, want the 100 records of page 1", got)
	}
	if got := totalRequests(app.Sandbox.Counters()) - totalRequests(before); got != 0 {
		t.Errorf("the overview made %d marketplace calls", got)
	}
	release()
	copyDone(t, app, 1)

	before = app.Sandbox.Counters()
	p = b.Get("/")
	if got := totalRequests(app.Sandbox.Counters()) - totalRequests(before); got != 0 {
		t.Errorf("the overview made %d marketplace calls", got)
	}
	if got := p.Text("[data-testid=sync-status]"); !strings.HasPrefix(got, "As of ") || strings.Contains(got, "refreshing") || p.Has("[data-testid=sync-status] progress") {
		t.Errorf("sync status %q", got)
	}
	if got := p.Text("[data-testid=counts-nomenclature] h2"); got != "Nomenclature 600" {
		t.Errorf("nomenclature %q", got)
	}
	newOrders := len(app.Sandbox.OrderNumbers(1001, "new"))
	for _, want := range []struct{ href, count string }{
		{"/orders?status=new", strconv.Itoa(newOrders)},
		{"/nomenclature?status=rejected", ""},
		{"/nomenclature?stock=0", ""},
		{"/return-boxes?status=loading", ""},
	} {
		a := p.Doc.Find(`[data-testid=needs-action] a[href="` + b.InAccount(want.href) + `"]`)
		if a.Length() != 1 {
			t.Errorf("needs action: no link to %s", want.href)
			continue
		}
		got := strings.TrimSpace(a.Parent().Find("strong").Text())
		if n, err := strconv.Atoi(got); err != nil || n == 0 || (want.count != "" && got != want.count) {
			t.Errorf("needs action %s: %q, want %s (not 0)", want.href, got, want.count)
		}
	}
	if got := p.Doc.Find(`[data-testid=counts-orders] a[href="` + b.InAccount("/orders?status=new") + `"]`).Length(); got != 1 {
		t.Error("orders per status are not linked")
	}
}

// TestSyncWaitShown: a 429 during the sync is waited out, and the
// freshness line says so while it lasts.
func TestSyncWaitShown(t *testing.T) {
	t.Parallel()
	waiting, proceed := make(chan struct{}), make(chan struct{})
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 50}, Catalog: true,
		CatalogSync: func(y *copystore.Syncer) {
			y.Sleep = func(ctx context.Context, d time.Duration) error {
				close(waiting)
				select {
				case <-proceed:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}})
	release := app.Sandbox.HoldAfter(sandbox.RouteRPCList, 1) // the login's check
	defer release()
	b := app.Browser(t)
	b.LoginDemo()
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultRateLimit, RetryAfter: "120"})
	release()
	<-waiting
	p := b.Get("/sync/status")
	if got := p.Text("[data-testid=sync-waiting]"); !strings.Contains(got, "The marketplace asked to slow down; the next page is read at") {
		t.Errorf("waiting %q in %q", got, p.Text("[data-testid=sync-status]"))
	}
	if _, ok := p.Doc.Find("[data-testid=sync-status]").Attr("hx-get"); !ok {
		t.Error("the running sync's status does not reload itself")
	}
	close(proceed)
	copyDone(t, app, 1)
	if p := b.Get("/sync/status"); p.Has("[data-testid=sync-waiting]") {
		t.Errorf("still waiting after the sync: %q", p.Text("[data-testid=sync-status]"))
	}
}

// TestSyncRefreshForgetRevoke: "refresh now" reads everything again;
// "forget" deletes the copy at once; a revoked copy (the marketplace
// answered 403) is not served until the next login.
func TestSyncRefreshForgetRevoke(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	ctx := context.Background()
	cs := app.Catalog.Store()

	refreshed := time.Now()
	p := b.Post("/sync/refresh", nil)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("refresh: %d", p.Status)
	}
	copyDoneSince(t, app, refreshed)

	if err := cs.Revoke(ctx, copyKey1001); err != nil {
		t.Fatal(err)
	}
	if p := b.Get("/"); p.Status != http.StatusForbidden || strings.Contains(p.Body, "data-testid=\"counts-nomenclature\"") {
		t.Errorf("revoked copy: %d", p.Status)
	}
	b.LoginDemo()
	if p := b.Get("/"); p.Status != http.StatusOK {
		t.Errorf("after a new login: %d", p.Status)
	}
	// Whatever pass the login started (or none) is over.
	copyDone(t, app, 2)

	p = b.Post("/sync/forget", nil)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("forget: %d", p.Status)
	}
	if n, err := cs.CountNomenclature(ctx, copyKey1001, copystore.Query{}); err != nil || n != 0 {
		t.Errorf("%d records after forget (%v)", n, err)
	}
	if st, _ := cs.SyncStates(ctx, copyKey1001); len(st) != 0 {
		t.Errorf("sync state after forget: %v", st)
	}
}

// TestNomenclatureFromCopy: before the first full copy the list reads the
// marketplace; once it exists, q, sort and filters in the URL select from
// the copy (Cyrillic prefix search included), the links keep them, and no
// marketplace call is made.
func TestNomenclatureFromCopy(t *testing.T) {
	t.Parallel()
	app, b, release := beforeFullCopy(t, 200)
	defer release()
	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCList]
	p := b.Get("/nomenclature?q=" + url.QueryEscape("крос"))
	if p.Status != http.StatusOK || !p.Has("[data-testid=copy-live]") || p.Doc.Find("#nomenclature-table tbody tr").Length() != 50 {
		t.Fatalf("before the copy: %d, live note %v, %d rows", p.Status, p.Has("[data-testid=copy-live]"), p.Doc.Find("#nomenclature-table tbody tr").Length())
	}
	if got := app.Sandbox.Counters().Requests[sandbox.RouteRPCList] - before; got != 1 {
		t.Errorf("the list made %d live reads before the copy existed, want 1", got)
	}
	release()
	copyDone(t, app, 1)

	want := map[string]bool{}
	for _, pr := range app.Sandbox.Products(1001) {
		if strings.Contains(strings.ToLower(pr.Name), "кроссовки") {
			want[pr.MarketplaceSKU] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("no Кроссовки in the fixtures")
	}
	before = app.Sandbox.Counters().Requests[sandbox.RouteRPCList]
	p = b.Get("/nomenclature?q=" + url.QueryEscape("КРОС") + "&sort=-price&limit=20")
	if got := app.Sandbox.Counters().Requests[sandbox.RouteRPCList] - before; got != 0 {
		t.Errorf("the list from the copy made %d marketplace calls", got)
	}
	rows := p.Doc.Find("#nomenclature-table tbody tr")
	if p.Status != http.StatusOK || rows.Length() != min(20, 3*len(want)) || p.Has("[data-testid=copy-live]") {
		t.Fatalf("search: %d, %d rows, want %d", p.Status, rows.Length(), min(20, 3*len(want)))
	}
	last := int64(1 << 62)
	rows.Each(func(_ int, r *goquery.Selection) {
		text := r.Text()
		found := false
		for sku := range want {
			found = found || strings.Contains(text, sku)
		}
		if !found {
			t.Errorf("row without Кроссовки: %q", strings.Join(strings.Fields(text), " ")[:80])
		}
		cell := r.Find("td.num").First()
		price := moneyCell(t, strings.TrimSuffix(cell.Text(), cell.Find("div").Text()))
		if price > last {
			t.Errorf("price %d after %d: not sorted descending", price, last)
		}
		last = price
	})
	if v, _ := p.Doc.Find("#copy-q").Attr("value"); v != "КРОС" {
		t.Errorf("search box %q", v)
	}
	if href, _ := p.Doc.Find(".pager a").First().Attr("href"); !strings.Contains(href, "q=%D0%9A%D0%A0%D0%9E%D0%A1") || !strings.Contains(href, "sort=-price") {
		t.Errorf("pager link %q loses the search", href)
	}
	if action, _ := p.Doc.Find("#nomenclature-form").Attr("action"); !strings.Contains(action, "sort=-price") {
		t.Errorf("form action %q loses the sort", action)
	}

	// The overview's links: rejected records and zero stock.
	p = b.Get("/nomenclature?status=rejected&limit=1000")
	p.Doc.Find("#nomenclature-table tbody tr").Each(func(_ int, r *goquery.Selection) {
		if v, _ := r.Find("select option[selected]").Attr("value"); v != "rejected" {
			t.Errorf("status filter shows a %q row", v)
		}
	})
	if p.Doc.Find("#nomenclature-table tbody tr").Length() == 0 {
		t.Error("no rejected records")
	}
	p = b.Get("/nomenclature?stock=0&limit=1000")
	qty := p.Doc.Find("#nomenclature-table tbody tr input[name=qty]")
	qty.Each(func(_ int, in *goquery.Selection) {
		if v, _ := in.Attr("value"); v != "0" {
			t.Errorf("stock=0 shows quantity %q", v)
		}
	})
	if qty.Length() == 0 {
		t.Error("no records out of stock")
	}
}

// moneyCell reads "1 234,50 ₽"-like text as kopecks.
func moneyCell(t *testing.T, s string) int64 {
	t.Helper()
	var digits []byte
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits = append(digits, byte(r))
		}
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		t.Fatalf("money %q", s)
	}
	return n
}

// TestPriceChangePendingInCopy: a price accepted through the dashboard
// shows in the list from the copy at once, pending, and as confirmed after
// the next read.
func TestPriceChangePendingInCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	form := b.Get("/prices").FormValues("#prices-form")
	sku := form["sku"][2]
	newPrice := money(t, form["orig_price"][2]) + 12300
	for i := range form["sku"] {
		if i != 2 {
			form["price"][i], form["sale"][i] = form["orig_price"][i], form["orig_sale"][i]
		}
	}
	form["price"][2], form["sale"][2] = newPrice.Decimal(), ""
	if res := b.Post("/prices", form); res.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d %q", res.Status, res.Text("[data-testid=summary]"))
	}
	recs, err := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Q: sku})
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records %v", len(recs), err)
	}
	for _, r := range recs {
		if r.Pending == nil || r.Pending.Price != int64(newPrice) {
			t.Errorf("not pending: %+v", r)
		}
	}
	p := b.Get("/nomenclature?q=" + url.QueryEscape(sku))
	if got := p.Doc.Find("#nomenclature-table tbody tr").Length(); got != 3 {
		t.Fatalf("%d rows for %s", got, sku)
	}
	p.Doc.Find("#nomenclature-table tbody tr").Each(func(_ int, r *goquery.Selection) {
		cell := r.Find("td.num").First()
		if got := moneyCell(t, strings.TrimSuffix(cell.Text(), cell.Find("div").Text())); got != int64(newPrice) {
			t.Errorf("list shows %d, want the accepted %d", got, int64(newPrice))
		}
	})
	refreshed := time.Now()
	b.Post("/sync/refresh", nil)
	copyDoneSince(t, app, refreshed)
	recs, _ = app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Q: sku})
	for _, r := range recs {
		if r.Pending != nil || r.Price != int64(newPrice) {
			t.Errorf("not confirmed after the next read: %+v", r)
		}
	}
}

// TestOrdersFromCopy: the orders list from the copy searches order
// numbers by prefix in any case, keeps the status filter, sorts by sum and
// bounds the creation date, all in the URL.
func TestOrdersFromCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	nrs := app.Sandbox.OrderNumbers(1001, "")
	nr := nrs[5]
	before := totalRequests(app.Sandbox.Counters())
	p := b.Get("/orders?q=" + url.QueryEscape(strings.ToLower(nr[:len(nr)-1])))
	if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
		t.Errorf("the orders list from the copy made %d marketplace calls", got)
	}
	if rows := p.Doc.Find("#orders-table tbody tr"); rows.Length() < 1 || !strings.Contains(rows.Text(), nr) {
		t.Errorf("search %q: %d rows without %s", nr[:len(nr)-1], rows.Length(), nr)
	}
	newOnes := app.Sandbox.OrderNumbers(1001, "new")
	p = b.Get("/orders?status=new&sort=-sum&limit=100")
	rows := p.Doc.Find("#orders-table tbody tr")
	if rows.Length() != len(newOnes) {
		t.Errorf("%d new orders, want %d", rows.Length(), len(newOnes))
	}
	last := int64(1 << 62)
	rows.Each(func(_ int, r *goquery.Selection) {
		sum := moneyCell(t, r.Find("td.num").Eq(1).Text())
		if sum > last {
			t.Errorf("sum %d after %d: not sorted descending", sum, last)
		}
		last = sum
	})
	if v, _ := p.Doc.Find("[data-testid=copy-search] input[name=status]").Attr("value"); v != "new" {
		t.Errorf("the search form drops the status filter (%q)", v)
	}
	if href, _ := p.Doc.Find(".pager a").First().Attr("href"); p.Has(".pager a") && !strings.Contains(href, "sort=-sum") {
		t.Errorf("pager %q loses the sort", href)
	}
	from, to := app.Sandbox.Now().AddDate(0, 0, -20).Format(time.DateOnly), app.Sandbox.Now().AddDate(0, 0, -10).Format(time.DateOnly)
	p = b.Get("/orders?from=" + from + "&to=" + to + "&limit=100")
	lastDay := app.Sandbox.Now().AddDate(0, 0, -9).Format(time.DateOnly)
	in := p.Doc.Find("#orders-table tbody tr")
	if in.Length() == 0 || in.Length() >= 100 {
		t.Errorf("%d orders created from %s to %s", in.Length(), from, to)
	}
	in.Each(func(_ int, r *goquery.Selection) {
		// "Oct 21, 2026 12:08 MSK": the day in the configured zone, which
		// may be the day after the filter's UTC day.
		created := strings.Fields(r.Find("td").Eq(3).Text())
		day := ""
		if len(created) >= 3 {
			if d, err := time.Parse("Jan 2, 2006", strings.Join(created[:3], " ")); err == nil {
				day = d.Format(time.DateOnly)
			}
		}
		if day == "" || day < from || day > lastDay {
			t.Errorf("a row created %v, outside %s to %s", created, from, to)
		}
	})
}

// TestBoxesFromCopy: return boxes from the copy: box-code search in any
// case, the status filter and a sort, in the URL.
func TestBoxesFromCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	code := app.Sandbox.ReturnBoxCodes(1001)[7]
	before := totalRequests(app.Sandbox.Counters())
	p := b.Get("/return-boxes?q=" + url.QueryEscape(strings.ToLower(code)))
	if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
		t.Errorf("the boxes list from the copy made %d marketplace calls", got)
	}
	if rows := p.Doc.Find("#copy-results tbody tr"); rows.Length() != 1 || !strings.Contains(rows.Text(), code) {
		t.Errorf("search %q: %d rows", code, rows.Length())
	}
	p = b.Get("/return-boxes?status=loading&sort=-items&limit=100")
	rows := p.Doc.Find("#copy-results tbody tr")
	if rows.Length() == 0 {
		t.Fatal("no loading boxes")
	}
	rows.Each(func(_ int, r *goquery.Selection) {
		if !strings.Contains(strings.ToLower(r.Text()), "loading") {
			t.Errorf("a box not loading: %q", strings.Join(strings.Fields(r.Text()), " "))
		}
	})
}

// TestExportAllFromCopy: the whole filtered catalogue, not the page on
// screen, as CSV and XLSX; the toolbar links to it with the filters.
func TestExportAllFromCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 200}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	want := 0
	for _, pr := range app.Sandbox.Products(1001) {
		if strings.Contains(strings.ToLower(pr.Name), "кроссовки") {
			want += 3
		}
	}
	p := b.Get("/nomenclature?q=" + url.QueryEscape("крос") + "&sort=-price")
	href, _ := p.Doc.Find("[data-testid=copy-export] a").First().Attr("href")
	if !strings.HasPrefix(href, b.InAccount("/nomenclature/export-all.csv?")) || !strings.Contains(href, "sort=-price") || !strings.Contains(href, "q=") {
		t.Fatalf("export link %q", href)
	}
	csv := b.Get(href)
	lines := strings.Split(strings.TrimSpace(csv.Body), "\r\n")
	if csv.Status != http.StatusOK || len(lines) != want+1 || want <= 50 {
		t.Fatalf("csv: %d, %d lines, want %d records (more than a page) and the header", csv.Status, len(lines), want)
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, "Кроссовки") {
			t.Errorf("csv row without Кроссовки: %q", l)
		}
	}
	// The prices page offers the same export of what it lists.
	pp := b.Get("/prices?q=" + url.QueryEscape("крос") + "&sort=-price")
	if got, _ := pp.Doc.Find("[data-testid=copy-export] a").First().Attr("href"); got != href {
		t.Errorf("the prices page exports %q, want the nomenclature's %q", got, href)
	}
	all := b.Get("/nomenclature/export-all.csv")
	if n := strings.Count(all.Body, "\r\n"); n != 601 {
		t.Errorf("unfiltered export: %d lines, want 600 records and the header", n)
	}
	x := b.Get("/nomenclature/export-all.xlsx?stock=0")
	f, err := excelize.OpenReader(strings.NewReader(x.Body))
	if err != nil {
		t.Fatalf("xlsx: %d %v", x.Status, err)
	}
	rows, err := f.GetRows("Nomenclature")
	if err != nil || len(rows) < 2 {
		t.Fatalf("xlsx rows: %d %v", len(rows), err)
	}
	for _, r := range rows[1:] {
		if r[8] != "0" {
			t.Errorf("stock=0 export has quantity %q", r[8])
		}
	}
}

// TestForbiddenRevokesCopy: a 403 from the marketplace on any page of a
// logged-in session cuts its access to the copy at once.
func TestForbiddenRevokesCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true,
		TestHook: func(echo.Context) error { return fmt.Errorf("list: %w", apiclient.ErrForbidden) }})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	if p := b.Get("/"); p.Status != http.StatusOK {
		t.Fatalf("overview: %d", p.Status)
	}
	b.Get("/_test/hook")
	if p := b.Get("/"); p.Status != http.StatusForbidden {
		t.Errorf("overview after a 403: %d, want 403", p.Status)
	}
	if p := b.Get("/nomenclature?q=a"); p.Status != http.StatusForbidden {
		t.Errorf("list after a 403: %d, want 403", p.Status)
	}
	if p := b.Get("/prices?q=a"); p.Status != http.StatusForbidden || strings.Contains(p.Body, "prices-table") {
		t.Errorf("prices after a 403: %d, want 403", p.Status)
	}
}

// loggedOut reports whether p sent its session to the login page.
func loggedOut(p *testapp.Page) bool {
	return p.Status == http.StatusSeeOther && p.Location == "/login"
}

// TestUnauthorizedEndsEverySession: once the marketplace revokes a client,
// "refresh now" cannot renew its token: no pass begins (the copy's states
// stay as the last pass left them), the secret is marked rejected, and the
// access of every session holding it ends at once; their page views send
// nothing more to the marketplace.
func TestUnauthorizedEndsEverySession(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b1, b2 := app.Browser(t), app.Browser(t)
	b1.LoginDemo()
	b2.LoginDemo()
	copyDone(t, app, 1)
	if p := b2.Get("/nomenclature?q=a"); p.Status != http.StatusOK {
		t.Fatalf("before the revocation: %d", p.Status)
	}
	app.Sandbox.RevokeCredentials("demo-1001")
	b1.Post("/sync/refresh", nil)
	demo := copystore.CredentialOf("demo-1001", "test", "sandbox-secret-1001")
	waitUntil(t, "the credentials marked rejected", func() bool {
		rejected, err := app.Catalog.Store().CredentialRejected(context.Background(), demo)
		if err != nil {
			t.Fatal(err)
		}
		return rejected && !app.Catalog.Running(copyKey1001)
	})
	st, _ := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
	for _, kind := range copystore.Kinds {
		if got := st[kind]; got.Gen != 1 || got.Running || got.Stopped() {
			t.Errorf("%s after a refresh that could not renew its token: %+v, want the last pass as it was", kind, got)
		}
	}
	before := totalRequests(app.Sandbox.Counters())
	for _, path := range []string{"/nomenclature?q=a", "/", "/nomenclature/export-all.csv", "/orders", "/sync/status"} {
		for _, b := range []*testapp.Browser{b1, b2} {
			if p := b.Get(path); !loggedOut(p) {
				t.Errorf("%s with rejected credentials: %d %q, want the login page", path, p.Status, p.Location)
			}
		}
	}
	if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
		t.Errorf("page views with rejected credentials sent %d requests to the marketplace", got)
	}
}

// TestCopyNeedsWorkingToken: the copy is served only while the session's
// credentials are known to work: once its tokens expire, a page of the
// copy obtains new ones first, and rejected credentials end the session
// instead of showing the copy.
func TestCopyNeedsWorkingToken(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	app.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute)
	if p := b.Get("/nomenclature?q=a"); p.Status != http.StatusOK {
		t.Fatalf("with working credentials and expired tokens: %d", p.Status)
	}
	app.Sandbox.RevokeCredentials("demo-1001")
	app.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute)
	for _, path := range []string{"/nomenclature?q=a", "/"} {
		if p := b.Get(path); !loggedOut(p) {
			t.Errorf("%s after the credentials were revoked and the tokens expired: %d, want the login page", path, p.Status)
		}
	}
}

// TestItemForbiddenKeepsAccount: a resend of an order the seller does not
// own is refused beside that order; the account, its copy and every
// colleague's session go on.
func TestItemForbiddenKeepsAccount(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true})
	b1, b2 := app.Browser(t), app.Browser(t)
	b1.LoginDemo()
	b2.LoginDemo()
	copyDone(t, app, 1)
	nr := app.Sandbox.OrderNumbers(1002, "")[0]
	b1.HTMX = true
	p := b1.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "orderNr": {nr}, "return": {"/orders"}})
	if p.Status != http.StatusForbidden || !strings.Contains(p.Body, "not this seller") {
		t.Errorf("resend of another seller's order: %d %q", p.Status, strings.Join(strings.Fields(p.Doc.Text()), " "))
	}
	b1.HTMX = false
	for _, b := range []*testapp.Browser{b1, b2} {
		if p := b.Get("/"); p.Status != http.StatusOK {
			t.Errorf("overview after one order's 403: %d", p.Status)
		}
		if p := b.Get("/nomenclature?q=a"); p.Status != http.StatusOK {
			t.Errorf("list after one order's 403: %d", p.Status)
		}
	}
}

// TestForgetSticks: a forget while a pass runs ends it; nothing it read
// comes back (records, orders, boxes), forget's redirect to the overview
// starts no copy, and "refresh now" copies again.
func TestForgetSticks(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 200}, Catalog: true})
	release := app.Sandbox.HoldAfter(sandbox.RouteRPCList, 2) // the login's check and page 1
	defer release()
	b := app.Browser(t)
	b.LoginDemo()
	waitUntil(t, "the sync held at page 2", func() bool { return app.Sandbox.Held(sandbox.RouteRPCList) == 1 })
	p := b.Post("/sync/forget", nil)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("forget: %d", p.Status)
	}
	release()
	waitUntil(t, "the pass ended", func() bool { return !app.Catalog.Running(copyKey1001) })
	ctx := context.Background()
	cs := app.Catalog.Store()
	empty := func(when string) {
		t.Helper()
		n, err1 := cs.CountNomenclature(ctx, copyKey1001, copystore.Query{})
		o, err2 := cs.CountOrders(ctx, copyKey1001, copystore.Query{})
		x, err3 := cs.CountBoxes(ctx, copyKey1001, copystore.Query{})
		if n+o+x != 0 {
			t.Errorf("%s: %d records, %d orders, %d boxes (%v %v %v)", when, n, o, x, err1, err2, err3)
		}
		if st, _ := cs.SyncStates(ctx, copyKey1001); len(st) != 0 {
			t.Errorf("%s: sync state %+v", when, st)
		}
	}
	empty("after forget")
	before := app.Sandbox.Counters().Requests
	if p := b.Get(p.Location); p.Status != http.StatusOK || !strings.Contains(p.Body, "not copied again") {
		t.Errorf("forget's redirect: %d", p.Status)
	}
	waitUntil(t, "no sync", func() bool { return !app.Catalog.Running(copyKey1001) })
	after := app.Sandbox.Counters().Requests
	for _, r := range []string{sandbox.RouteRPCList, sandbox.RouteReturnBoxes} {
		if after[r] != before[r] {
			t.Errorf("forget's redirect read %s again (%d requests)", r, after[r]-before[r])
		}
	}
	empty("after forget's redirect")

	since := time.Now()
	b.Post("/sync/refresh", nil)
	copyDoneSince(t, app, since)
	if n, err := cs.CountNomenclature(ctx, copyKey1001, copystore.Query{}); err != nil || n != 600 {
		t.Errorf("after refresh now: %d records (%v)", n, err)
	}
}

// watchedLock is the sync's lock, telling waiting when someone asks for
// it while it is held.
type watchedLock struct {
	copystore.Locker
	held    atomic.Int32
	waiting chan struct{}
}

func (w *watchedLock) LockSeller(ctx context.Context, seller int64) (func(), error) {
	if w.held.Load() > 0 {
		select {
		case w.waiting <- struct{}{}:
		default:
		}
	}
	unlock, err := w.Locker.LockSeller(ctx, seller)
	if err != nil {
		return nil, err
	}
	w.held.Add(1)
	var once sync.Once
	return func() { once.Do(func() { w.held.Add(-1); unlock() }) }, nil
}

// TestLiveReadWaitsForSync: before the first full copy, a list read live
// waits for the sync's request of the same seller to end: never two in
// flight at once.
func TestLiveReadWaitsForSync(t *testing.T) {
	t.Parallel()
	lock := &watchedLock{waiting: make(chan struct{}, 1)}
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 200}, Catalog: true,
		CatalogSync: func(y *copystore.Syncer) { lock.Locker = y.Lock; y.Lock = lock }})
	release := app.Sandbox.HoldAfter(sandbox.RouteRPCList, 2) // the login's check and page 1
	defer release()
	b := app.Browser(t)
	b.LoginDemo()
	waitUntil(t, "the sync held at page 2", func() bool { return app.Sandbox.Held(sandbox.RouteRPCList) == 1 })
	done := make(chan *testapp.Page, 1)
	go func() { done <- b.Get("/nomenclature") }()
	waitUntil(t, "the page waiting for the lock, or its request sent", func() bool {
		select {
		case <-lock.waiting:
			return true
		default:
			return app.Sandbox.Held(sandbox.RouteRPCList) > 1
		}
	})
	release()
	if p := <-done; p.Status != http.StatusOK || !p.Has("[data-testid=copy-live]") {
		t.Errorf("the live list: %d", p.Status)
	}
	if got := app.Sandbox.Counters().MaxInFlight[sandbox.RouteRPCList+"/1001"]; got != 1 {
		t.Errorf("%d nomenclature lists of the seller were in flight at once, want 1", got)
	}
}

// TestCopyListsIgnoreAnUnknownSort: a sort the list does not have (an old
// or edited link) shows the list from the copy in its default order, with
// no marketplace call, instead of an error.
func TestCopyListsIgnoreAnUnknownSort(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	for _, c := range []struct{ path, rows string }{
		{"/orders?sort=no-such-column", "#orders-table tbody tr"},
		{"/return-boxes?sort=no-such-column", "#boxes-table tbody tr"},
	} {
		before := totalRequests(app.Sandbox.Counters())
		p := b.Get(c.path)
		if p.Status != http.StatusOK || p.Doc.Find(c.rows).Length() == 0 {
			t.Errorf("%s: %d with %d rows, want the list in its default order", c.path, p.Status, p.Doc.Find(c.rows).Length())
		}
		if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
			t.Errorf("%s: %d marketplace calls", c.path, got)
		}
	}
}
