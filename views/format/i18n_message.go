package format

import (
	"context"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// MessageIn is ms as a reader of l reads it: messages kept as data
// (massupdate's checks, a job row's stored message) translated, with the amounts of its arguments written l's way
// ("1,299.50" in English, "1 299,50" in Russian) and its times (arguments named …At,
// RFC 3339) as labelled clock times, or (named …On) as labelled dates and times; a plain text part (an old row's English
// sentence, a marketplace message) as it is, its numbers written l's way.
func MessageIn(l Locale, ms i18n.Msgs) string {
	return messageIn(l, ms, MessageNumbersIn)
}

// GridMessageIn is MessageIn with amounts written as GridMoneyIn writes
// them, for the job grid and its files. A marketplace message kept
// verbatim stays as sent there too: its numbers are the marketplace's.
func GridMessageIn(l Locale, ms i18n.Msgs) string {
	return messageIn(l, ms, GridNumbersIn)
}

func messageIn(l Locale, ms i18n.Msgs, numbers func(i18n.Lang, string) string) string {
	return ms.In(l.Lang, func(name, v string) string {
		switch {
		case name == "Card": // a product card's id is no amount
			return v
		case strings.HasSuffix(name, "At"):
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				return ClockIn(l, t)
			}
			return v
		case strings.HasSuffix(name, "On"):
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				return DateTimeIn(l, t)
			}
			return v
		}
		return numbers(l.Lang, v)
	})
}

// Message is MessageIn in the language of ctx.
func Message(ctx context.Context, ms i18n.Msgs) string {
	return MessageIn(LocaleOf(ctx), ms)
}
