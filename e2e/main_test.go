package e2e

import (
	"fmt"
	"os"
	"testing"
)

// mandatory reports whether the journeys must run (CI sets SELLERDESK_E2E=1):
// then a missing browser fails them instead of skipping them.
func mandatory() bool { return os.Getenv("SELLERDESK_E2E") == "1" }

// TestMain says once, loudly and even without -v, that the journeys are
// skipped on a machine without Chromium.
func TestMain(m *testing.M) {
	if findChromium() == "" && !mandatory() {
		fmt.Fprintln(os.Stderr, "E2E SKIPPED: "+missingChromium+" (SELLERDESK_E2E=1 makes this a failure)")
	}
	os.Exit(m.Run())
}
