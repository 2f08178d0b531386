package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// multiSizeCards returns n cards with at least two sizes.
func multiSizeCards(t *testing.T, sb *sandbox.Sandbox, n int) []card {
	t.Helper()
	var out []card
	for _, c := range cardsOf(sb, 1001) {
		if len(c.sizes) >= 2 && len(out) < n {
			out = append(out, c)
		}
	}
	if len(out) < n {
		t.Fatalf("the sandbox has %d cards with several sizes, want %d", len(out), n)
	}
	return out
}

// TestBulkCardPriceImport (lamoda profile): the rows of one card's sizes
// collapse to one item for the card; rows that set different prices for a
// card are a preview error naming the rows; the job sends one item per
// card and every size gets the price.
func TestBulkCardPriceImport(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{Profile: sandbox.ProfileLamoda}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	cs := multiSizeCards(t, e.sb, 2)
	same, split := cs[0], cs[1]
	newSame := same.sizes[0].Price * 11 / 10
	before := map[string]int64{}
	for _, p := range e.sb.Products(1001) {
		before[p.MarketplaceSKU] = p.Price
	}
	var csv strings.Builder
	csv.WriteString("Marketplace SKU;Price\n")
	for _, s := range same.sizes[:2] { // rows 2 and 3
		fmt.Fprintf(&csv, "%s;%s\n", s.MarketplaceSKU, moneyIn(newSame))
	}
	fmt.Fprintf(&csv, "%s;%s\n", split.sizes[0].MarketplaceSKU, moneyIn(split.sizes[0].Price*11/10)) // row 4
	fmt.Fprintf(&csv, "%s;%s\n", split.sizes[1].MarketplaceSKU, moneyIn(split.sizes[0].Price*12/10)) // row 5
	id := jobIDOf(t, upload(t, e, b, "cards.csv", []byte(csv.String()), "prices"))
	preview := b.Get("/bulk/jobs/" + id)
	if preview.Status != http.StatusOK {
		t.Fatalf("preview: %d", preview.Status)
	}
	for tid, want := range map[string]string{"count-send": "1 to send", "count-unchanged": "1 unchanged", "count-invalid": "2 invalid"} {
		if got := preview.Text("[data-testid=" + tid + "]"); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q…", tid, got, want)
		}
	}
	for _, row := range []string{"4", "5"} {
		msg := preview.Text("[data-testid=row-" + row + "] [data-testid=message]")
		if !strings.Contains(msg, "Rows 4, 5") || !strings.Contains(msg, split.parent) {
			t.Errorf("row %s: message %q, want it to name rows 4, 5 and card %s", row, msg, split.parent)
		}
	}
	if msg := preview.Text("[data-testid=row-3] [data-testid=message]"); !strings.Contains(msg, "row 2") {
		t.Errorf("row 3: message %q, want it sent with row 2", msg)
	}
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	j := waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return j.State == bulkjobs.StateDone })
	if j.Counts.Accepted != 1 || j.Counts.Rejected != 0 {
		t.Errorf("counts %+v: want 1 accepted", j.Counts)
	}
	if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 1 {
		t.Errorf("%d set-prices calls, want 1", got)
	}
	for _, p := range e.sb.Products(1001) {
		if p.ParentSKU == same.parent && p.Price != newSame {
			t.Errorf("size %s of card %s: price %d, want %d", p.MarketplaceSKU, same.parent, p.Price, newSame)
		}
		if p.ParentSKU == split.parent && p.Price != before[p.MarketplaceSKU] {
			t.Errorf("size %s of the conflicting card changed: %d", p.MarketplaceSKU, p.Price)
		}
	}
}

// TestBulkStockImportByFilter (lamoda profile): a stock import runs as a
// job through the filtered writes, one update-stock per distinct quantity.
func TestBulkStockImportByFilter(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{Profile: sandbox.ProfileLamoda}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	wh := e.sb.Warehouses(1001)[0]
	prods := e.sb.Products(1001)
	// The warehouse cell is not read (the marketplace keeps none); two rows
	// get 7, one gets 9.
	csv := fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;7\n;%s;9\n%s;%s;7\n", wh, prods[0].Barcode, prods[1].Barcode, wh, prods[2].Barcode)
	id := jobIDOf(t, upload(t, e, b, "stock.csv", []byte(csv), "stock"))
	e.sb.ResetCounters()
	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}})
	j := waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return !j.Active() })
	if j.State != bulkjobs.StateDone || j.Counts.Accepted != 3 {
		t.Fatalf("job: %s %+v (%s)", j.State, j.Counts, j.StopReason)
	}
	c := e.sb.Counters()
	if c.Requests[sandbox.RouteRPCUpdateStock] != 2 || c.Requests[sandbox.RouteRPCStore] != 0 || c.Written[sandbox.WrittenStock] != 3 {
		t.Errorf("calls %v, written %v; want two update-stock (7 and 9), no store", c.Requests, c.Written)
	}
}

// TestBulkCardPriceRetry (lamoda profile): retrying a card job's rejected
// row previews it by card again, so the retry sends the card (rejected
// again here, as a job never sends force) instead of stopping on a row
// that is not a card.
func TestBulkCardPriceRetry(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{Profile: sandbox.ProfileLamoda}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	c := multiSizeCards(t, e.sb, 1)[0]
	drop := c.sizes[0].Price * 4 / 10 // more than half off: the price check holds it
	csv := fmt.Sprintf("Marketplace SKU;Price\n%s;%s\n", c.sizes[0].MarketplaceSKU, moneyIn(drop))
	id := jobIDOf(t, upload(t, e, b, "drop.csv", []byte(csv), "prices"))
	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}) // past the import's own guard
	j := waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return !j.Active() })
	if j.State != bulkjobs.StateDone || j.Counts.Rejected != 1 {
		t.Fatalf("first job: %s %+v; want done with the card rejected", j.State, j.Counts)
	}
	p := b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("retry: %d", p.Status)
	}
	retryID := strings.TrimPrefix(p.Location, b.InAccount("/bulk/jobs/"))
	items, err := e.jobs.Items(context.Background(), retryID)
	if err != nil || len(items) != 1 {
		t.Fatalf("retry items: %d, %v", len(items), err)
	}
	var cp massupdate.CardPrice
	if err := json.Unmarshal([]byte(items[0].Payload), &cp); err != nil || cp.Parent != c.parent {
		t.Fatalf("retry payload %q: card %q, %v; want card %s", items[0].Payload, cp.Parent, err, c.parent)
	}
	b.Post("/bulk/jobs/"+retryID+"/submit", url.Values{"confirm_all": {"1"}})
	rj := waitJob(t, e, retryID, "done", func(j bulkjobs.Job) bool { return !j.Active() })
	if rj.State != bulkjobs.StateDone || rj.Counts.Rejected != 1 {
		t.Errorf("retry job: %s %+v (%s); want done with the card rejected again", rj.State, rj.Counts, rj.StopReason)
	}
}

// TestBulkStockFileWithoutWarehouse (lamoda profile): the marketplace keeps
// no warehouse, so a stock file need not name one; told from a price file
// by its barcode and quantity, it is previewed as stock and sent by filter.
func TestBulkStockFileWithoutWarehouse(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{Profile: sandbox.ProfileLamoda}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	prods := e.sb.Products(1001)
	csv := fmt.Sprintf("Barcode;Quantity\n%s;11\n%s;11\n", prods[0].Barcode, prods[1].Barcode)
	id := jobIDOf(t, upload(t, e, b, "stock.csv", []byte(csv), ""))
	j, err := e.jobs.Job(context.Background(), id)
	if err != nil || j.Kind != "stock" {
		t.Fatalf("the file was taken as %q (%v), want stock", j.Kind, err)
	}
	e.sb.ResetCounters()
	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}})
	j = waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return !j.Active() })
	if j.State != bulkjobs.StateDone || j.Counts.Accepted != 2 {
		t.Fatalf("job: %s %+v", j.State, j.Counts)
	}
	if c := e.sb.Counters(); c.Requests[sandbox.RouteRPCUpdateStock] != 1 || c.Written[sandbox.WrittenStock] != 2 {
		t.Errorf("calls %v, written %v; want one update-stock of 2", c.Requests, c.Written)
	}
}
