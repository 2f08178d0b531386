package format

import (
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

const (
	nnbsp = "\u202f" // narrow no-break space: between thousands in Russian
	nbsp  = "\u00a0" // no-break space: before ₽ and the zone label
)

func TestMoneyByLocale(t *testing.T) {
	cases := []struct {
		l       i18n.Lang
		kopecks int64
		cur     string
		want    string
	}{
		{i18n.RU, 179950, "RUB", "1" + nnbsp + "799,50" + nbsp + "₽"},
		{i18n.EN, 179950, "RUB", "1,799.50" + nbsp + "₽"},
		{i18n.RU, 5, "", "0,05" + nbsp + "₽"},
		{i18n.EN, 5, "", "0.05" + nbsp + "₽"},
		{i18n.RU, 123456789, "KZT", "1" + nnbsp + "234" + nnbsp + "567,89" + nbsp + "₸"},
		{i18n.EN, 123456789, "BYN", "1,234,567.89" + nbsp + "Br"},
		{i18n.RU, -4460310, "", "-44" + nnbsp + "603,10" + nbsp + "₽"},
		{i18n.EN, -4460310, "", "-44,603.10" + nbsp + "₽"},
		{i18n.RU, 99900, "", "999,00" + nbsp + "₽"},
	}
	for _, c := range cases {
		if got := PriceIn(c.l, c.kopecks, c.cur); got != c.want {
			t.Errorf("PriceIn(%s, %d, %q) = %q, want %q", c.l, c.kopecks, c.cur, got, c.want)
		}
	}
	if got := ThousandsIn(i18n.RU, 102400); got != "102"+nnbsp+"400" {
		t.Errorf("ThousandsIn ru = %q", got)
	}
	if got := ThousandsIn(i18n.EN, 1234567); got != "1,234,567" {
		t.Errorf("ThousandsIn en = %q", got)
	}
	// The old helpers other pages call are unchanged.
	if Money(123450) != "1 234.50" || MoneyInput(123450) != "1234.50" {
		t.Error("Money or MoneyInput changed")
	}
}

func withZone(t *testing.T, name string) {
	t.Helper()
	old := Zone()
	loc, err := LoadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	SetZone(loc)
	t.Cleanup(func() { SetZone(old) })
}

func TestDatesAndTimesByLocaleInMoscow(t *testing.T) {
	withZone(t, "")
	if Zone().String() != "Europe/Moscow" {
		t.Fatalf("default zone %s", Zone())
	}
	// 11:05 UTC is 14:05 in Moscow; 22:30 UTC on the 21st is already the 22nd there.
	at := time.Date(2026, 11, 22, 11, 5, 9, 0, time.UTC)
	late := time.Date(2026, 11, 21, 22, 30, 0, 0, time.UTC)
	cases := []struct {
		name, got, want string
	}{
		{"DateIn ru", DateIn(i18n.RU, at), "22.11.2026"},
		{"DateIn en", DateIn(i18n.EN, at), "Nov 22, 2026"},
		{"DateIn ru across midnight", DateIn(i18n.RU, late), "22.11.2026"},
		{"DateIn en across midnight", DateIn(i18n.EN, late), "Nov 22, 2026"},
		{"DateIn en single digit", DateIn(i18n.EN, time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)), "Mar 5, 2026"},
		{"DateIn ru single digit", DateIn(i18n.RU, time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)), "05.03.2026"},
		{"TimeIn ru", TimeIn(i18n.RU, at), "14:05" + nbsp + "МСК"},
		{"TimeIn en", TimeIn(i18n.EN, at), "14:05" + nbsp + "MSK"},
		{"DateTimeIn ru", DateTimeIn(i18n.RU, at), "22.11.2026 14:05" + nbsp + "МСК"},
		{"DateTimeIn en", DateTimeIn(i18n.EN, at), "Nov 22, 2026 14:05" + nbsp + "MSK"},
		{"ClockIn ru", ClockIn(i18n.RU, at), "14:05:09" + nbsp + "МСК"},
		{"zero date", DateIn(i18n.RU, time.Time{}), ""},
		{"zero datetime", DateTimeIn(i18n.EN, time.Time{}), ""},
		{"zero time", TimeIn(i18n.EN, time.Time{}), ""},
		// A time given in another zone is shown in the configured one.
		{"TimeIn from +05", TimeIn(i18n.RU, time.Date(2026, 11, 22, 16, 5, 0, 0, time.FixedZone("", 5*3600))), "14:05" + nbsp + "МСК"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestOtherZonesAreLabelled(t *testing.T) {
	at := time.Date(2026, 11, 22, 11, 5, 0, 0, time.UTC)
	cases := []struct{ zone, want string }{
		{"UTC", "11:05" + nbsp + "UTC"},
		{"Europe/Berlin", "12:05" + nbsp + "CET"},
		{"Asia/Almaty", "16:05" + nbsp + "UTC+05:00"}, // no abbreviation: the offset
		{"America/New_York", "06:05" + nbsp + "EST"},
	}
	for _, c := range cases {
		withZone(t, c.zone)
		if got := TimeIn(i18n.EN, at); got != c.want {
			t.Errorf("%s: TimeIn = %q, want %q", c.zone, got, c.want)
		}
	}
	if _, err := LoadZone("Mars/Olympus"); err == nil {
		t.Error("an unknown zone was accepted")
	}
}

// TestMoneyInOneString: MoneyIn writes what replacing Money's separators
// wrote, in one allocation.
func TestMoneyInOneString(t *testing.T) {
	for _, k := range []int64{0, 1, 9, 10, 99, 100, 105, 99999, 100000, 179950, 123456789, -1, -100, -4460310, 1 << 62, -(1 << 62), -1 << 63} {
		for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
			group, decimal := seps(l)
			want := strings.ReplaceAll(strings.Replace(Money(k), ".", decimal, 1), " ", group)
			if got := MoneyIn(l, k); got != want {
				t.Errorf("MoneyIn(%s, %d) = %q, want %q", l, k, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = MoneyIn(i18n.RU, 123456789) }); n > 1 {
		t.Errorf("MoneyIn allocates %v times", n)
	}
}
