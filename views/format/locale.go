package format

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	// Zone data in the binary: a machine (or container) without
	// /usr/share/zoneinfo still knows Europe/Moscow.
	_ "time/tzdata"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// DefaultZone is the zone times are shown in unless SELLERDESK_TIMEZONE
// names another: the marketplace's and its sellers' working day.
const DefaultZone = "Europe/Moscow"

// defaultZone is DefaultZone loaded (the zone data is in the binary).
var defaultZone = sync.OnceValue(func() *time.Location {
	loc, err := time.LoadLocation(DefaultZone)
	if err != nil {
		panic("format: " + err.Error())
	}
	return loc
})

// Locale is how a reader reads numbers and times: the language, and the
// zone times are shown in (nil is DefaultZone).
type Locale struct {
	Lang i18n.Lang
	Zone *time.Location
}

// zone is the locale's zone.
func (l Locale) zone() *time.Location {
	if l.Zone == nil {
		return defaultZone()
	}
	return l.Zone
}

// In is t in the locale's zone (a download's date, say).
func (l Locale) In(t time.Time) time.Time { return t.In(l.zone()) }

type zoneKey struct{}

// WithZone returns ctx carrying the zone the request's pages show times in
// (the dashboard's setting, put there by its locale middleware).
func WithZone(ctx context.Context, loc *time.Location) context.Context {
	if loc == nil {
		return ctx
	}
	return context.WithValue(ctx, zoneKey{}, loc)
}

// LocaleOf is the locale of a request: the language i18n.WithLang put in
// ctx and the zone WithZone put there (DefaultZone without one).
func LocaleOf(ctx context.Context) Locale {
	loc, _ := ctx.Value(zoneKey{}).(*time.Location)
	return Locale{Lang: i18n.LangOf(ctx), Zone: loc}
}

// LoadZone resolves a zone name (SELLERDESK_TIMEZONE); an empty name is
// DefaultZone, an unknown one an error.
func LoadZone(name string) (*time.Location, error) {
	if name == "" {
		name = DefaultZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	return loc, nil
}

// ZoneLabel names the zone of t as a reader expects it: МСК / MSK for
// Moscow, UTC for UTC, else the zone's abbreviation (CET) or, where it has
// none, its offset (UTC+05:00).
func ZoneLabel(l Locale, t time.Time) string {
	loc := l.zone()
	switch loc.String() {
	case "Europe/Moscow":
		if l.Lang == i18n.RU {
			return "МСК"
		}
		return "MSK"
	case "UTC", "Etc/UTC":
		return "UTC"
	}
	abbr := t.In(loc).Format("MST")
	if abbr == "" || strings.ContainsAny(abbr[:1], "+-0123456789") {
		return "UTC" + t.In(loc).Format("-07:00")
	}
	return abbr
}

// groupSep and decimalSep are how a language writes 1 799,50 / 1,799.50:
// Russian puts a narrow no-break space (U+202F) between thousands and a
// comma before the kopecks.
func seps(l i18n.Lang) (group, decimal string) {
	if l == i18n.EN {
		return ",", "."
	}
	return "\u202f", ","
}

// MoneyIn formats kopecks as roubles with two decimals the way l writes
// numbers: 179950 → "1 799,50" (ru, U+202F) / "1,799.50" (en).
func MoneyIn(l i18n.Lang, kopecks int64) string {
	group, decimal := seps(l)
	var buf [48]byte // 19 digits, 6 groups of up to 3 bytes, sign, decimals
	return string(appendMoney(buf[:0], kopecks, group, decimal))
}

// GridMoneyIn is an amount as the job grid and its files write it: as
// MoneyIn, but English groups thousands with a space ("1 799.50"), so a
// comma never reads as a separator between values.
func GridMoneyIn(l i18n.Lang, kopecks int64) string {
	if l != i18n.EN {
		return MoneyIn(l, kopecks)
	}
	var buf [48]byte
	return string(appendMoney(buf[:0], kopecks, " ", "."))
}

// AppendMoneyIn appends MoneyIn(l, kopecks) to b, for a caller that
// writes many amounts into one buffer.
func AppendMoneyIn(b []byte, l i18n.Lang, kopecks int64) []byte {
	group, decimal := seps(l)
	return appendMoney(b, kopecks, group, decimal)
}

// appendMoney appends kopecks as roubles with two decimals, with group
// between thousands and decimal before the kopecks.
func appendMoney(b []byte, kopecks int64, group, decimal string) []byte {
	u := uint64(kopecks)
	if kopecks < 0 {
		b = append(b, '-')
		u = uint64(-kopecks)
	}
	whole, frac := u/100, u%100
	var digits [20]byte
	d := strconv.AppendUint(digits[:0], whole, 10)
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, group...)
		}
		b = append(b, c)
	}
	b = append(b, decimal...)
	return append(b, byte('0'+frac/10), byte('0'+frac%10))
}

// PriceIn is MoneyIn with the currency's sign after a no-break space:
// "1 799,50 ₽" / "1,799.50 ₽".
func PriceIn(l i18n.Lang, kopecks int64, currency string) string {
	return MoneyIn(l, kopecks) + "\u00a0" + Currency(currency)
}

// ThousandsIn formats a count grouped by thousands: 102400 → "102 400"
// (ru, U+202F) / "102,400" (en).
func ThousandsIn(l i18n.Lang, n int) string {
	group, _ := seps(l)
	var buf [48]byte
	b := appendMoney(buf[:0], int64(n)*100, group, ".")
	return string(b[:len(b)-3])
}

var enMonths = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// DateIn formats the day of t in the locale's zone: "22.11.2026" (ru) /
// "Nov 22, 2026" (en). The zero time is an empty string.
func DateIn(l Locale, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(l.zone())
	if l.Lang == i18n.EN {
		return fmt.Sprintf("%s %d, %d", enMonths[t.Month()-1], t.Day(), t.Year())
	}
	return t.Format("02.01.2006")
}

// TimeIn formats the time of day of t in the locale's zone, 24-hour in
// both languages and always labelled: "14:05 МСК" / "14:05 MSK".
func TimeIn(l Locale, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(l.zone()).Format("15:04") + "\u00a0" + ZoneLabel(l, t)
}

// DateTimeIn is the date and the labelled time: "22.11.2026 14:05 МСК" /
// "Nov 22, 2026 14:05 MSK".
func DateTimeIn(l Locale, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return DateIn(l, t) + " " + TimeIn(l, t)
}

// ClockIn is the time of day with seconds, labelled, for "try again at"
// messages: "14:05:09 МСК".
func ClockIn(l Locale, t time.Time) string {
	return t.In(l.zone()).Format("15:04:05") + "\u00a0" + ZoneLabel(l, t)
}
