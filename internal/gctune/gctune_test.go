package gctune

import (
	"runtime/debug"
	"testing"
)

// TestLimitMemory: without GOMEMLIMIT the dashboard runs with MemoryLimit
// as its soft memory limit; GOMEMLIMIT set in the environment wins.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOMEMLIMIT", "")
	if got := LimitMemory(); got != MemoryLimit || debug.SetMemoryLimit(-1) != MemoryLimit {
		t.Errorf("without GOMEMLIMIT: %d, runtime %d; want %d", got, debug.SetMemoryLimit(-1), MemoryLimit)
	}
	debug.SetMemoryLimit(1 << 30) // as the runtime reads GOMEMLIMIT=1GiB at start
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got := LimitMemory(); got != 1<<30 || debug.SetMemoryLimit(-1) != 1<<30 {
		t.Errorf("with GOMEMLIMIT=1GiB: %d, runtime %d; want it kept", got, debug.SetMemoryLimit(-1))
	}
}
