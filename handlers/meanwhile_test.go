package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// sandboxPrice is the price the sandbox holds for sku of seller 1001.
func sandboxPrice(t *testing.T, app *testapp.App, sku string) int64 {
	t.Helper()
	for _, p := range app.Sandbox.Products(1001) {
		if p.MarketplaceSKU == sku {
			return p.Price
		}
	}
	t.Fatalf("%s: not in the sandbox", sku)
	return 0
}

// TestOlderFileAfterJobIsChangedMeanwhile: a price job accepted, then a
// file exported before it imported: its row of the job's product asks
// for the price the job replaced, and is changed meanwhile (the preview
// says so, with the price now and in the file); sent with "confirm all"
// it is held and nothing of it reaches the marketplace, while the file's
// other row goes; imported again and confirmed on its own, it is sent
// (a deliberate revert).
func TestOlderFileAfterJobIsChangedMeanwhile(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	var plain []sandbox.Product // products without a sale
	for _, p := range app.Sandbox.Products(1001) {
		if p.SalePrice == 0 || p.SalePrice >= p.Price {
			plain = append(plain, p)
		}
	}
	if len(plain) < 2 {
		t.Fatalf("%d products without a sale", len(plain))
	}
	job, other := plain[0], plain[1]
	jobPrice, otherPrice := job.Price*11/10, other.Price*11/10

	// The file, as exported before the job: both products at their
	// prices then; one row edited.
	older := fmt.Sprintf("Marketplace SKU;Price;Sale price\n%s;%s;%s\n%s;%s;%s\n",
		job.MarketplaceSKU, moneyIn(job.Price), moneyIn(job.Price), other.MarketplaceSKU, moneyIn(otherPrice), moneyIn(otherPrice))

	id := importFile(t, app, b, fmt.Sprintf("Marketplace SKU;Price;Sale price\n%s;%s;\n", job.MarketplaceSKU, moneyIn(jobPrice)), "prices")
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit the job: %d", p.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 {
		t.Fatalf("the job %s %+v; want its row accepted", j.State, j.Counts)
	}

	id = importFile(t, app, b, older, "prices")
	items, err := app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 2 {
		t.Fatalf("preview: %d items, %v", len(items), err)
	}
	if it := items[0]; !massupdate.ChangedMeanwhile(it) || it.Flag != bulkjobs.FlagGuard {
		t.Errorf("the job's product in the older file: flag %s %v, want changed meanwhile", it.Flag, it.Message)
	}
	if it := items[1]; massupdate.ChangedMeanwhile(it) || it.Flag != bulkjobs.FlagOK {
		t.Errorf("the other product: flag %s %v, want ok", it.Flag, it.Message)
	}
	page := b.Get("/bulk/jobs/" + id)
	if n := page.Doc.Find("[data-testid=meanwhile]").Length(); n != 1 {
		t.Errorf("%d rows marked changed meanwhile on the preview, want 1", n)
	}
	if got := page.Text("[data-testid=count-meanwhile]"); got == "" {
		t.Error("the preview does not count the rows changed meanwhile")
	}
	if page.Has("#confirm-all") {
		t.Error(`"confirm all" is offered though no row but the one changed meanwhile is guarded`)
	}
	// The message names the price now and the price in the file
	// (compared by their digits: the grid writes amounts its own way).
	msg := page.Text("tr:has([data-testid=meanwhile])")
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	_, after, _ := strings.Cut(msg, "now")
	for _, want := range []int64{jobPrice, job.Price} {
		if !strings.Contains(digits(after), strconv.FormatInt(want, 10)) {
			t.Errorf("the row's message %q does not name %s", msg, moneyIn(want))
		}
	}

	// "Confirm all" does not send it.
	app.Sandbox.ResetCounters()
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit the older file: %d", p.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 || j.Counts.Held != 1 {
		t.Errorf("the older file's job %s %+v; want one accepted, one held", j.State, j.Counts)
	}
	items, _ = app.JobStore.Items(context.Background(), id)
	if it := items[0]; it.State != bulkjobs.ItemHeld || !slices.Contains(msgKeysOf(it.Message), "jobs.held_meanwhile") ||
		!slices.Contains(msgKeysOf(it.Message), "mass.changed_meanwhile") {
		t.Errorf("the row changed meanwhile: %s %v, want held saying why", it.State, msgKeysOf(it.Message))
	}
	if got := b.Get("/bulk/jobs/" + id).Text("tr[data-state=held]"); !strings.Contains(got, "not confirmed") || !strings.Contains(got, "changed after the file was exported") {
		t.Errorf("the held row reads %q; want not confirmed, changed after the file was exported", got)
	}
	if got := sandboxPrice(t, app, job.MarketplaceSKU); got != jobPrice {
		t.Errorf("the marketplace holds %d for the job's product, want the job's %d", got, jobPrice)
	}
	if got := sandboxPrice(t, app, other.MarketplaceSKU); got != otherPrice {
		t.Errorf("the marketplace holds %d for the other product, want the file's %d", got, otherPrice)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 1 {
		t.Errorf("%d set-prices requests, want 1", n)
	}

	// Confirmed on its own, it is sent.
	id = importFile(t, app, b, older, "prices")
	items, _ = app.JobStore.Items(context.Background(), id)
	if !massupdate.ChangedMeanwhile(items[0]) {
		t.Fatalf("imported again: %s %v, want changed meanwhile still", items[0].Flag, items[0].Message)
	}
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm": {strconv.Itoa(items[0].Seq)}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit confirmed: %d", p.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 {
		t.Errorf("the confirmed revert %s %+v; want it accepted", j.State, j.Counts)
	}
	if got := sandboxPrice(t, app, job.MarketplaceSKU); got != job.Price {
		t.Errorf("the marketplace holds %d, want the confirmed revert to %d", got, job.Price)
	}
}

// TestOlderStockFileAfterJobIsChangedMeanwhile: a stock job accepted,
// then a stock file exported before it imported: its row asks for the
// quantity the job replaced, and is changed meanwhile; sent with "confirm
// all" it is held, and no stock write reaches the marketplace.
func TestOlderStockFileAfterJobIsChangedMeanwhile(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	p := app.Sandbox.Products(1001)[4]
	wh := p.Warehouses[0]
	was := copyRecord(t, app, copyKey1001, wh, p.Barcode).Quantity
	now := was + 7

	id := importFile(t, app, b, fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;%d\n", wh, p.Barcode, now), "stock")
	if r := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); r.Status != http.StatusSeeOther {
		t.Fatalf("submit the job: %d", r.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 {
		t.Fatalf("the job %s %+v; want its row accepted", j.State, j.Counts)
	}

	id = importFile(t, app, b, fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;%d\n", wh, p.Barcode, was), "stock")
	items, err := app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 1 {
		t.Fatalf("preview: %d items, %v", len(items), err)
	}
	if !massupdate.ChangedMeanwhile(items[0]) {
		t.Fatalf("the older stock row: flag %s %v, want changed meanwhile", items[0].Flag, items[0].Message)
	}
	app.Sandbox.ResetCounters()
	if r := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("submit the older file: %d", r.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Held != 1 {
		t.Errorf("the older file's job %s %+v; want its row held", j.State, j.Counts)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]; n != 0 {
		t.Errorf("%d stock writes reached the marketplace", n)
	}
	if r := copyRecord(t, app, copyKey1001, wh, p.Barcode); r.Quantity != now {
		t.Errorf("the copy holds %d, want the job's %d", r.Quantity, now)
	}
}
