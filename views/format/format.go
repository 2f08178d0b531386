// Package format holds the plain, tested functions that turn values into the
// text pages show, by locale (the reader's language and, for times, the
// zone: Locale, LocaleOf): money, dates, messages, durations, status badges
// and shortened untrusted strings.
package format

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Currency is the sign of a currency code as lists show it (RUB → ₽); an
// unknown code is shown as its upper-case code, and none as ₽ (the
// marketplace's roubles).
func Currency(code string) string {
	switch c := strings.ToUpper(strings.TrimSpace(code)); c {
	case "", "RUB", "RUR":
		return "₽"
	case "BYN":
		return "Br"
	case "KZT":
		return "₸"
	default:
		s, _ := Short(c, 8)
		return s
	}
}

// MoneyInputIn is MoneyInput with l's decimal mark: "1234,50" in a
// Russian field, "1234.50" in an English one; the price parser reads both.
func MoneyInputIn(l i18n.Lang, kopecks int64) string {
	_, decimal := seps(l)
	var buf [32]byte
	return string(appendMoney(buf[:0], kopecks, "", decimal))
}

// MoneyInput formats kopecks the way an input field holds them: no
// thousands separator, two decimals ("1234.50"), so the value round-trips
// through the price parser unchanged.
func MoneyInput(kopecks int64) string {
	var buf [32]byte
	return string(appendMoney(buf[:0], kopecks, "", "."))
}

// Duration says how long is left in words a person reads at a glance:
// "14 min", "45 s", "2 h 5 min". Negative durations read "expired".
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "expired"
	case d < time.Minute:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + " s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min"
	default:
		h := int(d / time.Hour)
		m := int((d % time.Hour) / time.Minute)
		if m == 0 {
			return strconv.Itoa(h) + " h"
		}
		return strconv.Itoa(h) + " h " + strconv.Itoa(m) + " min"
	}
}

// Tone is the colour family of a status badge.
type Tone string

// The tones a badge can take; they match classes in app.css.
const (
	ToneNeutral Tone = ""
	ToneOK      Tone = "ok"
	ToneWarn    Tone = "warn"
	ToneBad     Tone = "bad"
	ToneInfo    Tone = "info"
)

var tones = map[string]Tone{
	// orders
	"new": ToneInfo, "confirmed": ToneInfo, "to_delivery": ToneWarn,
	"delivered": ToneOK, "canceled": ToneBad, "returned": ToneBad,
	// nomenclature and price updates
	"online": ToneOK, "in_moderation": ToneWarn, "rejected": ToneBad, "disabled": ToneNeutral,
	"OK": ToneOK, "PROCESSING": ToneWarn, "ERROR": ToneBad,
	// held for review (Seller API v2): neither applied nor refused, waiting
	"QUARANTINE": ToneWarn,
	// return boxes
	"in_progress": ToneWarn, "accepted": ToneInfo, "loading": ToneWarn, "shipped": ToneOK,
	// notifications
	"processing": ToneWarn,
}

// StatusTone picks the badge colour of a marketplace status value. Unknown
// values are neutral: the marketplace may add states we have not seen.
func StatusTone(status string) Tone {
	return tones[status]
}

// Short returns s cleaned for display and cut to at most max runes (an
// ellipsis marks the cut), and whether it was cut. Control characters become
// spaces so they cannot break a layout; markup needs no treatment here
// because templ escapes every value it prints.
func Short(s string, max int) (string, bool) {
	clean := Clean(s)
	if utf8.RuneCountInString(clean) <= max {
		return clean, false
	}
	n := 0
	for i := range clean {
		if n == max {
			return strings.TrimRightFunc(clean[:i], unicode.IsSpace) + "…", true
		}
		n++
	}
	return clean, false
}

// MaxShown bounds what any page shows of one value, in characters: a
// hostile or broken 100 KB name costs a page a kilobyte, not 100 KB.
const MaxShown = 1000

// Bounded returns s cleaned and cut to MaxShown characters, with its length
// in characters and whether it was cut (then the page says "truncated, N
// characters").
func Bounded(s string) (shown string, chars int, cut bool) {
	shown, cut = Short(s, MaxShown)
	chars = utf8.RuneCountInString(s)
	return shown, chars, cut
}

// Clean replaces control, bidi-control and invalid characters with spaces,
// keeping the rest of the string as it is (i18n.Clean).
func Clean(s string) string { return i18n.Clean(s) }
