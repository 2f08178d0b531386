package bench

import (
	"os"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/gctune"
)

// TestMain runs the benchmarks with the collector setting cmd/web ships
// with (internal/gctune), so they measure what ships.
func TestMain(m *testing.M) {
	gctune.Apply()
	os.Exit(m.Run())
}
