package handlers

import (
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// Fuzz targets for every parser of browser input in this package: price
// and quantity fields, the mass-update form binding, local-path targets
// and the client-IP extractor.

func FuzzParsePrice(f *testing.F) {
	for _, s := range []string{"", "-1", "0", "1e309", "NaN", "12,50", "١٢٣", "99999999999999999999", "1299.50", "1 299,50", "0.001", "100000000.00", "100000000.01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, msg := parsePrice(s)
		if msg == "" && (m <= 0 || m > maxPrice) {
			t.Fatalf("parsePrice(%q) accepted %d", s, m)
		}
		if msg != "" && m != 0 {
			t.Fatalf("parsePrice(%q) refused but returned %d", s, m)
		}
	})
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"", "-1", "0", "1e309", "NaN", "12,50", "١٢٣", "99999999999999999999", "1000000", "1000001", "007", "-", "+5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, msg := parseQuantity(s)
		if msg != "" {
			return
		}
		if q < 0 || q > maxQuantity || strings.Trim(s, "0123456789") != "" {
			t.Fatalf("parseQuantity(%q) accepted %d", s, q)
		}
	})
}

func FuzzBindPriceForm(f *testing.F) {
	f.Add("sku=A&orig_price=10&orig_sale=&orig_start=&orig_end=&price=11&sale=&start=&end=")
	f.Add("sku=A&sku=A&orig_price=10&orig_price=10&orig_sale=&orig_sale=&orig_start=&orig_start=&orig_end=&orig_end=&price=-1&price=1e309&sale=&sale=5&start=&start=2026-13-01&end=&end=x")
	f.Add("sku=A&price=1")
	f.Add("")
	f.Fuzz(func(t *testing.T, raw string) {
		form, _ := url.ParseQuery(raw)
		rows, err := bindPriceInputs(form)
		if err != nil {
			return
		}
		if len(rows) > maxFormRows {
			t.Fatalf("%d rows bound", len(rows))
		}
		for _, r := range rows {
			_ = r.changed()
			upd, errs := r.validate()
			if errs == nil && (upd.Price <= 0 || upd.Price > maxPrice || upd.MarketplaceSKU == "" ||
				(upd.SalePrice != nil && (*upd.SalePrice <= 0 || *upd.SalePrice > upd.Price))) {
				t.Fatalf("invalid row passed validation: %+v", upd)
			}
		}
		_ = changedRowsOnly("prices", form)
	})
}

func FuzzBindStockForm(f *testing.F) {
	f.Add("wh=W1&bc=460&orig_qty=3&orig_status=active&qty=4&status=active")
	f.Add("wh=W1&bc=460&orig_qty=3&orig_status=active&qty=-1&status=nope")
	f.Add("wh=&bc=&orig_qty=&orig_status=&qty=&status=")
	f.Fuzz(func(t *testing.T, raw string) {
		form, _ := url.ParseQuery(raw)
		rows, err := bindStockInputs(form)
		if err != nil {
			return
		}
		for _, r := range rows {
			item, errs := r.validate()
			if errs != nil {
				continue
			}
			if item.WarehouseCode == "" || item.Barcode == "" || (item.Quantity != nil && (*item.Quantity < 0 || *item.Quantity > maxQuantity)) ||
				(item.Status != "" && !slices.Contains(nomenclatureStatuses, item.Status)) {
				t.Fatalf("invalid row passed validation: %+v", item)
			}
		}
		_ = changedRowsOnly("nomenclature", form)
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

func FuzzClientIP(f *testing.F) {
	trusted, _ := ParseTrustedProxies("10.0.0.0/8")
	f.Add("10.0.0.1:1", "1.2.3.4, 10.0.0.2")
	f.Add("203.0.113.1:1", "1.2.3.4")
	f.Add("garbage", ", ,,")
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := httptest.NewRequest("POST", "/login", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", xff)
		ip := clientIP(r, trusted)
		peer := remoteAddr(remote)
		if !isTrusted(peer, trusted) && ip != peer {
			t.Fatalf("untrusted peer %v: header chose %v", peer, ip)
		}
	})
}
