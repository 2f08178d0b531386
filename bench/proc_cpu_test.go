package bench

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestProcCPU: a process's CPU read from /proc (how P10m counts a child
// dashboard's) agrees with getrusage on this process, within a few ticks.
func TestProcCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	x := 0
	for c0 := cpuTime(); cpuTime()-c0 < 100*time.Millisecond; {
		for i := range 100_000 {
			x += i
		}
	}
	_ = x
	proc, own := procCPU(os.Getpid()), cpuTime()
	if proc < 100*time.Millisecond || proc > own+30*time.Millisecond || proc < own-30*time.Millisecond {
		t.Errorf("procCPU = %s, getrusage %s", proc, own)
	}
}

// TestCPUBudget: the CPU line of P10/P11 divides by the pages answered
// and turns the cost a page into the rate the machine's cores allow.
func TestCPUBudget(t *testing.T) {
	cores := float64(runtime.NumCPU())
	// 1,000 pages at 0.6 + 0.4 ms: at most cores x 1,000 pages/s; the
	// static side at 20,000/s needs 0.1x = 2,000/s, so cores x 0.5 ms.
	line := cpuBudget(true, 1000, 600*time.Millisecond, 400*time.Millisecond, 10_000, 800*time.Millisecond, 20_000)
	for _, want := range []string{
		"0.600 ms in this process", "0.400 ms in PostgreSQL's processes = 1.000 ms", "static slices 0.080 ms",
		fmt.Sprintf("at most %.0f pages/s", cores*1000), fmt.Sprintf("= %.3fx the static rate", cores*1000/20_000),
		fmt.Sprintf("needs %.3f ms a page", cores*0.5),
	} {
		if !strings.Contains(line, want) {
			t.Errorf("%q\nlacks %q", line, want)
		}
	}
	if line := cpuBudget(false, 1000, time.Second, 0, 1, time.Millisecond, 1); strings.Contains(line, "PostgreSQL") {
		t.Errorf("SQLite's line names PostgreSQL: %q", line)
	}
	if line := cpuBudget(true, 0, time.Second, time.Second, 1, time.Millisecond, 1); !strings.Contains(line, "no page answered") {
		t.Errorf("no page answered: %q", line)
	}
}
