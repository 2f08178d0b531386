package format

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestMessageNumbers(t *testing.T) {
	cases := []struct{ in, want string }{
		{"price 2549.90 is more than 90% below the current price 25499.00", "price 2 549.90 is more than 90% below the current price 25 499.00"},
		{"current price 25499.00.", "current price 25 499.00."},
		{"salePrice 1799.5 exceeds price 1500", "salePrice 1 799.50 exceeds price 1500"},
		{"change of -150.00 refused", "change of -150.00 refused"},
		{"drop -15000.00 refused", "drop -15 000.00 refused"},
		{"product MP002XW1CJV9R360 not found", "product MP002XW1CJV9R360 not found"},
		{"barcode 4601234567890 unknown", "barcode 4601234567890 unknown"},
		{"version 1.2.3 and 1.005 and A12.50 and 12.50x", "version 1.2.3 and 1.005 and A12.50 and 12.50x"},
		{"quantity 1000 at WH1.", "quantity 1000 at WH1."},
		{"(1234.00)", "(1 234.00)"},
		{"цена12.00 и 1200.00", "цена12.00 и 1 200.00"},
		{"99999999999999.00 too long", "99999999999999.00 too long"},
		{"", ""},
	}
	for _, c := range cases {
		if got := GridNumbersIn(i18n.EN, c.in); got != c.want {
			t.Errorf("GridNumbersIn(i18n.EN, %q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := MessageNumbersIn(i18n.RU, "current price 25499.00"), "current price 25"+nnbsp+"499,00"; got != want {
		t.Errorf("ru: %q, want %q", got, want)
	}
	if got, want := MessageNumbersIn(i18n.EN, "current price 25499.00"), "current price 25,499.00"; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
}

func TestMessageNumbersBounded(t *testing.T) {
	long := strings.Repeat("1234.00 ", 2000) + "\u202e"
	got := GridNumbersIn(i18n.EN, long)
	if n := utf8.RuneCountInString(got); n > MaxShown+MaxShown/2 {
		t.Fatalf("%d characters shown of a %d-byte message", n, len(long))
	}
	if strings.Contains(got, "\u202e") {
		t.Fatal("bidi control kept")
	}
}

func FuzzMessageNumbers(f *testing.F) {
	f.Add("current price 25499.00")
	f.Add("-1.5.")
	f.Fuzz(func(t *testing.T, s string) {
		got := GridNumbersIn(i18n.EN, s)
		// Only digits, separators and signs are ever inserted or moved:
		// the letters of the message survive in order.
		strip := func(x string) string {
			return strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
					return r
				}
				return -1
			}, x)
		}
		if short, _ := Short(s, MaxShown); strip(got) != strip(short) {
			t.Fatalf("letters changed: %q → %q", s, got)
		}
	})
}
