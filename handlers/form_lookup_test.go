package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// offPageStockForm is the nomenclature form of the first page of b, with
// the first row's quantity raised by one: posted to another page, every
// row of it is off that page.
func offPageStockForm(t *testing.T, b *testapp.Browser) url.Values {
	t.Helper()
	// Right after a forget the page is read live, behind the new copy's
	// first pass on the seller's lock: on a busy machine that read may
	// outlast the request's budget and the page show no rows yet. What
	// the tests here measure starts with the submit, so the page is asked
	// again until it has its rows.
	var form url.Values
	var res *testapp.Page
	for deadline := time.Now().Add(60 * time.Second); ; {
		res = b.Get("/nomenclature?limit=20")
		if form = res.FormValues("#nomenclature-form"); len(form["qty"]) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no rows on the nomenclature page after 60 s: %d %q", res.Status, res.Text("main"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	q, err := strconv.Atoi(form["orig_qty"][0])
	if err != nil {
		t.Fatalf("quantity %q", form["orig_qty"][0])
	}
	form["qty"][0] = strconv.Itoa(q + 1)
	return form
}

// TestStockFormOffPageReadsTheCopy (lamoda profile): a stock form whose
// row is not on the page it is posted to finds the row's seller SKU in
// the full copy: the only list call is the write's dry run, however many
// pages the catalogue has.
func TestStockFormOffPageReadsTheCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Sandbox: sandbox.Options{ProductsPerSeller: 1000}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	form := offPageStockForm(t, b)
	app.Sandbox.ResetCounters()
	res := b.Post("/nomenclature?limit=20&page=3", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d %q", res.Status, res.Text("[data-testid=summary]"))
	}
	c := app.Sandbox.Counters()
	if c.Requests[sandbox.RouteRPCUpdateStock] != 1 || c.Written[sandbox.WrittenStock] != 1 {
		t.Fatalf("calls %v, written %v; want the one row written", c.Requests, c.Written)
	}
	if n := c.Requests[sandbox.RouteRPCList]; n != 1 {
		t.Errorf("%d list calls, want 1 (the dry run): the row's record is in the copy", n)
	}
}

// TestStockFormOffPageLiveUnderLock (lamoda profile, no full copy: it was
// forgotten): the off-page row of a stock form is looked up live, one list
// call of the seller in flight at a time (the seller's lock), and only as
// far as the list has to go to find it: five submits at once never overlap
// two list calls, nor walk the catalogue.
func TestStockFormOffPageLiveUnderLock(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Sandbox: sandbox.Options{ProductsPerSeller: 1000}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	if p := b.Post("/sync/forget", nil); p.Status != http.StatusSeeOther {
		t.Fatalf("forget: %d", p.Status)
	}
	form := offPageStockForm(t, b)
	app.Sandbox.ResetCounters()
	app.Sandbox.SetLatency(sandbox.RouteRPCList, 20*time.Millisecond) // so that reads side by side overlap
	const submits = 5
	var wg sync.WaitGroup
	status := make([]int, submits)
	for i := range submits {
		wg.Go(func() { status[i] = b.Post("/nomenclature?limit=20&page=3", form).Status })
	}
	wg.Wait()
	for i, s := range status {
		if s != http.StatusSeeOther {
			t.Errorf("submit %d: %d", i, s)
		}
	}
	c := app.Sandbox.Counters()
	if n := c.MaxInFlight[sandbox.RouteRPCList+"/1001"]; n > 1 {
		t.Errorf("%d list calls of the seller in flight at once, want 1", n)
	}
	// Each submit: its page (3), the first page of the catalogue, where
	// the row is, and the write's dry run.
	if n := c.Requests[sandbox.RouteRPCList]; n > 3*submits {
		t.Errorf("five submits made %d list calls, want at most %d: the catalogue has 10 pages", n, 3*submits)
	}
}
