package bench

import (
	"strings"
	"testing"
)

// TestCompactBenchstat: the benchstat block of BENCHMARKS.md keeps every
// figure and drops the machine's lines, the rows without a figure, the
// geomeans over unrelated benchmarks and their footnotes.
func TestCompactBenchstat(t *testing.T) {
	in := strings.Join([]string{
		"goos: linux",
		"goarch: amd64",
		"pkg: github.com/sellerdesk/sellerdesk/bench",
		"cpu: AMD EPYC",
		"                 │  dashboard   │",
		"                 │    sec/op    │",
		"OrdersPage-2       1628.2µ ± 6%",
		"TwentyAccounts/page=orders-2                  ",
		"geomean            1.628m        ? ¹ ²",
		"¹ benchmark set differs from baseline; geomeans may not be comparable",
		"² ratios must be >0 to compute geomean",
		"",
		"PagesPostgres-2        2.003 ± 2%",
	}, "\n")
	want := strings.Join([]string{
		"                 │  dashboard   │",
		"                 │    sec/op    │",
		"OrdersPage-2       1628.2µ ± 6%",
		"",
		"PagesPostgres-2        2.003 ± 2%",
	}, "\n")
	if got := compactBenchstat(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
