package e2e

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// mandatory reports whether the journeys must run (CI sets SELLERDESK_E2E=1):
// then a missing browser fails them instead of skipping them.
func mandatory() bool { return os.Getenv("SELLERDESK_E2E") == "1" }

// journeysAtOnce is how many journeys run at the same time unless -parallel
// says otherwise. Each waits on its browser and its server far more than it
// computes, so a few at once finish the package sooner even on two busy
// cores; every wait is on a condition with a generous deadline, so running
// beside each other slows a journey down without breaking it.
const journeysAtOnce = 4

// TestMain says once, loudly and even without -v, that the journeys are
// skipped on a machine without Chromium; it runs the journeys a few at a
// time and stops the browsers they shared once they are done.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", strconv.Itoa(journeysAtOnce)); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: -test.parallel:", err)
			os.Exit(2)
		}
	}
	if findChromium() == "" && !mandatory() {
		fmt.Fprintln(os.Stderr, "E2E SKIPPED: "+missingChromium+" (SELLERDESK_E2E=1 makes this a failure)")
	}
	code := m.Run()
	stopBrowsers()
	os.Exit(code)
}
