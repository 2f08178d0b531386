package app

import (
	"log/slog"
	"testing"
)

// TestGuardReachesTheForms: SELLERDESK_BULK_GUARD_PERCENT is the guard of
// the prices forms as well as of the imports, wired to both.
func TestGuardReachesTheForms(t *testing.T) {
	for v, want := range map[string]int{"": 50, "30": 30, "0": -1} {
		s, err := LoadSettings(func(k string) string {
			if k == "SELLERDESK_BULK_GUARD_PERCENT" {
				return v
			}
			return ""
		})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Config(slog.New(slog.DiscardHandler))
		if c.Dashboard.GuardPercent != want || c.Jobs.GuardPercent != want {
			t.Errorf("%q: forms %d, imports %d; want %d for both", v, c.Dashboard.GuardPercent, c.Jobs.GuardPercent, want)
		}
	}
}
