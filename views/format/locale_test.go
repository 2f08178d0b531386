package format

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
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
	if GridMoneyIn(i18n.EN, 123450) != "1 234.50" || MoneyInput(123450) != "1234.50" {
		t.Error("Money or MoneyInput changed")
	}
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := LoadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestDatesAndTimesByLocaleInMoscow(t *testing.T) {
	ru, en := Locale{Lang: i18n.RU}, Locale{Lang: i18n.EN, Zone: zone(t, "")} // no zone is DefaultZone, as "" is
	if en.Zone.String() != "Europe/Moscow" {
		t.Fatalf("default zone %s", en.Zone)
	}
	// 11:05 UTC is 14:05 in Moscow; 22:30 UTC on the 21st is already the 22nd there.
	at := time.Date(2026, 11, 22, 11, 5, 9, 0, time.UTC)
	late := time.Date(2026, 11, 21, 22, 30, 0, 0, time.UTC)
	cases := []struct {
		name, got, want string
	}{
		{"DateIn ru", DateIn(ru, at), "22.11.2026"},
		{"DateIn en", DateIn(en, at), "Nov 22, 2026"},
		{"DateIn ru across midnight", DateIn(ru, late), "22.11.2026"},
		{"DateIn en across midnight", DateIn(en, late), "Nov 22, 2026"},
		{"DateIn en single digit", DateIn(en, time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)), "Mar 5, 2026"},
		{"DateIn ru single digit", DateIn(ru, time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)), "05.03.2026"},
		{"TimeIn ru", TimeIn(ru, at), "14:05" + nbsp + "МСК"},
		{"TimeIn en", TimeIn(en, at), "14:05" + nbsp + "MSK"},
		{"DateTimeIn ru", DateTimeIn(ru, at), "22.11.2026 14:05" + nbsp + "МСК"},
		{"DateTimeIn en", DateTimeIn(en, at), "Nov 22, 2026 14:05" + nbsp + "MSK"},
		{"ClockIn ru", ClockIn(ru, at), "14:05:09" + nbsp + "МСК"},
		{"zero date", DateIn(ru, time.Time{}), ""},
		{"zero datetime", DateTimeIn(en, time.Time{}), ""},
		{"zero time", TimeIn(en, time.Time{}), ""},
		// A time given in another zone is shown in the configured one.
		{"TimeIn from +05", TimeIn(ru, time.Date(2026, 11, 22, 16, 5, 0, 0, time.FixedZone("", 5*3600))), "14:05" + nbsp + "МСК"},
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
		if got := TimeIn(Locale{Lang: i18n.EN, Zone: zone(t, c.zone)}, at); got != c.want {
			t.Errorf("%s: TimeIn = %q, want %q", c.zone, got, c.want)
		}
	}
	if _, err := LoadZone("Mars/Olympus"); err == nil {
		t.Error("an unknown zone was accepted")
	}
}

// TestLocaleOfRequest: a request's locale is its language and the zone the
// dashboard's setting put in its context; without one, DefaultZone.
func TestLocaleOfRequest(t *testing.T) {
	at := time.Date(2026, 11, 22, 11, 5, 0, 0, time.UTC)
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	if got := TimeIn(LocaleOf(ctx), at); got != "14:05"+nbsp+"МСК" {
		t.Errorf("no zone in the context: %q, want Moscow's time", got)
	}
	berlin := WithZone(ctx, zone(t, "Europe/Berlin"))
	if l := LocaleOf(berlin); l.Lang != i18n.RU || TimeIn(l, at) != "12:05"+nbsp+"CET" {
		t.Errorf("the configured zone: %+v reads %q", l, TimeIn(l, at))
	}
	if WithZone(ctx, nil) != ctx {
		t.Error("a nil zone changed the context")
	}
}

// TestMoneyInOneString: MoneyIn writes what replacing Money's separators
// wrote, in one allocation.
func TestMoneyInOneString(t *testing.T) {
	for _, k := range []int64{0, 1, 9, 10, 99, 100, 105, 99999, 100000, 179950, 123456789, -1, -100, -4460310, 1 << 62, -(1 << 62), -1 << 63} {
		for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
			group, decimal := seps(l)
			want := strings.ReplaceAll(strings.Replace(GridMoneyIn(i18n.EN, k), ".", decimal, 1), " ", group)
			if got := MoneyIn(l, k); got != want {
				t.Errorf("MoneyIn(%s, %d) = %q, want %q", l, k, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = MoneyIn(i18n.RU, 123456789) }); n > 1 {
		t.Errorf("MoneyIn allocates %v times", n)
	}
}
