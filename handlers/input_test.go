package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestBadBrowserInput covers what TestPricesLocalValidation does not: zero,
// a decimal comma, duplicated SKUs and rows, every bad quantity, and
// forms of 10,000 and 10,001 rows. Every rejection is beside its field and
// nothing invalid reaches the marketplace.
func TestBadBrowserInput(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	writes := func() int {
		c := app.Sandbox.Counters().Requests
		return c[sandbox.RouteRPCSetPrices] + c[sandbox.RouteRPCStore]
	}

	t.Run("prices", func(t *testing.T) {
		form := b.Get("/prices").FormValues("#prices-form")
		form["price"][0] = "0"
		// A duplicated SKU: the second row repeats the first with a change.
		for _, col := range []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"} {
			form[col] = append(form[col], form[col][1])
		}
		n := len(form["sku"]) - 1
		form["price"][1], form["price"][n] = "500", "600"
		before := writes()
		res := b.Post("/prices", form)
		if res.Status != http.StatusUnprocessableEntity || writes() != before {
			t.Fatalf("status %d, writes %d", res.Status, writes()-before)
		}
		if got := res.Text("#price-0-error"); !strings.Contains(got, "above zero") {
			t.Errorf("price 0: %q", got)
		}
		if !strings.Contains(res.Doc.Find(".field-error, [id$=-error]").Text(), "appears twice") {
			t.Error("duplicated SKU not reported beside a field")
		}
	})

	t.Run("decimal comma is read as a decimal point", func(t *testing.T) {
		form := b.Get("/prices").FormValues("#prices-form")
		cur := money(t, form["orig_price"][0])
		form["price"][0] = strings.Replace((cur + 100).Decimal(), ".", ",", 1)
		res := b.Post("/prices", form)
		if res.Status != http.StatusSeeOther {
			t.Fatalf("12,50-style price: %d %q", res.Status, res.Text("#price-0-error"))
		}
		if got := b.Get("/prices").Doc.Find(rowSel(form["sku"][0]) + " [data-testid=current]").Text(); got != shownEN(cur+100) {
			t.Errorf("current price %q, want %q", got, shownEN(cur+100))
		}
	})

	t.Run("quantities", func(t *testing.T) {
		form := b.Get("/nomenclature?limit=20").FormValues("#nomenclature-form")
		bad := map[string]string{"": "Enter a quantity", "-1": "negative", "1e309": "whole number", "NaN": "whole number",
			"١٢٣": "whole number", "12,50": "whole number", "99999999999999999999": "at most", "1.5": "whole number", " 7 x": "whole number"}
		var typed []string
		for v := range bad {
			typed = append(typed, v)
		}
		for i, v := range typed {
			if form["orig_qty"][i] == v {
				form["orig_qty"][i] = "3"
			}
			form["qty"][i] = v
		}
		before := writes()
		res := b.Post("/nomenclature?limit=20", form)
		if res.Status != http.StatusUnprocessableEntity || writes() != before {
			t.Fatalf("status %d, writes %d", res.Status, writes()-before)
		}
		for i, v := range typed {
			if got := res.Text("#qty-" + strconv.Itoa(i) + "-error"); !strings.Contains(got, bad[v]) {
				t.Errorf("quantity %q: %q, want %q", v, got, bad[v])
			}
		}
	})

	// 10,000 rows of 9 fields need go.mod's godebug urlmaxqueryparams
	// (Go refuses more than 10,000 fields by default).
	t.Run("10,000 rows accepted, 10,001 refused", func(t *testing.T) {
		for _, rows := range []int{10_000, 10_001} {
			form := url.Values{}
			for i := range rows {
				sku := "SKU" + strconv.Itoa(i)
				for _, col := range []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"} {
					v := ""
					switch col {
					case "sku":
						v = sku
					case "orig_price", "price":
						v = "100.00"
					}
					form[col] = append(form[col], v)
				}
			}
			before := writes()
			res := b.Post("/prices", form)
			want := http.StatusSeeOther // nothing changed, nothing sent
			if rows > 10_000 {
				want = http.StatusBadRequest
			}
			if res.Status != want || writes() != before {
				t.Errorf("%d rows: status %d (want %d), writes %d", rows, res.Status, want, writes()-before)
			}
			if rows > 10_000 && !strings.Contains(res.Text("[data-testid=error]"), "at most 10000") {
				t.Errorf("10,001 rows: the page does not say why: %q", res.Text("[data-testid=error]"))
			}
		}
	})
}

// TestMassUpdateUnderFaults: 429 storms and 503s during a mass update in
// small chunks; every row ends accounted for exactly once.
func TestMassUpdateUnderFaults(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 2, BulkRetryBudget: 1500 * time.Millisecond})
	b := app.Browser(t)
	b.LoginDemo()
	edit := func(n, delta int) (url.Values, []string) {
		form := b.Get("/prices?limit=20").FormValues("#prices-form")
		for i := range n {
			form["price"][i] = (money(t, form["orig_price"][i]) + 100*int64ToMoney(delta)).Decimal()
		}
		return form, form["sku"][:n]
	}
	account := func(t *testing.T, res *testapp.Page, skus []string) map[string]int {
		t.Helper()
		counts := map[string]int{}
		for _, sku := range skus {
			row := res.Doc.Find(rowSel(sku))
			states := 0
			for _, st := range []string{"accepted", "rejected", "unsent"} {
				if row.HasClass(st) {
					counts[st]++
					states++
				}
			}
			if states != 1 {
				t.Errorf("%s: %d outcomes (classes %q)", sku, states, row.AttrOr("class", ""))
			}
		}
		return counts
	}

	t.Run("429 every other request: paused, resumed, all applied", func(t *testing.T) {
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultRateLimit, RetryAfter: "1", Every: 3})
		defer app.Sandbox.ClearFaults()
		form, skus := edit(6, 1)
		res := b.Post("/prices?limit=20", form)
		if res.Status != http.StatusSeeOther {
			t.Fatalf("status %d, summary %q", res.Status, res.Text("[data-testid=summary]"))
		}
		if got := b.Follow(res).Text("#flash-area"); !strings.Contains(got, "6 prices updated") {
			t.Errorf("flash %q", got)
		}
		_ = skus
	})

	t.Run("503 storm: nothing applied, every row explicitly not sent", func(t *testing.T) {
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultUnavailable, Times: -1})
		defer app.Sandbox.ClearFaults()
		form, skus := edit(5, 2)
		res := b.Post("/prices?limit=20", form)
		if res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", res.Status)
		}
		if c := account(t, res, skus); c["unsent"] != 5 {
			t.Errorf("outcomes %v, want 5 unsent", c)
		}
		if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "5 rows were not sent") {
			t.Errorf("summary %q", got)
		}
	})

}

// TestMassUpdateStopsMidway: a 503 on the second chunk with no retry budget
// left: the first chunk is applied, the rest explicitly not sent, and what
// the page calls applied is exactly what the marketplace has.
func TestMassUpdateStopsMidway(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{ChunkSize: 2, BulkRetryBudget: time.Millisecond})
	b := app.Browser(t)
	b.LoginDemo()
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultUnavailable, Every: 2})
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	skus := form["sku"][:5]
	for i := range skus {
		form["price"][i] = (money(t, form["orig_price"][i]) + 300).Decimal()
	}
	res := b.Post("/prices?limit=20", form)
	app.Sandbox.ClearFaults()
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.Status)
	}
	counts := map[string]int{}
	reload := b.Get("/prices?limit=20")
	for i, sku := range skus {
		row := res.Doc.Find(rowSel(sku))
		n := 0
		for _, st := range []string{"accepted", "rejected", "unsent"} {
			if row.HasClass(st) {
				counts[st]++
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d outcomes", sku, n)
		}
		now := reload.Doc.Find(rowSel(sku) + " [data-testid=current]").Text()
		if applied := now == shownEN(money(t, form["price"][i])); row.HasClass("accepted") != applied {
			t.Errorf("%s: page says accepted=%t, marketplace has %q", sku, row.HasClass("accepted"), now)
		}
	}
	if counts["accepted"] != 2 || counts["unsent"] != 3 {
		t.Errorf("outcomes %v, want 2 accepted and 3 unsent", counts)
	}
	if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "3 rows were not sent") {
		t.Errorf("summary %q", got)
	}
}

func int64ToMoney(n int) apiclient.Money { return apiclient.Money(n) }
