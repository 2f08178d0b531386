package status

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestTitle: the statuses the dashboard answers with are named in the
// reader's language; another keeps its standard text.
func TestTitle(t *testing.T) {
	ru := i18n.WithLang(context.Background(), i18n.RU)
	en := i18n.WithLang(context.Background(), i18n.EN)
	for code := range titles {
		if got := Title(ru, code); got == "" || got == http.StatusText(code) || got == titles[code] {
			t.Errorf("%d in Russian: %q", code, got)
		}
		if got := Title(en, code); got == "" || got == titles[code] {
			t.Errorf("%d in English: %q", code, got)
		}
	}
	if got := Title(ru, http.StatusTeapot); got != http.StatusText(http.StatusTeapot) {
		t.Errorf("418: %q", got)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]int{-time.Minute: 1, 0: 1, 300 * time.Millisecond: 1, 1500 * time.Millisecond: 2, 30 * time.Second: 30} {
		if got := RetryAfter(now, now.Add(d)); got != want {
			t.Errorf("RetryAfter(+%v) = %d, want %d", d, got, want)
		}
	}
}
