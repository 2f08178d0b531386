package copystore

import (
	"fmt"
	"testing"
)

// fakeChecksRows replays rows of the checks' statement (tag, a, b, n).
type fakeChecksRows struct {
	rows [][4]any
	i    int
}

func (f *fakeChecksRows) Next() bool { f.i++; return f.i <= len(f.rows) }
func (f *fakeChecksRows) Err() error { return nil }
func (f *fakeChecksRows) Scan(dest ...any) error {
	r := f.rows[f.i-1]
	*dest[0].(*int) = r[0].(int)
	*dest[1].(*string) = r[1].(string)
	*dest[2].(*string) = r[2].(string)
	*dest[3].(*int64) = r[3].(int64)
	return nil
}

// checksFixture is what a copy's checks read: a kept count per list and
// status, the flag, the version and the credential's answer (no sync
// states: their packed form is unpackState's own test's).
func checksFixture() [][4]any {
	var rows [][4]any
	for _, list := range []string{countNomenclature, countZeroStock, countOrders, countBoxes} {
		for i := range 5 {
			rows = append(rows, [4]any{1, list, fmt.Sprintf("status-%d", i), int64(10 + i)})
		}
	}
	return append(rows, [4]any{2, "", "", int64(0)}, [4]any{3, "", "", int64(7)}, [4]any{4, "", "", int64(0)})
}

// TestScanChecksCountsAndAllocations: the kept counts read are what the
// lists ask for (one status, every status of a list, a list or status
// absent), and scanning a request's checks costs a few allocations
// however many count rows there are, not some per row.
func TestScanChecksCountsAndAllocations(t *testing.T) {
	k := Key{SellerID: 1, Env: "sandbox"}
	c, err := ScanChecks(k, &fakeChecksRows{rows: checksFixture()})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		list, status string
		want         int
	}{
		{countOrders, "status-2", 12}, {countOrders, "", 10 + 11 + 12 + 13 + 14}, {countBoxes, "nope", 0}, {"nolist", "", 0}, {countZeroStock, "status-0", 10},
	} {
		if got, err := c.kept(q.list, q.status); err != nil || got != q.want {
			t.Errorf("kept(%q, %q) = %d, %v; want %d", q.list, q.status, got, err, q.want)
		}
	}
	if c.version != 7 || c.Rejected {
		t.Errorf("version %d, rejected %v", c.version, c.Rejected)
	}
	rows := checksFixture()
	n := testing.AllocsPerRun(50, func() {
		if _, err := ScanChecks(k, &fakeChecksRows{rows: rows}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations for %d rows", n, len(rows))
	if n > 12 {
		t.Errorf("%.0f allocations scanning %d rows of checks, want at most 12", n, len(rows))
	}
}
