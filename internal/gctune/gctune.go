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
// GOGC=400 alone lets the heap grow to five times whatever is live, and
// some work keeps tens of MB live for a while: a whole-catalogue XLSX
// export holds up to 16 MB of sheet (excelize's stream buffer) while it
// writes, and two run at once. The dashboard therefore also runs with a
// soft memory limit (LimitMemory, MemoryLimit): below it GOGC=400 decides,
// near it the collector works harder, so the process stays within 256 MB
// (BENCHMARKS.md, P13). The benchmark harness does not take the limit: its
// process also holds the sandbox and the load generator; the dashboard
// measured alone (cmd/web as a child process: P10, P11, P13) does.
//
// Operators keep the last word: GOGC set in the environment wins (Apply
// then changes nothing), and so does GOMEMLIMIT (LimitMemory then changes
// nothing): the runtime caps the heap at it whatever GOGC says. On a host
// with more or less memory set GOMEMLIMIT to about 60 % of the container's
// memory (the rest is SQLite's cache and the runtime's own).
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

// MemoryLimit is the runtime's soft memory limit the dashboard runs with
// unless the environment sets GOMEMLIMIT: well below 256 MB, leaving room
// for what the Go runtime does not count (SQLite's page cache).
const MemoryLimit = 160 << 20

// LimitMemory sets MemoryLimit as the runtime's soft memory limit, unless
// GOMEMLIMIT is set, and returns the limit in force.
func LimitMemory() int64 {
	if v, ok := os.LookupEnv("GOMEMLIMIT"); ok && v != "" {
		return debug.SetMemoryLimit(-1) // read without changing
	}
	debug.SetMemoryLimit(MemoryLimit)
	return MemoryLimit
}
