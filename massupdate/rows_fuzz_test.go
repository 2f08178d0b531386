package massupdate

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// Fuzz targets for the parsers of browser input: price and quantity
// fields and the mass-update form binding.

func FuzzParsePrice(f *testing.F) {
	for _, s := range []string{"", "-1", "0", "1e309", "NaN", "12,50", "١٢٣", "99999999999999999999", "1299.50", "1 299,50", "0.001", "100000000.00", "100000000.01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, msg := ParsePrice(s)
		if len(msg) == 0 && (m <= 0 || m > MaxPrice) {
			t.Fatalf("ParsePrice(%q) accepted %d", s, m)
		}
		if len(msg) > 0 && m != 0 {
			t.Fatalf("ParsePrice(%q) refused but returned %d", s, m)
		}
	})
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"", "-1", "0", "1e309", "NaN", "12,50", "١٢٣", "99999999999999999999", "1000000", "1000001", "007", "-", "+5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, msg := ParseQuantity(s)
		if len(msg) > 0 {
			return
		}
		if q < 0 || q > MaxQuantity || strings.Trim(s, "0123456789") != "" {
			t.Fatalf("ParseQuantity(%q) accepted %d", s, q)
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
		rows, err := BindPriceInputs(form)
		if err != nil {
			return
		}
		if len(rows) > MaxFormRows {
			t.Fatalf("%d rows bound", len(rows))
		}
		for _, r := range rows {
			_ = r.Changed()
			upd, errs := r.Validate()
			if errs == nil && (upd.Price <= 0 || upd.Price > MaxPrice || upd.MarketplaceSKU == "" ||
				(upd.SalePrice != nil && (*upd.SalePrice <= 0 || *upd.SalePrice > upd.Price))) {
				t.Fatalf("invalid row passed validation: %+v", upd)
			}
		}
	})
}

func FuzzBindStockForm(f *testing.F) {
	f.Add("wh=W1&bc=460&orig_qty=3&orig_status=active&qty=4&status=active")
	f.Add("wh=W1&bc=460&orig_qty=3&orig_status=active&qty=-1&status=nope")
	f.Add("wh=&bc=&orig_qty=&orig_status=&qty=&status=")
	f.Fuzz(func(t *testing.T, raw string) {
		form, _ := url.ParseQuery(raw)
		rows, err := BindStockInputs(form)
		if err != nil {
			return
		}
		for _, r := range rows {
			item, errs := r.Validate()
			if errs != nil {
				continue
			}
			if item.WarehouseCode == "" || item.Barcode == "" || (item.Quantity != nil && (*item.Quantity < 0 || *item.Quantity > MaxQuantity)) ||
				(item.Status != "" && !slices.Contains(Statuses, item.Status)) {
				t.Fatalf("invalid row passed validation: %+v", item)
			}
		}
	})
}
