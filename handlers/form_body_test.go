package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestSaveOnStatusFilteredList: the nomenclature form of a list filtered
// by status keeps the list's query in its action; the save reads the
// form's body alone (the filter is no row value), reaches the
// marketplace, and lands back on the filtered list.
func TestSaveOnStatusFilteredList(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	p := b.Get("/nomenclature?status=rejected")
	action, _ := p.Doc.Find("#nomenclature-form").Attr("action")
	if p.Status != http.StatusOK || !strings.Contains(action, "status=rejected") {
		t.Fatalf("filtered list: %d, form action %q", p.Status, action)
	}
	form := p.FormValues("#nomenclature-form")
	if len(form["qty"]) == 0 {
		t.Fatal("no rejected records")
	}
	qty, _ := strconv.Atoi(form["qty"][0])
	qty++
	form["qty"][0] = strconv.Itoa(qty)
	wh, bc := form["wh"][0], form["bc"][0]
	stores := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
	res := b.Post(action, form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("save on the filtered list: %d %q, want 303", res.Status, res.Text(".flash, main"))
	}
	if res.Location != action {
		t.Errorf("after the save: %q, want the filtered list %q", res.Location, action)
	}
	if got, _, ok := app.Sandbox.Stock(1001, wh, bc); !ok || got != qty {
		t.Errorf("the marketplace holds %d for %s|%s, want %d", got, wh, bc, qty)
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] - stores; n != 1 {
		t.Errorf("%d store requests, want 1", n)
	}
}
