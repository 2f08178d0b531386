package handlers_test

import (
	"testing"
	"time"
)

// waitDeadline bounds every wait of this package's tests on a condition:
// a backstop generous enough for a loaded machine under the race
// detector, never a measurement.
const waitDeadline = 3 * time.Minute

// waitUntil polls cond until it holds, and fails the test naming what it
// waited for once waitDeadline has passed. It is the one wait of the
// package's tests: a test waits on a condition, never for a fixed time.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached in %v", what, waitDeadline)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
