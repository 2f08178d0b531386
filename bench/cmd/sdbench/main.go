// Command sdbench measures the performance targets P1..P11 of the dashboard
// in one run (P7, a page's allocations, is recorded for information, with
// no target), prints one line per figure and writes BENCHMARKS.md. Run it
// with `make bench`.
//
// The dashboard runs in this process with the settings cmd/web runs with:
// go.mod's godebug urlmaxqueryparams=100000 (a 10,000-row price form has
// 90,000 fields; Go 1.26 refuses more than 10,000 by default), which applies
// to every main package of the module, cmd/web included, and the garbage
// collector setting of internal/gctune, applied below as cmd/web applies it.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/sellerdesk/sellerdesk/bench"
	"github.com/sellerdesk/sellerdesk/internal/gctune"
)

func main() {
	out := flag.String("out", "BENCHMARKS.md", "where to write the report (\"\" = nowhere)")
	benchstat := flag.String("benchstat", "", "file holding benchstat output to include")
	notes := flag.String("notes", "bench/NOTES.md", "the file of profile findings and fixes the page links to")
	short := flag.Bool("short", false, "tiny sizes (smoke run; figures meaningless)")
	only := flag.String("only", "", "comma-separated targets to run, e.g. P1,P7 or P9,P10,P11 (default all)")
	command := flag.String("command", "make bench", "the command to name in the report")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file (use with -only)")
	childRSS := flag.Bool("childrss", true, "P10, P11: also run the dashboard alone as a child process for its memory (false: the process's RSS, an upper bound, stands in; for a profile of the load alone)")
	flag.Parse()
	gctune.Apply() // the collector setting cmd/web ships with
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sdbench:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "sdbench:", err)
			os.Exit(1)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}

	bench.All = append(bench.All, bench.Measurement{ID: "I1", Run: bench.ImportPreview}) // import to preview, bench/import.go
	if strings.Contains(","+*only+",", ",P8S,") {
		bench.All = append(bench.All, bench.Measurement{ID: "P8S", Run: bench.CopyFirstSync}) // P8's first sync alone
	}
	sizes := bench.Full
	if *short {
		sizes = bench.Smoke
	}
	if !*childRSS {
		sizes.ChildRSS = false
	}
	if *only == "" { // the long ones run only when named (make bench-large)
		var keep []bench.Measurement
		for _, m := range bench.All {
			if !bench.Large[m.ID] {
				keep = append(keep, m)
			}
		}
		bench.All = keep
	}
	if *only != "" {
		var keep []bench.Measurement
		for _, m := range bench.All {
			if strings.Contains(","+*only+",", ","+m.ID+",") {
				keep = append(keep, m)
			}
		}
		bench.All = keep
	}
	results := bench.RunAll(sizes, os.Stdout)
	held, targets := 0, 0
	for _, r := range results {
		if r.Info {
			continue
		}
		targets++
		if r.Holds {
			held++
		}
	}
	fmt.Printf("%d of %d targets hold\n", held, targets)
	if *out != "" {
		read := func(p string) string {
			if p == "" {
				return ""
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return ""
			}
			return string(b)
		}
		if err := bench.WriteMarkdown(*out, results, *command, read(*benchstat), *notes); err != nil {
			fmt.Fprintln(os.Stderr, "sdbench:", err)
			os.Exit(1)
		}
		fmt.Println("wrote", *out)
	}
}
