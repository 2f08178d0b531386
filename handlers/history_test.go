package handlers_test

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// loginAs logs in with a display name, as a person sharing a login would.
func loginAs(t *testing.T, b *testapp.Browser, client, secret, seller, env, name string) {
	t.Helper()
	p := b.Post("/login", url.Values{"client_id": {client}, "client_secret": {secret}, "seller_id": {seller}, "environment": {env}, "display_name": {name}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("login as %s: %d %q", client, p.Status, p.Text("#login-error"))
	}
}

func getCSV(t *testing.T, app *testapp.App, b *testapp.Browser, path string) (*http.Response, string) {
	t.Helper()
	resp, err := b.Client.Get(app.URL + b.InAccount(path))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(data)
}

// TestHistoryRecordsFormEdits: a price edit and a stock edit made in the
// forms appear in the history with the user, the environment, old → new
// and the marketplace's answer (accepted, and refused with its reason);
// another seller's session and the same seller's other environment never
// see them; search and the CSV export work; nothing can be deleted.
func TestHistoryRecordsFormEdits(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Anna Petrova")

	// A price edit: one row accepted, one refused (a 99 % drop).
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	okSKU, badSKU := form["sku"][0], form["sku"][1]
	oldOK := money(t, form["orig_price"][0])
	form["price"][0], form["sale"][0] = (oldOK + 100).Decimal(), ""
	form["price"][1], form["sale"][1] = "1.00", ""
	if p := b.Post("/prices?limit=20", form); p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("price submit: %d", p.Status)
	}
	// A stock edit: five more pieces of the first row.
	sform := b.Get("/nomenclature?limit=20").FormValues("#nomenclature-form")
	q, _ := strconv.Atoi(sform["orig_qty"][0])
	sform["qty"][0] = strconv.Itoa(q + 5)
	stockKey := sform["wh"][0] + "|" + sform["bc"][0]
	if p := b.Post("/nomenclature?limit=20", sform); p.Status != http.StatusSeeOther {
		t.Fatalf("stock submit: %d", p.Status)
	}

	h := b.Get("/history")
	if h.Status != http.StatusOK {
		t.Fatalf("history: %d", h.Status)
	}
	entries := h.Doc.Find("#history-table tbody tr")
	if entries.Length() != 2 {
		t.Fatalf("%d entries, want 2: %q", entries.Length(), h.Text("#history-table"))
	}
	stock, price := entries.Eq(0), entries.Eq(1) // newest first
	if stock.AttrOr("data-kind", "") != "stock" || price.AttrOr("data-kind", "") != "price" {
		t.Fatalf("order: %q then %q", stock.AttrOr("data-kind", ""), price.AttrOr("data-kind", ""))
	}
	pt := price.Text()
	for _, want := range []string{"Anna Petrova", "demo-1001", "production · seller 1001", okSKU, badSKU, enMoney(oldOK), " → " + enMoney(oldOK+100), "accepted", "refused", "90%", "partly done"} {
		if !strings.Contains(pt, want) {
			t.Errorf("price entry lacks %q: %q", want, pt)
		}
	}
	st := stock.Text()
	for _, want := range []string{"Anna Petrova", "production · seller 1001", stockKey, strconv.Itoa(q) + " pcs", strconv.Itoa(q+5) + " pcs", "accepted"} {
		if !strings.Contains(st, want) {
			t.Errorf("stock entry lacks %q: %q", want, st)
		}
	}
	if h.Has("#history-table form") || h.Has("button") && strings.Contains(strings.ToLower(h.Text("#history-table")), "delete") {
		t.Error("the history offers a way to delete")
	}

	t.Run("search, kind and dates", func(t *testing.T) {
		cases := map[string]int{
			"/history?q=" + url.QueryEscape(badSKU):  1,
			"/history?q=anna+petrova":                2,
			"/history?q=90%25":                       1,
			"/history?q=no-such-thing":               0,
			"/history?kind=stock":                    1,
			"/history?kind=resend":                   0,
			"/history?from=2000-01-01&to=2000-01-02": 0,
			"/history?from=2000-01-01":               2,
		}
		for path, want := range cases {
			p := b.Get(path)
			if n := p.Doc.Find("#history-table tbody tr").Length(); p.Status != http.StatusOK || n != want {
				t.Errorf("%s: %d, %d entries, want %d", path, p.Status, n, want)
			}
		}
		if p := b.Get("/history?from=yesterday"); !strings.Contains(p.Text("[data-testid=history-problem]"), "not understood") {
			t.Error("a bad date is not named")
		}
	})

	t.Run("export", func(t *testing.T) {
		resp, body := getCSV(t, app, b, "/history/export.csv?kind=price")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"))
		}
		lines := strings.Split(strings.TrimSpace(body), "\r\n")
		if len(lines) != 3 || !strings.Contains(body, okSKU) || !strings.Contains(body, badSKU) || strings.Contains(body, stockKey) {
			t.Errorf("export of the price edit: %q", body)
		}
		if strings.Contains(body, "sandbox-secret") {
			t.Error("the secret reached the export")
		}
	})

	t.Run("no delete", func(t *testing.T) {
		for _, r := range app.Handler.Routes() {
			if strings.HasPrefix(r.Path, "/history") && r.Method != http.MethodGet {
				t.Errorf("route %s %s changes the history", r.Method, r.Path)
			}
		}
		if p := b.Post("/history/1/delete", url.Values{}); p.Status != http.StatusNotFound && p.Status != http.StatusMethodNotAllowed {
			t.Errorf("POST /history/1/delete: %d", p.Status)
		}
	})

	t.Run("other seller, other environment", func(t *testing.T) {
		other := app.Browser(t)
		loginAs(t, other, "demo-1002", "sandbox-secret-1002", "1002", "production", "Someone Else")
		if p := other.Get("/history"); p.Has("#history-table") || strings.Contains(p.Text("main"), okSKU) {
			t.Errorf("seller 1002 sees seller 1001's history: %q", p.Text("main"))
		}
		if _, body := getCSV(t, app, other, "/history/export.csv"); strings.Contains(body, okSKU) || strings.Contains(body, "Anna") {
			t.Error("seller 1002's export holds seller 1001's changes")
		}
		test := app.Browser(t)
		loginAs(t, test, "demo-1001", "sandbox-secret-1001", "1001", "test", "Anna Petrova")
		if p := test.Get("/history"); p.Has("#history-table") {
			t.Errorf("the test environment sees production's history: %q", p.Text("#history-table"))
		}
	})
	if strings.Contains(app.Logs.String(), "sandbox-secret-1001") {
		t.Error("the secret reached the logs")
	}
}

// TestHistoryRecordsCardPrices: in the lamoda profile, where prices are
// set per product card, a price edit is recorded per card with old → new.
func TestHistoryRecordsCardPrices(t *testing.T) {
	t.Parallel()
	app, _ := newCardApp(t, false)
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	card := form["sku"][0]
	old := money(t, form["orig_price"][0])
	form["price"][0], form["sale"][0] = (old + 100).Decimal(), ""
	if p := b.Post("/prices?limit=20", form); p.Status != http.StatusSeeOther {
		t.Fatalf("card price submit: %d %q", p.Status, p.Text("[data-testid=summary]"))
	}
	h := b.Get("/history?kind=price")
	entry := h.Doc.Find("#history-table tbody tr")
	if entry.Length() != 1 {
		t.Fatalf("%d price entries, want 1", entry.Length())
	}
	if got := entry.Text(); !strings.Contains(got, card) || !strings.Contains(got, " → "+enMoney(old+100)) || !strings.Contains(got, "accepted") {
		t.Errorf("card price entry: %q", got)
	}
}
