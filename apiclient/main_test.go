package apiclient_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves goroutines behind: token
// refreshes, retries and iterators must all end with their calls.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
