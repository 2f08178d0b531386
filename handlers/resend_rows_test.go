package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// TestBulkResendRefreshesTheRowsItSent: a bulk resend answered for htmx
// carries, beside the bulk control, each sent order's own control as a
// reload would show it (its button waiting while the marketplace
// processes) and its checkbox unticked, both swapped out of band into
// their rows.
func TestBulkResendRefreshesTheRowsItSent(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	nrs := orderNumbers(t, b, 2)
	b.HTMX = true
	p := b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "orderNr": nrs, "return": {"/orders"}})
	if p.Status != http.StatusOK {
		t.Fatalf("bulk resend: %d", p.Status)
	}
	if p.Doc.Find("#resend-bulk").Length() != 1 {
		t.Error("the answer lacks the bulk control")
	}
	for _, nr := range nrs {
		row := p.Doc.Find("#resend-" + nr)
		if row.Length() != 1 || row.AttrOr("hx-swap-oob", "") != "true" {
			t.Errorf("order %s: no control of its own swapped out of band (%d)", nr, row.Length())
			continue
		}
		if _, disabled := row.Find("button").Attr("disabled"); !disabled {
			t.Errorf("order %s: its resend button is enabled right after the resend", nr)
		}
		pick := p.Doc.Find("#pick-" + nr)
		if pick.AttrOr("hx-swap-oob", "") != "true" || pick.AttrOr("value", "") != nr {
			t.Errorf("order %s: its checkbox is not replaced", nr)
		}
		if _, checked := pick.Attr("checked"); checked {
			t.Errorf("order %s: its checkbox stays ticked", nr)
		}
	}
	// The list gives each row's checkbox the id the answer swaps.
	b.HTMX = false
	if l := b.Get("/orders"); l.Doc.Find("#pick-"+nrs[0]).Length() != 1 {
		t.Errorf("the orders list has no #pick-%s", nrs[0])
	}
}
