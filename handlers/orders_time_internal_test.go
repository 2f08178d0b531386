package handlers

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

func TestListDateTimeIsDateTimeIn(t *testing.T) {
	times := []time.Time{{}, time.Date(2026, 11, 22, 11, 5, 0, 0, time.UTC), time.Date(2026, 1, 1, 21, 30, 0, 0, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(2026, 6, 9, 0, 0, 0, 0, time.FixedZone("X", 3600))}
	for _, l := range i18n.Langs {
		for _, tm := range times {
			if got, want := listDateTime(l, tm), format.DateTimeIn(l, tm); got != want {
				t.Errorf("%s %v: %q, want %q", l, tm, got, want)
			}
		}
	}
}

func TestListMoneyIsMoneyIn(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, k := range []int64{0, 5, 179950, -179950, 4460310, 123456789012, -1} {
			if got, want := listMoney(l, k), format.MoneyIn(l, k); got != want {
				t.Errorf("%s %d: %q, want %q", l, k, got, want)
			}
		}
	}
}
