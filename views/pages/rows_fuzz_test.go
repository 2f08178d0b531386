package pages

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// renderBoth renders the hand-written rows and their templ original and
// fails on any difference. Rendering errors count as output too.
func renderBoth(t *testing.T, name string, hand, ref templ.Component) {
	t.Helper()
	var got, want strings.Builder
	gerr := hand.Render(context.Background(), &got)
	werr := ref.Render(context.Background(), &want)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%s: errors differ: hand-written %v, templ %v", name, gerr, werr)
	}
	if got.String() != want.String() {
		t.Fatalf("%s differs from the templ original:\n got %q\nwant %q", name, got.String(), want.String())
	}
}

// pick returns the i-th of the fuzzer's strings, cycling.
func pick(ss []string, i int) string { return ss[i%len(ss)] }

// fuzzStrings splits the fuzzer's input into the values of a row: hostile
// text, markup, invalid UTF-8, controls, bidi characters, empty values.
func fuzzStrings(a, b, c string) []string {
	return []string{a, b, c, a + b, "", strings.Repeat(c, 3), b + "\u202e" + a, "<" + c + ">"}
}

var fuzzSeeds = [][3]string{
	{"Шарф", "MP1", "44"},
	{`<script>alert(1)</script>`, `"><svg onload=alert(2)>`, "javascript:alert(3)"},
	{strings.Repeat("Очень длинное название ", 12), "a\x00b\x1bc", "\xff\xfe"},
	{"", "", ""},
	{"accepted", "rejected", "invalid"},
	{"&amp;", "'", "`"},
}

// FuzzOrderRowsMatchTempl holds the hand-written orders rows byte for byte
// to their templ original for any row data.
func FuzzOrderRowsMatchTempl(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], 3, true)
	}
	f.Fuzz(func(t *testing.T, a, b, c string, n int, flag bool) {
		n = int(uint(n) % 1000)
		ss := fuzzStrings(a, b, c)
		states := []string{"", "ok", "busy", "bad", a}
		var v OrdersView
		v.Bulk = Resend{FormID: pick(ss, 1), Label: pick(ss, 2)}
		for i := range 1 + n%4 {
			v.Rows = append(v.Rows, OrderRow{OrderNr: pick(ss, i), Href: pick(ss, i+1), Status: pick(ss, i+2), Created: pick(ss, i+3),
				Updated: pick(ss, i+4), Sum: pick(ss, i+5), Delivery: pick(ss, i+6), Payment: pick(ss, i+7), Items: n + i, Confirmed: flag,
				Resend: Resend{FormID: pick(ss, i+2), OrderNrs: ss[:i%3], Label: pick(ss, i), State: pick(states, i), Message: pick(ss, i+3),
					RetryIn: (n + i) % 5, RetryAt: pick(ss, i+1), Return: pick(ss, i+4)}})
		}
		renderBoth(t, "orderRows", orderRows(v), orderRowsTempl(v))
	})
}

// FuzzPriceRowsMatchTempl: the same for the prices rows.
func FuzzPriceRowsMatchTempl(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], 2, true)
	}
	f.Fuzz(func(t *testing.T, a, b, c string, n int, flag bool) {
		n = int(uint(n) % 1000)
		ss := fuzzStrings(a, b, c)
		states := []string{"", "accepted", "rejected", "invalid", "unsent", "unknown", a}
		var v PricesView
		for i := range 1 + n%4 {
			r := PriceRow{SKU: pick(ss, i), Name: pick(ss, i+1), Brand: pick(ss, i+2), Size: pick(ss, i+3), Warehouses: pick(ss, i+4),
				Current: pick(ss, i+5), CurrentSale: pick(ss, i+6), UpdateStatus: pick(ss, i+7), OrigPrice: pick(ss, i), OrigSale: pick(ss, i+1),
				OrigStart: pick(ss, i+2), OrigEnd: pick(ss, i+3), Price: pick(ss, i+4), Sale: pick(ss, i+5), Start: pick(ss, i+6), End: pick(ss, i+7),
				Result: RowResult{State: pick(states, i+n), Before: pick(ss, i), After: pick(ss, i+1), Messages: ss[:(i+n)%4]}}
			if flag {
				r.Errors = map[string]string{"price": pick(ss, i), "sale": pick(ss, i+1), "start": pick(ss, i+2), "end": pick(ss, i+3)}
			}
			v.Rows = append(v.Rows, r)
		}
		renderBoth(t, "priceRows", priceRows(v), priceRowsTempl(v))
	})
}

// FuzzNomenclatureRowsMatchTempl: the same for the nomenclature rows.
func FuzzNomenclatureRowsMatchTempl(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], 1, false)
	}
	f.Fuzz(func(t *testing.T, a, b, c string, n int, flag bool) {
		n = int(uint(n) % 1000)
		ss := fuzzStrings(a, b, c)
		states := []string{"", "accepted", "rejected", "invalid", "unsent", "unknown", b}
		var v NomenclatureView
		for i := range 1 + n%4 {
			r := NomenclatureRow{Key: pick(ss, i), Warehouse: pick(ss, i+1), Barcode: pick(ss, i+2), SKU: pick(ss, i+3), Name: pick(ss, i+4),
				Brand: pick(ss, i+5), Size: pick(ss, i+6), Price: pick(ss, i+7), SalePrice: pick(ss, i), Quantity: pick(ss, i+1),
				OrigQuantity: pick(ss, i+2), Status: pick(ss, i+3), OrigStatus: pick(ss, i+4), LiveStatus: pick(ss, i+5),
				StatusOptions: []Option{{Value: pick(ss, i), Label: pick(ss, i+1)}, {Value: pick(ss, i+3), Label: pick(ss, i+2)}}[:(i+n)%3],
				Result:        RowResult{State: pick(states, i+n), Before: pick(ss, i), After: pick(ss, i+1), Messages: ss[:(i+n)%4]}}
			if flag {
				r.Errors = map[string]string{"quantity": pick(ss, i), "status": pick(ss, i+1)}
			}
			v.Rows = append(v.Rows, r)
		}
		renderBoth(t, "nomenclatureRows", nomenclatureRows(v), nomenclatureRowsTempl(v))
	})
}
