package handlers_test

import (
	"fmt"
	"github.com/PuerkitoBio/goquery"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

func money(t *testing.T, s string) apiclient.Money {
	t.Helper()
	m, err := apiclient.ParseMoney(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return m
}

func rowSel(sku string) string { return "tr[data-testid='price-" + sku + "']" }

func TestPricesMixedResults(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 7, GuardPercent: -1}) // several chunks for 20 rows; the marketplace's refusals are the subject, the price guard is off
	b := app.Browser(t)
	b.LoginDemo()

	page := b.Get("/prices")
	form := page.FormValues("#prices-form")
	skus := form["sku"]
	if len(skus) < 20 {
		t.Fatalf("prices page lists %d products, want 20", len(skus))
	}
	rejected := map[string]bool{}
	want := map[string]string{}
	for i := range skus[:20] {
		cur := money(t, form["orig_price"][i])
		if i%7 == 3 { // rows 3, 10 and 17: a 99 % drop trips the marketplace's guard
			form["price"][i] = "1.00"
			form["sale"][i] = ""
			rejected[skus[i]] = true
			continue
		}
		form["price"][i] = (cur + 100).Decimal()
		form["sale"][i] = ""
		want[skus[i]] = shownEN(cur + 100)
	}
	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res := b.Post("/prices", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit: %d, want 422", res.Status)
	}
	if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "17 updated, 3 rejected") {
		t.Errorf("summary %q", got)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 3 {
		t.Errorf("%d set-prices requests for 20 rows in chunks of 7, want 3", n)
	}
	for sku := range rejected {
		row := res.Doc.Find(rowSel(sku))
		if !row.HasClass("rejected") {
			t.Errorf("%s: not marked rejected", sku)
		}
		if msg := row.Find(".row-msg").Text(); !strings.Contains(msg, "90%") {
			t.Errorf("%s: message %q lacks the marketplace's reason", sku, msg)
		}
		if v := row.Find("input[name=price]").AttrOr("value", ""); v != "1.00" {
			t.Errorf("%s: typed value not kept: %q", sku, v)
		}
	}
	for sku, newPrice := range want {
		row := res.Doc.Find(rowSel(sku))
		if !row.HasClass("accepted") || !strings.Contains(row.Find("[data-testid=result]").Text(), "→ "+newPrice) {
			t.Errorf("%s: result %q, want accepted → %s", sku, row.Find("[data-testid=result]").Text(), newPrice)
		}
	}

	// Fix the three and resubmit: only they are sent, and all are accepted.
	form2 := res.FormValues("#prices-form")
	for i, sku := range form2["sku"] {
		if rejected[sku] {
			cur := money(t, form2["orig_price"][i])
			form2["price"][i] = (cur - 1).Decimal()
			want[sku] = shownEN(cur - 1)
		}
	}
	before = app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res2 := b.Post("/prices", form2)
	if res2.Status != http.StatusSeeOther {
		t.Fatalf("resubmit: %d, want 303; summary %q", res2.Status, res2.Text("[data-testid=summary]"))
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 1 {
		t.Errorf("resubmit sent %d requests, want 1 (three rows)", n)
	}
	after := b.Follow(res2)
	if got := after.Text("#flash-area"); !strings.Contains(got, "3 prices updated") {
		t.Errorf("flash %q", got)
	}
	// A reload shows the marketplace's new prices.
	reload := b.Get("/prices")
	for sku, p := range want {
		if got := reload.Doc.Find(rowSel(sku) + " [data-testid=current]").Text(); got != p {
			t.Errorf("%s: current price %q after reload, want %q", sku, got, p)
		}
	}
}

func TestPricesLocalValidation(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	page := b.Get("/prices")
	form := page.FormValues("#prices-form")
	cases := []struct {
		price, sale, start, end string
		field, want             string
	}{
		{price: "abc", field: "price", want: "Enter a number"},
		{price: "-5", field: "price", want: "above zero"},
		{price: "1.234", field: "price", want: "at most 2 decimals"},
		{price: "100.00", sale: "150.00", field: "sale", want: "may not exceed the price"},
		{price: "", field: "price", want: "Enter a price"},
		{price: "1e309", field: "price", want: "Enter a number"},
		{price: "NaN", field: "price", want: "Enter a number"},
		{price: "١٢٣", field: "price", want: "Enter a number"},
		{price: "99999999999999999999", field: "price", want: "too large"},
		{price: "200", sale: "100", start: "2026-12-10", end: "2026-12-01", field: "end", want: "end on or after"},
		{price: "200", start: "2026-12-10", field: "sale", want: "sale price for the sale window"},
	}
	for i, c := range cases {
		form["price"][i], form["sale"][i], form["start"][i], form["end"][i] = c.price, c.sale, c.start, c.end
	}
	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res := b.Post("/prices", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.Status)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 0 {
		t.Errorf("%d set-prices requests despite invalid rows", n)
	}
	for i, c := range cases {
		id := "#" + c.field + "-" + strconv.Itoa(i) + "-error"
		if got := res.Text(id); !strings.Contains(got, c.want) {
			t.Errorf("row %d (%q): %s says %q, want %q", i, c.price, id, got, c.want)
		}
		if v := res.Doc.Find("#price-"+strconv.Itoa(i)).AttrOr("value", "?"); v != c.price {
			t.Errorf("row %d: typed price not kept: %q", i, v)
		}
	}
	if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "Nothing was sent") {
		t.Errorf("summary %q", got)
	}
}

func TestPricesHTMXFragment(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices").FormValues("#prices-form")
	form["price"][0] = "abc"
	b.HTMX = true
	res := b.Post("/prices", form)
	if res.Status != http.StatusUnprocessableEntity || res.Has("html header.top") || !res.Has("#prices-form") {
		t.Fatalf("htmx answer: %d, full page %t", res.Status, res.Has("header.top"))
	}
	if !strings.Contains(res.Header.Get("Vary"), "HX-Request") {
		t.Error("no Vary: HX-Request")
	}
}

func TestNomenclatureMassUpdate(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	page := b.Get("/nomenclature?limit=20")
	form := page.FormValues("#nomenclature-form")
	if len(form["wh"]) != 20 {
		t.Fatalf("%d rows", len(form["wh"]))
	}
	// Four real changes and one for a barcode the marketplace does not know.
	for i := 0; i < 4; i++ {
		q, _ := strconv.Atoi(form["orig_qty"][i])
		form["qty"][i] = strconv.Itoa(q + 5)
	}
	form["status"][1] = "disabled"
	form["bc"][4] = "0000000000000"
	form["qty"][4] = "7"
	res := b.Post("/nomenclature?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.Status)
	}
	if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "4 updated, 1 rejected") {
		t.Errorf("summary %q", got)
	}
	bad := res.Doc.Find("tr[data-testid='row-" + form["wh"][4] + "_0000000000000']")
	if !bad.HasClass("rejected") || bad.Find(".row-msg").Text() == "" {
		t.Errorf("unknown barcode row: class %q msg %q", bad.AttrOr("class", ""), bad.Find(".row-msg").Text())
	}
	accepted := res.Doc.Find("tr.accepted").Length()
	if accepted != 4 {
		t.Errorf("%d rows marked accepted, want 4", accepted)
	}
	reload := b.Get("/nomenclature?limit=20")
	if got := reload.FormValues("#nomenclature-form")["status"][1]; got != "disabled" {
		t.Errorf("status after reload %q", got)
	}

	t.Run("local validation sends nothing", func(t *testing.T) {
		form := reload.FormValues("#nomenclature-form")
		form["qty"][0], form["qty"][1], form["qty"][2], form["status"][3] = "-1", "2.5", "abc", "sold_out"
		before := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
		res := b.Post("/nomenclature?limit=20", form)
		if res.Status != http.StatusUnprocessableEntity || app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] != before {
			t.Fatalf("status %d, store calls %d → %d", res.Status, before, app.Sandbox.Counters().Requests[sandbox.RouteRPCStore])
		}
		for id, want := range map[string]string{"#qty-0-error": "negative", "#qty-1-error": "whole number", "#qty-2-error": "whole number", "#status-3-error": "listed statuses"} {
			if got := res.Text(id); !strings.Contains(got, want) {
				t.Errorf("%s says %q, want %q", id, got, want)
			}
		}
	})
}

// TestNomenclatureModerationRefusal (issue 17 item 7): a record that
// moderation rejected or has not approved is not offered "online" (the
// marketplace always refuses it); a form that asks for it anyway is refused
// beside the control with the reason, and nothing is sent.
func TestNomenclatureModerationRefusal(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	page := b.Get("/nomenclature?limit=100")
	form := page.FormValues("#nomenclature-form")
	idx := -1
	for i, st := range form["orig_status"] {
		if st == "rejected" || st == "in_moderation" {
			sel := page.Doc.Find("#status-" + strconv.Itoa(i))
			if sel.Find("option[value=online]").Length() != 0 {
				t.Errorf("a %s record (row %d) is offered online", st, i)
			}
			if sel.Find("option[value=disabled]").Length() == 0 {
				t.Errorf("a %s record (row %d) cannot be disabled", st, i)
			}
		}
		if st == "rejected" && idx < 0 {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatal("the seeded fixtures have no moderation-rejected record on the first page")
	}
	form["status"][idx] = "online" // a forged or stale form
	q, _ := strconv.Atoi(form["orig_qty"][0])
	if idx != 0 {
		form["qty"][0] = strconv.Itoa(q + 1)
	}
	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
	res := b.Post("/nomenclature?limit=100", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.Status)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] - before; n != 0 {
		t.Errorf("%d store calls for a change the marketplace refuses", n)
	}
	if got := res.Text("#status-" + strconv.Itoa(idx) + "-error"); !strings.Contains(got, "Moderation rejected this product") {
		t.Errorf("row %d: the reason beside the status: %q", idx, got)
	}
}

// A 10,000-row form (90,000 fields) must be read, not refused by the form
// parser's default field limit (go.mod raises it; the body limit still holds).
func TestPricesTenThousandRowForm(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	real := b.Get("/prices?limit=20").FormValues("#prices-form")
	form := url.Values{}
	add := func(vals ...string) {
		for i, col := range []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"} {
			form.Add(col, vals[i])
		}
	}
	cur := money(t, real["orig_price"][0])
	add(real["sku"][0], real["orig_price"][0], real["orig_sale"][0], "", "", (cur + 1).Decimal(), "", "", "")
	for i := 1; i < 10_000; i++ {
		add("MPUNCHANGED"+strconv.Itoa(i), "100.00", "", "", "", "100.00", "", "", "")
	}
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("10,000-row form: status %d, want 303; %s", res.Status, res.Text("[data-testid=error]"))
	}
	if got := b.Follow(res).Text("#flash-area"); !strings.Contains(got, "1 price updated") {
		t.Errorf("flash %q", got)
	}
}

// A chunk sent without an answer is "may have been applied", never "not
// sent"; later chunks are not sent at all.
func TestPricesOutcomeUnknown(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 2})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	for i := 0; i < 5; i++ {
		form["price"][i] = (money(t, form["orig_price"][i]) + 1).Decimal()
		form["sale"][i] = ""
	}
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultReset})
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.Status)
	}
	summary := res.Text("[data-testid=summary]")
	if !strings.Contains(summary, "2 rows got no answer") || !strings.Contains(summary, "3 rows were not sent") {
		t.Errorf("summary %q", summary)
	}
	states := map[string]int{}
	for i := 0; i < 5; i++ {
		row := res.Doc.Find(rowSel(form["sku"][i]))
		msg := row.Find(".row-msg").Text()
		switch {
		case strings.Contains(msg, "no answer came"):
			states["unknown"]++
		case strings.Contains(msg, "not sent"):
			states["unsent"]++
		}
		if v := row.Find("input[name=price]").AttrOr("value", ""); v != form["price"][i] {
			t.Errorf("row %d: typed value not kept: %q", i, v)
		}
	}
	if states["unknown"] != 2 || states["unsent"] != 3 {
		t.Errorf("row states %v, want 2 unknown and 3 unsent", states)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]; n != 1 {
		t.Errorf("%d set-prices requests, want 1 (no blind replay of the unanswered write)", n)
	}
}

// After a submit with rejections, the answer lists the page's rows and the
// rows that still need the user, not accepted rows from elsewhere; the
// summary still counts every row. The page's list call overlaps with the
// last chunk, and a row of that chunk on the page shows the marketplace's
// price after the update, not before.
func TestPricesResultListsPageAndOpenRows(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 2, GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	b.LoginDemo()
	p1 := b.Get("/prices?limit=20").FormValues("#prices-form")
	p2 := b.Get("/prices?limit=20&page=2").FormValues("#prices-form")
	if len(p1["sku"]) < 2 || len(p2["sku"]) < 2 {
		t.Fatalf("pages list %d and %d products", len(p1["sku"]), len(p2["sku"]))
	}
	form := url.Values{}
	add := func(f url.Values, i int, price string) {
		for _, col := range []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end"} {
			form.Add(col, f[col][i])
		}
		form.Add("price", price)
		for _, col := range []string{"sale", "start", "end"} {
			form.Add(col, "")
		}
	}
	up := func(f url.Values, i int) string { return (money(t, f["orig_price"][i]) + 100).Decimal() }
	var off []int // rows of page 2 whose SKU page 1 does not list (a SKU in several warehouses can be on both)
	for i, sku := range p2["sku"] {
		if !slices.Contains(p1["sku"], sku) {
			off = append(off, i)
		}
	}
	if len(off) < 2 {
		t.Fatalf("page 2 has %d SKUs not on page 1", len(off))
	}
	offOK, offBad, onLast := p2["sku"][off[0]], p2["sku"][off[1]], p1["sku"][0]
	add(p2, off[1], "1.00") // rejected (the marketplace's 90 % guard), in the first chunk
	add(p2, off[0], up(p2, off[0]))
	add(p1, 1, up(p1, 1))
	add(p1, 0, up(p1, 0)) // alone in the last chunk, on the page shown
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("submit: %d, want 422", res.Status)
	}
	if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "3 updated, 1 rejected") {
		t.Errorf("summary %q", got)
	}
	if res.Doc.Find(rowSel(offOK)).Length() != 0 {
		t.Errorf("accepted row %s from another page is listed", offOK)
	}
	if row := res.Doc.Find(rowSel(offBad)); !row.HasClass("rejected") {
		t.Errorf("rejected row %s from another page: not listed as rejected", offBad)
	}
	want := shownEN(money(t, p1["orig_price"][0]) + 100)
	row := res.Doc.Find(rowSel(onLast))
	if !row.HasClass("accepted") {
		t.Errorf("%s: not marked accepted", onLast)
	}
	if got := row.Find("[data-testid=current]").Text(); got != want {
		t.Errorf("%s: current price %q on the answer, want the updated %q", onLast, got, want)
	}
	if n := len(res.FormValues("#prices-form")["sku"]); n != len(p1["sku"])+1 {
		t.Errorf("answer lists %d rows, want the page's %d and the rejected one", n, len(p1["sku"]))
	}
}

// TestLowerPriceWithoutSale: a product without a sale (the marketplace
// reports its sale price equal to the price) shows an empty sale field, so
// lowering the price alone is accepted; a sale-only change reads as one.
func TestLowerPriceWithoutSale(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	page := b.Get("/prices")
	form := page.FormValues("#prices-form")
	target, other := -1, -1
	for i := range form["sku"] {
		if form["orig_sale"][i] == "" {
			if target < 0 {
				target = i
			} else if other < 0 {
				other = i
			}
		}
		if form["sale"][i] != "" && form["sale"][i] == form["price"][i] {
			t.Fatalf("row %s: the sale field holds the price (%s)", form["sku"][i], form["sale"][i])
		}
	}
	if target < 0 || other < 0 {
		t.Fatal("no product without a sale on the first page")
	}
	sku, sku2 := form["sku"][target], form["sku"][other]
	cur := money(t, form["orig_price"][target])
	form["price"][target] = (cur - 100).Decimal() // 1 rouble less, sale left empty
	form["sale"][other] = (money(t, form["orig_price"][other]) - 100).Decimal()
	res := b.Post("/prices", form)
	if res.Status == http.StatusSeeOther {
		res = b.Follow(res)
	}
	for _, k := range []string{sku, sku2} {
		if got := res.Text(`[data-testid="price-` + k + `"] .row-ok`); got == "" {
			t.Errorf("row %s: not accepted (status %d, summary %q, row %q)", k, res.Status, res.Text("[data-testid=summary]"), res.Text(`[data-testid="price-`+k+`"]`))
		}
	}
	if got := res.Text(`[data-testid="price-` + sku2 + `"] .row-ok`); !strings.Contains(got, "(sale ") {
		t.Errorf("a sale-only change reads %q; want the sale price in it", got)
	}
}

// A submit of many more rows than a page answers with the counts and only
// the rows that need attention, a page of them, not with every row: here
// the rows of a 20-record page (5 raised, 2 refused by the marketplace's
// guard, the rest unchanged), 300 products the marketplace does not know (refused)
// and 2,000 unchanged rows.
func TestPricesLargeSubmitAnswersWithRowsNeedingAttention(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 100, GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	onPage := len(form["sku"])
	if onPage < 7 {
		t.Fatalf("the page lists %d products, want 7 at least", onPage)
	}
	for i := range 7 {
		cur := money(t, form["orig_price"][i])
		form["price"][i], form["sale"][i] = (cur + 100).Decimal(), ""
		if i >= 5 { // a 99 % drop trips the marketplace's guard
			form["price"][i] = "1.00"
		}
	}
	add := func(sku, orig, price string) {
		for _, col := range [][2]string{{"sku", sku}, {"orig_price", orig}, {"orig_sale", ""}, {"orig_start", ""}, {"orig_end", ""}, {"price", price}, {"sale", ""}, {"start", ""}, {"end", ""}} {
			form.Add(col[0], col[1])
		}
	}
	for i := range 300 {
		add("MPNOSUCH"+strconv.Itoa(i), "100.00", "101.00")
	}
	for i := range 2000 {
		add("MPSAME"+strconv.Itoa(i), "100.00", "100.00")
	}
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.Status)
	}
	summary := res.Text("[data-testid=summary]")
	unchanged := 2000 + onPage - 7
	for _, w := range []string{"5 updated, 302 rejected", fmt.Sprintf("%d,%03d unchanged", unchanged/1000, unchanged%1000), "the first 20 rows that need attention; 282 more are not listed"} {
		if !strings.Contains(summary, w) {
			t.Errorf("summary %q lacks %q", summary, w)
		}
	}
	rows := res.Doc.Find("#prices-table tbody tr")
	if rows.Length() != 20 {
		t.Fatalf("the answer lists %d rows, want the 20 that need attention first", rows.Length())
	}
	rows.Each(func(i int, r *goquery.Selection) {
		if !r.HasClass("rejected") {
			t.Errorf("row %d (%s) listed without needing attention: class %q", i, r.AttrOr("data-testid", ""), r.AttrOr("class", ""))
		}
	})
	for _, sku := range form["sku"][5:7] { // the page's refused rows come first
		if res.Doc.Find(rowSel(sku)).Length() != 1 {
			t.Errorf("%s: refused on the page, not listed", sku)
		}
	}
	if res.Doc.Find(rowSel(form["sku"][0])).Length() != 0 {
		t.Error("an accepted row is listed")
	}

}

// The stock form alike: 20 rows of the page (4 raised, the rest
// unchanged) and 150 barcodes the marketplace does not know answer with
// the counts and a page of the refused rows, not 170 rows.
func TestNomenclatureLargeSubmitAnswersWithRowsNeedingAttention(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/nomenclature?limit=20").FormValues("#nomenclature-form")
	if len(form["wh"]) != 20 {
		t.Fatalf("%d rows", len(form["wh"]))
	}
	for i := range 4 {
		q, _ := strconv.Atoi(form["orig_qty"][i])
		form["qty"][i] = strconv.Itoa(q + 5)
	}
	wh := form["wh"][0]
	for i := range 150 {
		for _, col := range [][2]string{{"wh", wh}, {"bc", fmt.Sprintf("99%011d", i)}, {"orig_qty", "1"}, {"orig_status", "online"}, {"qty", "2"}, {"status", "online"}} {
			form.Add(col[0], col[1])
		}
	}
	res := b.Post("/nomenclature?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.Status)
	}
	summary := res.Text("[data-testid=summary]")
	for _, w := range []string{"4 updated, 150 rejected", "16 unchanged", "the first 20 rows that need attention; 130 more are not listed"} {
		if !strings.Contains(summary, w) {
			t.Errorf("summary %q lacks %q", summary, w)
		}
	}
	rows := res.Doc.Find("#nomenclature-form tbody tr")
	if rows.Length() != 20 {
		t.Fatalf("the answer lists %d rows, want 20", rows.Length())
	}
	if n := res.Doc.Find("#nomenclature-form tbody tr.rejected").Length(); n != 20 {
		t.Errorf("%d of the 20 rows listed are refused ones, want all", n)
	}
}

// A large submit that must be fixed first sends nothing and lists a page
// of the rows to fix; the edits it does not list are not lost: the form
// carries them hidden, and once the listed rows are fixed the next submit
// sends them.
func TestLargeSubmitKeepsTheEditsItDoesNotList(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	if len(form["sku"]) < 2 {
		t.Fatalf("the page lists %d products", len(form["sku"]))
	}
	want := (money(t, form["orig_price"][0]) + 100).Decimal()
	form["price"][0] = want
	edited := form["sku"][0]
	for i := range 25 {
		for _, col := range [][2]string{{"sku", "MPBAD" + strconv.Itoa(i)}, {"orig_price", "100.00"}, {"orig_sale", ""}, {"orig_start", ""}, {"orig_end", ""}, {"price", "abc"}, {"sale", ""}, {"start", ""}, {"end", ""}} {
			form.Add(col[0], col[1])
		}
	}
	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
	res := b.Post("/prices?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.Status)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 0 {
		t.Fatalf("%d set-prices requests despite rows to fix", n)
	}
	if n := res.Doc.Find("#prices-table tbody:not([hidden]) tr").Length(); n != 20 {
		t.Errorf("%d rows listed, want a page of 20 to fix", n)
	}
	if res.Doc.Find(`tbody[hidden] `+rowSel(edited)).Length() != 1 {
		t.Fatalf("the edit of %s is not carried by the form", edited)
	}
	again := res.FormValues("#prices-form")
	carried := map[string]string{}
	for i, sku := range again["sku"] {
		carried[sku] = again["price"][i]
		if strings.HasPrefix(sku, "MPBAD") {
			again["price"][i] = again["orig_price"][i] // fixed: left unchanged
		}
	}
	if carried[edited] != want {
		t.Fatalf("the form carries %s at %q, want the typed %s", edited, carried[edited], want)
	}
	for i := range 25 {
		if carried["MPBAD"+strconv.Itoa(i)] != "abc" {
			t.Errorf("row MPBAD%d to fix is not carried with its typed value", i)
		}
	}
	res = b.Post("/prices?limit=20", again)
	if res.Status != http.StatusSeeOther && res.Header.Get("HX-Redirect") == "" {
		t.Fatalf("second submit: status %d, want a redirect after the update", res.Status)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 1 {
		t.Errorf("%d set-prices requests for the carried edit, want 1", n)
	}
}
