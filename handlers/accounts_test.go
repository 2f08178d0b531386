package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// addAccount adds an account to b's session and returns its id (b is on
// it afterwards).
func addAccount(t *testing.T, b *testapp.Browser, client, secret, seller, env string) string {
	t.Helper()
	p := b.Post(paths.Accounts, url.Values{"client_id": {client}, "client_secret": {secret}, "seller_id": {seller}, "environment": {env}})
	id, rest, ok := paths.Split(p.Location)
	if p.Status != http.StatusSeeOther || !ok || rest != paths.Overview {
		t.Fatalf("add %s/%s: %d to %q; error %q", client, env, p.Status, p.Location, p.Text("#login-error"))
	}
	return id
}

// A session holds three accounts (two sellers, a test environment); a
// price form rendered for one account and posted after another tab
// switched to a second changes the first only, and each account's history
// shows its own change.
func TestAccountsFormActsOnItsOwnAccount(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	a := b.Account
	bID := addAccount(t, b, "demo-1002", "sandbox-secret-1002", "1002", "production")
	c := addAccount(t, b, "test-1003", "sandbox-secret-1003", "1003", "test")
	if a == "" || a == bID || bID == c {
		t.Fatalf("account ids %q %q %q", a, bID, c)
	}
	b.Account = "" // paths as given from here

	// The header names the account and offers the two others, on the
	// same screen.
	onB := b.Get(paths.Of(bID, paths.Prices))
	if who := onB.Text("[data-testid=who]"); !strings.Contains(who, "1002") {
		t.Fatalf("header on B: %q", who)
	}
	var others []string
	onB.Doc.Find("[data-testid=switch-account]").Each(func(_ int, s *goquery.Selection) { others = append(others, s.AttrOr("href", "")) })
	if strings.Join(others, " ") != paths.Of(a, paths.Prices)+" "+paths.Of(c, paths.Prices) {
		t.Fatalf("switcher on B's prices: %q", others)
	}

	// Tab 1 renders A's prices; tab 2 switches to B afterwards.
	formA := b.Get(paths.Of(a, paths.Prices))
	action := formA.Doc.Find("#prices-form").AttrOr("action", "")
	if id, rest, ok := paths.Split(action); !ok || id != a || !strings.HasPrefix(rest, paths.Prices) {
		t.Fatalf("A's price form posts to %q", action)
	}
	values := formA.FormValues("#prices-form")
	sku := values["sku"][0]
	newPrice := money(t, values["orig_price"][0]) + 100
	values["price"][0], values["sale"][0] = newPrice.Decimal(), ""
	pricesOfB := b.Get(paths.Of(bID, paths.Prices)).FormValues("#prices-form")

	res := b.Post(action, values)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d %q", res.Status, res.Text("[data-testid=summary]"))
	}
	if got := b.Get(paths.Of(a, paths.Prices)).Doc.Find(rowSel(sku) + " [data-testid=current]").Text(); got != shownEN(newPrice) {
		t.Errorf("A's price of %s: %q, want %q", sku, got, shownEN(newPrice))
	}
	if after := b.Get(paths.Of(bID, paths.Prices)).FormValues("#prices-form"); strings.Join(after["orig_price"], ",") != strings.Join(pricesOfB["orig_price"], ",") {
		t.Errorf("B's prices changed: %v → %v", pricesOfB["orig_price"], after["orig_price"])
	}
	if h := b.Get(paths.Of(a, paths.History)); !strings.Contains(h.Text("main"), sku) {
		t.Errorf("A's history lacks the change of %s", sku)
	}
	if h := b.Get(paths.Of(bID, paths.History)); strings.Contains(h.Text("main"), sku) {
		t.Errorf("B's history shows A's change of %s", sku)
	}
}

// A form naming an account the session does not hold is refused before
// anything is sent.
func TestAccountsForgedSubmitRefused(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	values := b.Get(paths.Prices).FormValues("#prices-form")
	values["price"][0] = (money(t, values["orig_price"][0]) + 100).Decimal()
	other := app.Browser(t)
	other.Login("demo-1002", "sandbox-secret-1002", "1002", "production")

	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	for _, acct := range []string{other.Account, "000000000000"} {
		res := b.Post(paths.Of(acct, paths.Prices), values)
		if res.Status != http.StatusForbidden {
			t.Errorf("price form for account %s not in the session: %d, want 403", acct, res.Status)
		}
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 0 {
		t.Errorf("%d set-prices requests sent for a forged account", n)
	}
}

// Old paths lead to the current account's; a duplicate and a 21st account
// are refused; logout ends every account.
func TestAccountsAddRemoveAndLimits(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	first := b.Account
	b.Account = ""
	if p := b.Get("/orders?status=new"); p.Status != http.StatusFound || p.Location != paths.Of(first, "/orders?status=new") {
		t.Errorf("old path: %d to %q", p.Status, p.Location)
	}
	if p := b.Post(paths.Accounts, url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"test"}}); p.Status != http.StatusConflict || !strings.Contains(p.Text("#login-error"), "already in the session") {
		t.Errorf("duplicate: %d %q", p.Status, p.Text("#login-error"))
	}
	second := addAccount(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production") // the same client in production
	b.Account = ""
	if p := b.Get("/prices"); p.Location != paths.Of(second, paths.Prices) {
		t.Errorf("old path after adding: %q", p.Location)
	}
	// (The limit of sessions.MaxAccounts is sessions' TestAccounts: the
	// sandbox has too few clients to fill a session here.)
	// Removing an account drops it: its pages are refused.
	if p := b.Post(paths.AccountRemove(second), nil); p.Status != http.StatusSeeOther {
		t.Fatalf("remove: %d", p.Status)
	}
	if p := b.Get(paths.Of(second, paths.Orders)); p.Status != http.StatusForbidden {
		t.Errorf("removed account's page: %d, want 403", p.Status)
	}
	b.Account = ""
	b.Post(paths.Logout, nil)
	if p := b.Get(paths.Of(first, paths.Orders)); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, paths.Login) {
		t.Errorf("after logout: %d to %q", p.Status, p.Location)
	}
}

// Removing an account while its job runs stops the job at the next chunk,
// saying why; nothing more is sent.
func TestBulkJobStopsWhenItsAccountIsRemoved(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{ReadBackDelay: time.Hour})
	b := e.browser()
	jobAccount := b.Account
	var csv strings.Builder
	csv.WriteString("Warehouse;Barcode;Qty\n")
	_, data := download(t, e, b, "/nomenclature/export.csv?limit=100")
	tab, err := bulkjobs.ReadTable(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows[:60] {
		q, _ := strconv.Atoi(row[8])
		fmt.Fprintf(&csv, "%s;%s;%d\n", row[0], row[1], q+1)
	}
	id := jobIDOf(t, upload(t, e, b, "stock.csv", []byte(csv.String()), ""))
	e.sb.SetLatency(sandbox.RouteRPCStore, 80*time.Millisecond)
	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}})
	waitJob(t, e, id, "a chunk", func(j bulkjobs.Job) bool { return j.NextChunk >= 1 })
	addAccount(t, b, "demo-1002", "sandbox-secret-1002", "1002", "production")
	if p := b.Post(paths.AccountRemove(jobAccount), nil); p.Status != http.StatusSeeOther {
		t.Fatalf("remove: %d", p.Status)
	}
	j := waitJob(t, e, id, "stop", func(j bulkjobs.Job) bool { return !j.Active() })
	if j.State != bulkjobs.StateStopped || j.Counts.Unsent == 0 || j.Counts.Accepted == 0 {
		t.Fatalf("after removal: %s %+v", j.State, j.Counts)
	}
	if why := format.MessageIn(format.Locale{Lang: i18n.EN}, j.StopReason); !strings.Contains(why, "account was removed") {
		t.Errorf("stop reason %q", why)
	}
	sent := e.sb.Counters().Requests[sandbox.RouteRPCStore]
	items, _ := e.jobs.Items(context.Background(), id)
	for _, it := range items {
		if it.State == bulkjobs.ItemQueued {
			t.Errorf("a row still queued after the stop: %+v", it.State)
		}
	}
	if n := e.sb.Counters().Requests[sandbox.RouteRPCStore]; n != sent {
		t.Errorf("%d stock requests after the stop", n-sent)
	}
}

// The overview of a session holding several accounts leads with a line per
// account, from the local copies, each count linking to that account's
// filtered list.
func TestAccountsOverviewLines(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	first := b.Account
	if p := b.Get(paths.Overview); p.Has("[data-testid=all-accounts]") {
		t.Error("a session with one account shows the lines of all accounts")
	}
	// One copy at a time: the database has one writer.
	copyComplete(t, app, copyKey1001)
	second := addAccount(t, b, "demo-1002", "sandbox-secret-1002", "1002", "production")
	copyComplete(t, app, copystore.Key{SellerID: 1002, Env: "production"})
	b.Account = ""
	p := b.Get(paths.Of(first, paths.Overview))
	lines := p.Doc.Find("[data-testid=account-line]")
	if lines.Length() != 2 {
		t.Fatalf("%d account lines, want 2 (status %d: %q)", lines.Length(), p.Status, p.Text("main"))
	}
	for i, id := range []string{first, second} {
		want := paths.Filtered(paths.Of(id, paths.Orders), "status", "new")
		if !lines.Eq(i).Find("a[href='" + want + "']").Is("a") {
			t.Errorf("line %d lacks the link %s: %s", i, want, lines.Eq(i).Text())
		}
	}
}

// The refusal of an account not in the session says why, in the reader's
// language, and leads to the accounts page.
func TestAccountsRefusalExplained(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	b.Account = ""
	p := b.Get(paths.Of("000000000000", paths.Orders))
	if p.Status != http.StatusForbidden || !strings.Contains(p.Text("main"), "not in your session") || !p.Has(`main a[href="`+paths.Accounts+`"]`) {
		t.Errorf("refusal: %d %q", p.Status, p.Text("main"))
	}
}
