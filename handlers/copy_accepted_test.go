package handlers_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
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
	t.Parallel()
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

// TestJobsPatchTheCopy: a price job's accepted row is in the copy at once,
// pending (the prices page and the export show it, nothing asks the
// marketplace), its refused row is not; the retry of the refused row, and
// a stock job, patch the copy the same way.
func TestJobsPatchTheCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	ps := app.Sandbox.Products(1001)
	up, drop := ps[3], ps[4]
	upPrice := up.Price * 11 / 10
	app.Sandbox.ResetCounters()

	// A rise, and a 95 % drop the marketplace refuses.
	csvText := fmt.Sprintf("Marketplace SKU;Price;Sale price\n%s;%s;\n%s;%s;%s\n", up.MarketplaceSKU, moneyIn(int64(upPrice)),
		drop.MarketplaceSKU, moneyIn(int64(drop.Price*5/100)), moneyIn(int64(drop.Price*5/100)))
	id := importFile(t, app, b, csvText, "prices")
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}, "confirm": {"2"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 || j.Counts.Rejected != 1 {
		t.Fatalf("job %s %+v; want one accepted, one rejected", j.State, j.Counts)
	}
	pendingAt := func(sku string, price int64) bool {
		recs, err := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Q: sku})
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: %d records, %v", sku, len(recs), err)
		}
		for _, r := range recs {
			if r.Pending == nil || r.Pending.Price != int64(price) {
				return false
			}
		}
		return true
	}
	if !pendingAt(up.MarketplaceSKU, upPrice) {
		t.Errorf("the job's accepted price %d is not pending in the copy", upPrice)
	}
	recs, _ := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Q: drop.MarketplaceSKU})
	for _, r := range recs {
		if r.Pending != nil || r.Price != int64(drop.Price) {
			t.Errorf("the refused price changed the copy: %+v", r)
		}
	}
	p := b.Get("/prices?q=" + url.QueryEscape(up.MarketplaceSKU))
	if got := moneyCell(t, p.Text("[data-testid=current]")); got != int64(upPrice) {
		t.Errorf("the prices page shows %d, want the job's %d", got, int64(upPrice))
	}
	wh := up.Warehouses[0]
	if e := exportRow(t, b, wh, up.Barcode); int64(money(t, e[9])) != upPrice || e[11] != i18n.Status(i18n.WithLang(context.Background(), i18n.EN), "PROCESSING") {
		t.Errorf("the export has %s %s, want the job's %d, processing", e[9], e[11], int64(upPrice))
	}
	if n := listCalls(app.Sandbox); n != 0 {
		t.Errorf("the job, the page and the export made %d list calls", n)
	}

	// The refused row retried at a price the marketplace takes.
	rp := b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	retry := strings.TrimPrefix(rp.Location, b.InAccount("/bulk/jobs/"))
	ritems, err := app.JobStore.Items(context.Background(), retry)
	if err != nil || len(ritems) != 1 {
		t.Fatalf("retry items: %d, %v", len(ritems), err)
	}
	dropPrice := drop.Price * 9 / 10
	seq := strconv.Itoa(ritems[0].Seq)
	rp = b.Post("/bulk/jobs/"+retry+"/revise", url.Values{"edit_" + seq + "_price": {moneyIn(int64(dropPrice))}, "edit_" + seq + "_sale": {""}})
	revised := strings.TrimPrefix(rp.Location, b.InAccount("/bulk/jobs/"))
	if p := b.Post("/bulk/jobs/"+revised+"/submit", url.Values{"confirm_all": {"1"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit the retry: %d", p.Status)
	}
	if j := jobDone(t, app, revised); j.Counts.Accepted != 1 {
		t.Fatalf("retry %s %+v; want its row accepted", j.State, j.Counts)
	}
	if !pendingAt(drop.MarketplaceSKU, dropPrice) {
		t.Errorf("the retry's accepted price %d is not pending in the copy", dropPrice)
	}

	// A stock job.
	id = importFile(t, app, b, fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;777\n", wh, up.Barcode), "stock")
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit the stock job: %d", p.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Accepted != 1 {
		t.Fatalf("stock job %s %+v", j.State, j.Counts)
	}
	if r := copyRecord(t, app, copyKey1001, wh, up.Barcode); r.Quantity != 777 || !r.QuantityPending || r.StatusPending {
		t.Errorf("the stock job's quantity is not pending in the copy: %+v", r)
	}
	if n := listCalls(app.Sandbox); n != 0 {
		t.Errorf("%d list calls", n)
	}
}

// TestFilteredSavePatchesItsAppliedPart (lamoda profile): a row whose
// stock the marketplace wrote and whose status it refused says so per
// part, and the copy takes the quantity alone, pending; an accepted row
// is in the copy whole.
func TestFilteredSavePatchesItsAppliedPart(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	form := b.Get("/nomenclature").FormValues("#nomenclature-form")
	ok, part := -1, -1
	for i, st := range form["orig_status"] {
		switch {
		case ok < 0 && (st == "online" || st == "disabled"):
			ok = i
		case part < 0 && (st == "rejected" || st == "in_moderation"):
			part = i
		}
	}
	if ok < 0 || part < 0 {
		t.Fatalf("no approved and unapproved records on the first page: %v", form["orig_status"])
	}
	for i := range form["wh"] {
		form["qty"][i], form["status"][i] = form["orig_qty"][i], form["orig_status"][i]
	}
	okQty, _ := strconv.Atoi(form["orig_qty"][ok])
	okQty += 9
	form["qty"][ok] = strconv.Itoa(okQty)
	partWas := copyRecord(t, app, copyKey1001, form["wh"][part], form["bc"][part])
	partQty := partWas.Quantity + 6
	form["orig_status"][part], form["status"][part], form["qty"][part] = "disabled", "online", strconv.Itoa(partQty)

	res := b.Post("/nomenclature", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit: %d %q; want the partly applied row shown", res.Status, res.Text("[data-testid=summary]"))
	}
	row := res.Doc.Find(`[data-testid="row-` + form["wh"][part] + `_` + form["bc"][part] + `"]`)
	if msg := row.Find(`[data-testid=result]`).Text(); !strings.Contains(msg, "Quantity "+strconv.Itoa(partQty)+" applied.") || !strings.Contains(msg, "Status refused:") {
		t.Errorf("the partly applied row says %q; want each part's fate", msg)
	}
	// Only the refused part stays to send again.
	again := res.FormValues("#nomenclature-form")
	for i := range again["wh"] {
		if again["wh"][i] == form["wh"][part] && again["bc"][i] == form["bc"][part] {
			// (The status select offers no "online" for this record: the
			// typed value is not among its options.)
			if again["orig_qty"][i] != again["qty"][i] || again["qty"][i] != strconv.Itoa(partQty) || again["orig_status"][i] != "disabled" {
				t.Errorf("the form keeps quantity %s → %s, status from %s; want the applied quantity settled and the status's baseline kept",
					again["orig_qty"][i], again["qty"][i], again["orig_status"][i])
			}
		}
	}
	if r := copyRecord(t, app, copyKey1001, form["wh"][part], form["bc"][part]); r.Quantity != partQty || !r.QuantityPending ||
		r.Status != partWas.Status || r.StatusPending {
		t.Errorf("the copy holds %+v; want the quantity %d pending and the status %s as it was", r, partQty, partWas.Status)
	}
	if r := copyRecord(t, app, copyKey1001, form["wh"][ok], form["bc"][ok]); r.Quantity != okQty || !r.QuantityPending || r.StatusPending {
		t.Errorf("the accepted row is not in the copy, pending: %+v", r)
	}
}

// TestStockSaveShowsOldToNew: after a stock and status save every row of
// which was accepted, the page it redirects to shows each saved row's old
// → new, its new values marked pending.
func TestStockSaveShowsOldToNew(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	form := b.Get("/nomenclature").FormValues("#nomenclature-form")
	i := slices.IndexFunc(form["orig_status"], func(st string) bool { return st == "online" })
	if i < 0 {
		t.Fatalf("no record online on the first page: %v", form["orig_status"])
	}
	for j := range form["wh"] {
		form["qty"][j], form["status"][j] = form["orig_qty"][j], form["orig_status"][j]
	}
	was, _ := strconv.Atoi(form["orig_qty"][i])
	form["qty"][i], form["status"][i] = strconv.Itoa(was+3), "disabled"
	res := b.Post("/nomenclature", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d %q", res.Status, res.Text("[data-testid=summary]"))
	}
	p := b.Follow(res)
	row := p.Doc.Find(`[data-testid="row-` + form["wh"][i] + `_` + form["bc"][i] + `"]`)
	got := strings.Join(strings.Fields(row.Find(`[data-testid=result]`).Text()), " ")
	want := fmt.Sprintf("✓ %d pcs, online → %d pcs, disabled", was, was+3)
	if got != want {
		t.Errorf("the saved row says %q, want %q", got, want)
	}
	if row.Find(`[data-testid="qty-pending"]`).Length() != 1 || row.Find(`[data-testid="status-pending"]`).Length() != 1 {
		t.Errorf("the saved row's new values are not marked pending: %s", row.Text())
	}
}

// TestReadBackConfirmsTheCopy: a job's read-back that shows its accepted
// rows applied confirms them in the copy at once: no longer pending, with
// no pass of the copy in between.
func TestReadBackConfirmsTheCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Millisecond}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	states, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
	if err != nil {
		t.Fatal(err)
	}
	p := app.Sandbox.Products(1001)[2]
	price := p.Price * 11 / 10
	wh := p.Warehouses[0]
	id := importFile(t, app, b, fmt.Sprintf("Marketplace SKU;Price;Sale price\n%s;%s;\n", p.MarketplaceSKU, moneyIn(price)), "prices")
	if r := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", r.Status)
	}
	stock := importFile(t, app, b, fmt.Sprintf("Warehouse;Barcode;Quantity\n%s;%s;555\n", wh, p.Barcode), "stock")
	if r := b.Post("/bulk/jobs/"+stock+"/submit", url.Values{"confirm_all": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("submit the stock job: %d", r.Status)
	}
	for _, job := range []string{id, stock} {
		waitUntil(t, "the read-back of "+job, func() bool {
			j, err := app.JobStore.Job(context.Background(), job)
			return err == nil && !j.ReadBackDoneAt.IsZero() && j.Counts.Confirmed == 1
		})
	}
	recs, err := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Q: p.MarketplaceSKU})
	if err != nil || len(recs) == 0 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.Pending != nil || r.Price != price {
			t.Errorf("the read-back did not confirm the job's price in the copy: %+v", r)
		}
	}
	if r := copyRecord(t, app, copyKey1001, wh, p.Barcode); r.QuantityPending || r.Quantity != 555 {
		t.Errorf("the read-back did not confirm the job's quantity in the copy: %+v", r)
	}
	after, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
	if err != nil {
		t.Fatal(err)
	}
	if after[copystore.KindNomenclature].Gen != states[copystore.KindNomenclature].Gen {
		t.Errorf("a pass of the copy ran (%d → %d): the confirmation is not the read-back's", states[copystore.KindNomenclature].Gen, after[copystore.KindNomenclature].Gen)
	}
}

// TestFilteredJobRetriesOnlyTheRefusedPart (lamoda profile): a stock job's
// row whose status was written and whose quantity was refused (above the
// marketplace's limit) says so per part; the copy takes its status at
// once, so its retry carries the quantity alone.
func TestFilteredJobRetriesOnlyTheRefusedPart(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true,
		Jobs: &bulkjobs.RunnerOptions{ReadBackDelay: time.Hour}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	var rec copystore.Record
	err := app.Catalog.Store().EachNomenclature(context.Background(), copyKey1001, copystore.Query{Status: "online", Limit: 1}, func(r *copystore.Record) error {
		rec = *r
		return nil
	})
	if err != nil || rec.Barcode == "" {
		t.Fatalf("no record online: %v", err)
	}
	const tooMany = 100_000 // the form's limit lets it through, the marketplace's does not
	id := importFile(t, app, b, fmt.Sprintf("Barcode;Quantity;Status\n%s;%d;disabled\n", rec.Barcode, tooMany), "stock")
	if r := b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", r.Status)
	}
	if j := jobDone(t, app, id); j.Counts.Rejected != 1 {
		t.Fatalf("job %s %+v; want the row refused", j.State, j.Counts)
	}
	items, err := app.JobStore.Items(context.Background(), id)
	if err != nil || len(items) != 1 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	if keys := msgKeysOf(items[0].Message); !slices.Equal(keys, []string{"mass.part_quantity_refused", "mass.part_status_applied"}) {
		t.Errorf("the job's row says %v; want each part's fate", keys)
	}
	if r := copyRecord(t, app, copyKey1001, rec.Warehouse, rec.Barcode); r.Quantity != rec.Quantity || r.QuantityPending || r.Status != "disabled" || !r.StatusPending {
		t.Errorf("the copy holds %+v; want the status disabled pending and the quantity as it was", r)
	}
	p := b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("retry: %d", p.Status)
	}
	retry, err := app.JobStore.Items(context.Background(), strings.TrimPrefix(p.Location, b.InAccount("/bulk/jobs/")))
	if err != nil || len(retry) != 1 {
		t.Fatalf("retry items: %d, %v", len(retry), err)
	}
	var sent apiclient.StoreItem
	if err := json.Unmarshal([]byte(retry[0].Payload), &sent); err != nil || sent.Quantity == nil || *sent.Quantity != tooMany || sent.Status != "" {
		t.Errorf("the retry sends %s; want the quantity alone", retry[0].Payload)
	}
}

func msgKeysOf(msgs i18n.Msgs) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Key)
	}
	return out
}
