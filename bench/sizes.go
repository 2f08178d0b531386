package bench

// This file holds the sizes, results and helpers the measurements share;
// each measurement lives in the file named after what it measures.

import (
	"fmt"
	"slices"
	"time"
)

// Sizes are the knobs of one run: full for `make bench`, tiny for the smoke
// test.
type Sizes struct {
	P1Pairs         int           // interleaved dashboard/direct/proxy rounds
	P1LatencyRounds int           // the same with P4Latency injected upstream
	P2Views         int           // page views over P2Span (including the burst)
	P2Burst         int           // concurrent views right at a token expiry
	P2Span          time.Duration // simulated time the views spread over
	P4Rows          int           // rows of the price update
	P4Errors        int           // rows the marketplace will reject
	P4Rounds        int           // interleaved dashboard/loop rounds
	P4Latency       time.Duration // injected per upstream request
	P5Sessions      int           // idle sessions created
	P6Users         int           // concurrent users
	P6Slice         time.Duration // one attack slice; slices alternate sides
	P6Slices        int           // slices per side
	P6LatencySlices int           // slices per side with P4Latency injected
	P6ClientRounds  int           // rounds of the four pages' calls for the API client's own cost
	P7Runs          int           // AllocsPerRun runs
	ChunkSize       int           // mass-update chunk size (0 = dashboard default)
	ProductsForP4   int           // products per seller in the P4 sandbox
	// P8: the local copy.
	P8Products       int           // products per seller (x 3 warehouses) of the sync and overview run
	P8Latency        time.Duration // injected per upstream request there
	P8Views          int           // overview views from the copy
	P8SearchProducts int           // products per seller of the search run (x 3 = records)
	P8Queries        int           // queries of each kind
	// P9..P11: the copy's pages at two catalogue sizes and
	// under load.
	CopySmall, CopyLarge int           // products per seller (x 3 warehouses) of the small and large copy
	CopyViews            int           // one-client views of each page at each size (median)
	CopyUsers            int           // load: concurrent clients
	CopySlice            time.Duration // load: one slice of one side
	CopySlices           int           // load: slices per side
	MetricsSlice         time.Duration // P10m: one slice (both sides at once)
	MetricsSlices        int           // P10m: slices
	CostRequests         int           // P10c: requests a way a round (the static floor four times as many)
	CostRounds           int           // P10c: rounds
	// P12: a colleague's page beside one session's flood of heavy pages.
	FloodProducts int // products per seller (x 3 warehouses) of the copy
	FloodInFlight int // heavy pages the flooding session keeps in flight
	FloodViews    int // the colleague's views per slice
	FloodSlices   int // slices per side (alone, beside the flood)
	// P13: the dashboard's memory during whole-catalogue XLSX exports.
	ExportProducts int // products per seller (x 3 warehouses) of the copy
	ExportsAtOnce  int // exports run at once (the export gate's maximum)
	// P14: a session holding twenty accounts against one holding one.
	P14Products int // products per seller (x 3 warehouses) of the copy
	P14Views    int // views of each page in each session (median)
	// P15: a million records against a thousand.
	MillionSmall, MillionLarge int // products per seller (x 3 warehouses) of the small and large copy
	MillionViews               int // one-client views of each page at each size (median)
	MillionSyncProducts        int // products per seller (x 3) of the first copy timed against the floor
	// ChildRSS also measures the resident memory of the dashboard alone:
	// cmd/web built and run as a child process under the same load
	// (measureChildRSS; it needs the go command and the module root).
	ChildRSS bool
}

// Full are the sizes of the targets.
var Full = Sizes{
	P1Pairs: 1500, P1LatencyRounds: 300, P2Views: 1000, P2Burst: 50, P2Span: 60 * time.Minute,
	P4Rows: 10_000, P4Errors: 37, P4Rounds: 5, P4Latency: 5 * time.Millisecond,
	P5Sessions: 10_000, P6Users: 64, P6Slice: 5 * time.Second, P6Slices: 4, P6LatencySlices: 2, P6ClientRounds: 2000, P7Runs: 200,
	ProductsForP4: 10_000,
	P8Products:    10_000, P8Latency: 50 * time.Millisecond, P8Views: 30, P8SearchProducts: 33_334, P8Queries: 60,
	CopySmall: 334, CopyLarge: 33_334, CopyViews: 41, CopyUsers: 64, CopySlice: 5 * time.Second, CopySlices: 3, MetricsSlice: 5 * time.Second, MetricsSlices: 24, CostRequests: 3000, CostRounds: 3,
	FloodProducts: 33_334, FloodInFlight: 16, FloodViews: 100, FloodSlices: 3,
	ExportProducts: 33_334, ExportsAtOnce: 2,
	P14Products: 3_334, P14Views: 101,
	MillionSmall: 334, MillionLarge: 333_334, MillionViews: 21, MillionSyncProducts: 33_334,
	ChildRSS: true,
}

// Smoke runs every code path once, in seconds.
var Smoke = Sizes{
	P1Pairs: 10, P1LatencyRounds: 3, P2Views: 40, P2Burst: 6, P2Span: 60 * time.Minute,
	P4Rows: 30, P4Errors: 3, P4Rounds: 1, P4Latency: time.Millisecond,
	P5Sessions: 20, P6Users: 4, P6Slice: 300 * time.Millisecond, P6Slices: 1, P6LatencySlices: 1, P6ClientRounds: 5, P7Runs: 3,
	ChunkSize: 7, ProductsForP4: 200,
	P8Products: 100, P8Latency: time.Millisecond, P8Views: 3, P8SearchProducts: 300, P8Queries: 3,
	CopySmall: 10, CopyLarge: 40, CopyViews: 1, CopyUsers: 4, CopySlice: 200 * time.Millisecond, CopySlices: 1, MetricsSlice: 200 * time.Millisecond, MetricsSlices: 1, CostRequests: 20, CostRounds: 1,
	FloodProducts: 40, FloodInFlight: 4, FloodViews: 3, FloodSlices: 1,
	ExportProducts: 40, ExportsAtOnce: 2,
	P14Products: 10, P14Views: 1,
	MillionSmall: 10, MillionLarge: 40, MillionViews: 1, MillionSyncProducts: 20,
}

// Result is one target's verdict, or a figure kept for information.
type Result struct {
	ID     string // P1..P11
	Figure string // what was measured, with the number
	Target string
	Holds  bool
	// Info marks a figure recorded for information, with no target to
	// hold (Holds is then meaningless).
	Info   bool
	Detail []string // supporting figures for BENCHMARKS.md
}

func (r Result) String() string {
	v := "HOLDS"
	switch {
	case r.Info:
		v = "INFO"
	case !r.Holds:
		v = "MISSED"
	}
	return fmt.Sprintf("%s  %-70s target %-34s %s", r.ID, r.Figure, r.Target, v)
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ---- P1: /orders vs the direct call ----

func uniq(xs []int) []int { s := slices.Clone(xs); slices.Sort(s); return slices.Compact(s) }

func rounded(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}
