package handlers

import (
	"net/url"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/massupdate"
)

// Fuzz targets for every parser of browser input in this package: the
// draft kept of a mass-update form, local-path targets and the client-IP
// extractor. The price and quantity fields and the form binding are fuzzed
// in massupdate.

// FuzzChangedRowsOnly: the draft kept of a mass-update form (see
// credentialsRejected) never panics and holds only edited rows.
func FuzzChangedRowsOnly(f *testing.F) {
	f.Add("sku=A&orig_price=10&orig_sale=&orig_start=&orig_end=&price=11&sale=&start=&end=", "prices")
	f.Add("sku=A&orig_price=10&orig_sale=&orig_start=&orig_end=&price=10&sale=&start=&end=", "prices")
	f.Add("wh=W1&bc=460&orig_qty=3&orig_status=active&qty=4&status=active", "nomenclature")
	f.Add("wh=&bc=&orig_qty=&orig_status=&qty=&status=", "nomenclature")
	f.Fuzz(func(t *testing.T, raw, form string) {
		v, _ := url.ParseQuery(raw)
		out := changedRowsOnly(form, v)
		switch form {
		case draftPrices:
			rows, err := massupdate.BindPriceInputs(out)
			if err != nil && len(out) > 0 {
				t.Fatalf("draft %v does not bind: %v", out, err)
			}
			for _, r := range rows {
				if !r.Changed() {
					t.Fatalf("unchanged row kept: %+v", r)
				}
			}
		case draftNomenclature:
			rows, err := massupdate.BindStockInputs(out)
			if err != nil && len(out) > 0 {
				t.Fatalf("draft %v does not bind: %v", out, err)
			}
			for _, r := range rows {
				if !r.Changed() {
					t.Fatalf("unchanged row kept: %+v", r)
				}
			}
		}
	})
}

func FuzzLocalOr(f *testing.F) {
	for _, s := range []string{"/orders?status=new", "//evil.example", "/\\evil", "/%09/evil", "%2F%2Fevil", "/%2F%2Fevil", "https://evil.example", "javascript:alert(1)", "/\t/x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := localOr(s, "/")
		if got == "/" {
			return
		}
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") ||
			strings.ContainsAny(got, "\\\t\r\n") || strings.HasPrefix(u.Path, "//") {
			t.Fatalf("localOr accepted %q", got)
		}
	})
}
