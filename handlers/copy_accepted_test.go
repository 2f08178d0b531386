package handlers_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// copyRecord is the record of the copy at warehouse wh with barcode bc.
func copyRecord(t *testing.T, app *testapp.App, k copystore.Key, wh, bc string) copystore.Record {
	t.Helper()
	recs, err := app.Catalog.Store().Nomenclature(context.Background(), k, copystore.Query{Q: bc, Warehouse: wh})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%s|%s: %d records in the copy, %v", wh, bc, len(recs), err)
	}
	return recs[0]
}

// exportRow is the row of the whole-catalogue export at wh and bc.
func exportRow(t *testing.T, b *testapp.Browser, wh, bc string) []string {
	t.Helper()
	p := b.Get("/nomenclature/export-all.csv")
	if p.Status != http.StatusOK {
		t.Fatalf("export: %d", p.Status)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(p.Body, "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r[0] == wh && r[1] == bc {
			return r
		}
	}
	t.Fatalf("%s|%s not in the export", wh, bc)
	return nil
}

// TestStockSavePendingInCopy: a stock and status save the marketplace
// accepted is in the copy at once, marked pending: the list shows the new
// quantity and status with their marks, the export carries them, and
// nothing asks the marketplace; a row it refused leaves the copy as it
// was. The next read confirms the accepted row.
func TestStockSavePendingInCopy(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	form := b.Get("/nomenclature").FormValues("#nomenclature-form")
	ok, refused := -1, -1
	for i, st := range form["orig_status"] {
		switch {
		case ok < 0 && (st == "online" || st == "disabled"):
			ok = i
		case refused < 0 && (st == "rejected" || st == "in_moderation"):
			refused = i
		}
	}
	if ok < 0 || refused < 0 {
		t.Fatalf("no approved and unapproved records on the first page: %v", form["orig_status"])
	}
	for i := range form["wh"] {
		form["qty"][i], form["status"][i] = form["orig_qty"][i], form["orig_status"][i]
	}
	okQty, _ := strconv.Atoi(form["orig_qty"][ok])
	okQty += 17
	okStatus := map[string]string{"online": "disabled", "disabled": "online"}[form["orig_status"][ok]]
	form["qty"][ok], form["status"][ok] = strconv.Itoa(okQty), okStatus
	// A record the form believes approved: the marketplace refuses to put
	// it online, and refuses its quantity with it (one item).
	refusedWas := copyRecord(t, app, copyKey1001, form["wh"][refused], form["bc"][refused])
	form["orig_status"][refused], form["status"][refused] = "disabled", "online"
	form["qty"][refused] = strconv.Itoa(refusedWas.Quantity + 5)

	app.Sandbox.ResetCounters()
	res := b.Post("/nomenclature", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit: %d %q; want one row refused", res.Status, res.Text("[data-testid=summary]"))
	}
	wh, bc := form["wh"][ok], form["bc"][ok]
	r := copyRecord(t, app, copyKey1001, wh, bc)
	if r.Quantity != okQty || r.Status != okStatus || !r.QuantityPending || !r.StatusPending {
		t.Errorf("the accepted row is not in the copy, pending: %+v; want %d %s", r, okQty, okStatus)
	}
	if got := copyRecord(t, app, copyKey1001, form["wh"][refused], form["bc"][refused]); got.Quantity != refusedWas.Quantity ||
		got.Status != refusedWas.Status || got.QuantityPending || got.StatusPending {
		t.Errorf("the refused row changed the copy: %+v, was %+v", got, refusedWas)
	}
	p := b.Get("/nomenclature?q=" + url.QueryEscape(bc))
	row := p.Doc.Find(`[data-testid="row-` + wh + `_` + bc + `"]`)
	if row.Length() != 1 {
		t.Fatalf("row %s|%s not on the page", wh, bc)
	}
	if v, _ := row.Find(`input[name="qty"]`).Attr("value"); v != strconv.Itoa(okQty) {
		t.Errorf("the list shows quantity %q, want %d", v, okQty)
	}
	if v, _ := row.Find(`select[name="status"] option[selected]`).Attr("value"); v != okStatus {
		t.Errorf("the list shows status %q, want %s", v, okStatus)
	}
	if row.Find(`[data-testid="qty-pending"]`).Length() != 1 || row.Find(`[data-testid="status-pending"]`).Length() != 1 {
		t.Errorf("the new quantity and status are not marked pending: %s", row.Text())
	}
	if e := exportRow(t, b, wh, bc); e[7] != okStatus || e[8] != strconv.Itoa(okQty) {
		t.Errorf("the export has %s %s, want %s %d", e[7], e[8], okStatus, okQty)
	}
	if n := listCalls(app.Sandbox); n != 0 {
		t.Errorf("the save, the page and the export made %d list calls", n)
	}

	refreshed := time.Now()
	b.Post("/sync/refresh", nil)
	copyDoneSince(t, app, refreshed)
	if r := copyRecord(t, app, copyKey1001, wh, bc); r.Quantity != okQty || r.Status != okStatus || r.QuantityPending || r.StatusPending {
		t.Errorf("not confirmed by the next read: %+v", r)
	}
}
