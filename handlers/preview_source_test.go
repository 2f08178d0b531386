package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// importFile posts a file to the import form of app and returns the job
// it previewed.
func importFile(t *testing.T, app *testapp.App, b *testapp.Browser, data string, kind string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", kind)
	fw, _ := mw.CreateFormFile("file", "prices.csv")
	fw.Write([]byte(data))
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, app.URL+b.InAccount("/bulk/import"), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", app.URL)
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return jobIDOf(t, resp)
}

// jobDone waits until the job of app is no longer active.
func jobDone(t *testing.T, app *testapp.App, id string) bulkjobs.Job {
	t.Helper()
	var j bulkjobs.Job
	waitUntil(t, "job "+id+" done", func() bool {
		var err error
		if j, err = app.JobStore.Job(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		return !j.Active()
	})
	return j
}

// listCalls counts the list calls made since the counters were reset.
func listCalls(sb *sandbox.Sandbox) int { return sb.Counters().Requests[sandbox.RouteRPCList] }

// TestPreviewsReadTheCopy: with a full copy of the seller, an upload, a
// submit, a retry and a revise read the current values from the copy:
// not one list call.
func TestPreviewsReadTheCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 300}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	ps := app.Sandbox.Products(1001)
	up, drop := ps[len(ps)-1], ps[len(ps)-2] // on the last page of the list
	app.Sandbox.ResetCounters()

	// A rise, and a 95 % drop the marketplace refuses (confirmed on its
	// own, so that the job has a row to retry).
	csv := fmt.Sprintf("Marketplace SKU;Price;Sale price\n%s;%s;\n%s;%s;%s\n", up.MarketplaceSKU, moneyIn(up.Price*11/10),
		drop.MarketplaceSKU, moneyIn(drop.Price*5/100), moneyIn(drop.Price*5/100))
	id := importFile(t, app, b, csv, "prices")
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the upload made %d list calls", n)
	}
	items, err := app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 2 || items[0].Flag != bulkjobs.FlagOK || items[1].Flag != bulkjobs.FlagGuard {
		t.Fatalf("preview items %+v, %v; want one to send and one to confirm", items, err)
	}
	var was massupdate.PriceNow
	if err := json.Unmarshal([]byte(items[0].Current), &was); err != nil || was.Price != up.Price {
		t.Fatalf("current price %+v (%v), want %d from the copy", was, err, up.Price)
	}

	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}, "confirm": {"2"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the submit made %d list calls", n)
	}
	if j := jobDone(t, app, id); j.Counts.Rejected != 1 {
		t.Fatalf("job %s %+v; want the drop rejected", j.State, j.Counts)
	}

	p := b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, b.InAccount("/bulk/jobs/")) {
		t.Fatalf("retry: %d to %q", p.Status, p.Location)
	}
	retry := strings.TrimPrefix(p.Location, b.InAccount("/bulk/jobs/"))
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the retry made %d list calls", n)
	}
	ritems, err := app.JobStore.Items(context.Background(), retry)
	if err != nil || len(ritems) != 1 {
		t.Fatalf("retry items: %d, %v", len(ritems), err)
	}
	seq := strconv.Itoa(ritems[0].Seq)
	p = b.Post("/bulk/jobs/"+retry+"/revise", url.Values{"edit_" + seq + "_price": {moneyIn(drop.Price * 9 / 10)}, "edit_" + seq + "_sale": {""}})
	if p.Status != http.StatusSeeOther || p.Location == "/bulk/jobs/"+retry {
		t.Fatalf("revise: %d to %q", p.Status, p.Location)
	}
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the revise made %d list calls", n)
	}
	revised, err := app.JobStore.Items(context.Background(), strings.TrimPrefix(p.Location, b.InAccount("/bulk/jobs/")))
	if err != nil || len(revised) != 1 || revised[0].Flag != bulkjobs.FlagOK {
		t.Fatalf("revised items %+v, %v; want the row to send", revised, err)
	}

	// A stock file: its records found by warehouse and barcode.
	wh := up.Warehouses[len(up.Warehouses)-1]
	id = importFile(t, app, b, fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;7\n", wh, up.Barcode), "stock")
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the stock upload made %d list calls", n)
	}
	items, err = app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 1 || items[0].Flag == bulkjobs.FlagInvalid || items[0].Current == "" {
		t.Fatalf("stock preview items %+v, %v; want the record found", items, err)
	}
}

// TestCardPreviewReadsTheCopy (lamoda profile): a price file naming one
// size of a card is previewed from the copy, without a list call, and the
// card's item names every size of the card.
func TestCardPreviewReadsTheCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	c := multiSizeCards(t, app.Sandbox, 1)[0]
	app.Sandbox.ResetCounters()
	id := importFile(t, app, b, fmt.Sprintf("Marketplace SKU;Price\n%s;%s\n", c.sizes[1].MarketplaceSKU, moneyIn(c.sizes[1].Price*11/10)), "prices")
	if n := listCalls(app.Sandbox); n != 0 {
		t.Fatalf("the upload made %d list calls", n)
	}
	items, err := app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 1 {
		t.Fatalf("items %d, %v", len(items), err)
	}
	var cp massupdate.CardPrice
	if err := json.Unmarshal([]byte(items[0].Payload), &cp); err != nil || cp.Parent != c.parent {
		t.Fatalf("payload %q: card %q, %v; want %s", items[0].Payload, cp.Parent, err, c.parent)
	}
	var want []string
	for _, s := range c.sizes {
		want = append(want, s.MarketplaceSKU)
	}
	slices.Sort(want)
	if !slices.Equal(cp.Sizes, want) {
		t.Errorf("card sizes %v, want %v", cp.Sizes, want)
	}
}

// TestPreviewsLiveOneAtATime: before a copy exists previews read live,
// only as far as the list has to go to find the rows' products, and one
// request of the seller at a time: five submits at once never have two
// list calls in flight, and each reads one page.
func TestPreviewsLiveOneAtATime(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	ps := app.Sandbox.Products(1001) // the first products: on the first page
	app.Sandbox.ResetCounters()
	var ids []string
	for i := range 5 {
		ids = append(ids, importFile(t, app, b, fmt.Sprintf("Marketplace SKU;Price\n%s;%s\n", ps[i].MarketplaceSKU, moneyIn(ps[i].Price+100)), "prices"))
	}
	if n := listCalls(app.Sandbox); n != 5 {
		t.Errorf("five uploads made %d list calls, want one page each", n)
	}
	app.Sandbox.ResetCounters()
	app.Sandbox.SetLatency(sandbox.RouteRPCList, 20*time.Millisecond) // so that reads side by side overlap
	var wg sync.WaitGroup
	status := make([]int, len(ids))
	for i, id := range ids {
		wg.Go(func() { status[i] = b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}).Status })
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
	if n := c.Requests[sandbox.RouteRPCList]; n > len(ids) {
		t.Errorf("five submits made %d list calls, want at most one page each", n)
	}
}
