package format

import (
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestGridMoney(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0.00"}, {5, "0.05"}, {50, "0.50"}, {123450, "1 234.50"},
		{100000000, "1 000 000.00"}, {-123456, "-1 234.56"}, {99, "0.99"},
	}
	for _, tt := range tests {
		if got := GridMoneyIn(i18n.EN, tt.in); got != tt.want {
			t.Errorf("GridMoneyIn(en, %d) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := MoneyInput(123450); got != "1234.50" {
		t.Errorf("MoneyInput = %q", got)
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{-time.Second, "expired"}, {0, "expired"}, {45 * time.Second, "45 s"},
		{14*time.Minute + 59*time.Second, "14 min"}, {2 * time.Hour, "2 h"}, {125 * time.Minute, "2 h 5 min"},
	}
	for _, tt := range tests {
		if got := Duration(tt.in); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShort(t *testing.T) {
	got, cut := Short("abc", 5)
	if got != "abc" || cut {
		t.Errorf("Short(abc) = %q, %v", got, cut)
	}
	got, cut = Short("Кроссовки беговые", 9)
	if got != "Кроссовки…" || !cut {
		t.Errorf("Short(cyrillic) = %q, %v", got, cut)
	}
	got, _ = Short("a\x00b\u2028c\td", 50)
	if got != "a b c d" {
		t.Errorf("Short(control) = %q", got)
	}
	long := strings.Repeat("x", 100_000)
	got, cut = Short(long, 80)
	if !cut || len([]rune(got)) != 81 {
		t.Errorf("Short(100KB) len=%d cut=%v", len([]rune(got)), cut)
	}
	got, _ = Short("bad\xffutf8", 50)
	if got != "bad utf8" {
		t.Errorf("Short(invalid utf8) = %q", got)
	}
}

func TestStatus(t *testing.T) {
	if StatusTone("delivered") != ToneOK || StatusTone("never-seen") != ToneNeutral {
		t.Error("StatusTone mapping broken")
	}
}

func TestCurrency(t *testing.T) {
	for in, want := range map[string]string{"RUB": "₽", "rub": "₽", "": "₽", "RUR": "₽", "BYN": "Br", "KZT": "₸", "usd": "USD", "<b>EURO-LONG-CODE</b>": "<B>EURO-…"} {
		if got := Currency(in); got != want {
			t.Errorf("Currency(%q) = %q, want %q", in, got, want)
		}
	}
}
