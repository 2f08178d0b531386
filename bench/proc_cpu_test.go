package bench

import (
	"os"
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
