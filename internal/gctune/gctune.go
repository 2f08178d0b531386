// Package gctune holds the garbage-collector setting of the dashboard's
// process. cmd/web applies it at start-up, and the benchmark harness
// (bench/cmd/sdbench, the Go benchmarks in bench/) applies the same one, so
// the figures in BENCHMARKS.md measure what ships.
//
// Why: the dashboard's live heap is small (a few MB: session keys, pools,
// templates), while each page allocates a few hundred KB that die at once
// (the upstream answer, its decoded records, the rendered HTML). With the
// default GOGC=100 the collector then runs every few pages; under 64
// concurrent users the CPU profile showed 11–15 % in runtime.asyncPreempt
// and GC work (BENCHMARKS.md, P6), and the pauses widened the tail. At
// GOGC=400 the heap may grow to five times the live heap between cycles:
// tens of MB here, for a quarter of the collections.
//
// Operators keep the last word: GOGC set in the environment wins (Apply
// then changes nothing), and GOMEMLIMIT (read by the runtime itself) caps
// the heap whatever GOGC says, the collector working harder as the heap
// nears the limit. On a memory-tight host set GOMEMLIMIT to about 80 % of
// the container's memory.
package gctune

import (
	"os"
	"runtime/debug"
)

// Percent is the GOGC value the dashboard runs with unless the environment
// sets GOGC.
const Percent = 400

// Apply sets the collector's target percentage to Percent unless the
// environment sets GOGC. It returns the percentage now in force.
func Apply() int {
	if v, ok := os.LookupEnv("GOGC"); ok && v != "" {
		old := debug.SetGCPercent(100)
		debug.SetGCPercent(old) // read without changing
		return old
	}
	debug.SetGCPercent(Percent)
	return Percent
}
