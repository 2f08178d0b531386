package massupdate

import (
	"net/url"
	"testing"
)

// TestJobForms: confirmations by number, a value that is no number
// ignored; edits by row and field, bounded, other fields ignored.
func TestJobForms(t *testing.T) {
	c := ConfirmationsOf(url.Values{"confirm_all": {"1"}, "confirm": {"3", "x", "7"}})
	if !c.All || len(c.Rows) != 2 || !c.Rows[3] || !c.Rows[7] {
		t.Fatalf("confirmations %+v", c)
	}
	if c := ConfirmationsOf(url.Values{}); c.All || len(c.Rows) != 0 {
		t.Fatalf("none %+v", c)
	}
	e := EditsOf(url.Values{"edit_2_price": {"12345"}, "edit_2_sale": {"1"}, "edit_x_price": {"9"}, "other": {"1"}}, func(s string) string { return s[:min(len(s), 3)] })
	if len(e) != 1 || e[2]["price"] != "123" || e[2]["sale"] != "1" {
		t.Fatalf("edits %+v", e)
	}
}
