package chart

import (
	"strings"
	"testing"
	"time"
)

var day0 = time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)

func at(days int) time.Time { return day0.Add(time.Duration(days) * 24 * time.Hour) }

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi   int64
		want     []int64
		min, max float64
	}{
		{129900, 159900, []int64{120000, 130000, 140000, 150000, 160000}, 120000, 160000},
		{0, 100, []int64{0, 50, 100}, 0, 100},
		{5000, 5000, []int64{4500, 5000, 5500}, 4500, 5500}, // equal values: an axis around them
		{0, 0, []int64{0, 1}, 0, 1},
		{1, 7, []int64{0, 2, 4, 6, 8}, 0, 8},
		{MaxValue - 10, MaxValue, nil, 0, 0}, // checked for shape below
	} {
		got, dlo, dhi := NiceTicks(tc.lo, tc.hi, 4)
		if dlo > float64(tc.lo) || dhi < float64(tc.hi) || len(got) < 2 || len(got) > 10 {
			t.Errorf("NiceTicks(%d, %d) = %v [%v, %v]: does not cover the values", tc.lo, tc.hi, got, dlo, dhi)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Errorf("NiceTicks(%d, %d) = %v: not increasing", tc.lo, tc.hi, got)
			}
		}
		if tc.want == nil {
			continue
		}
		if !equal(got, tc.want) || dlo != tc.min || dhi != tc.max {
			t.Errorf("NiceTicks(%d, %d) = %v [%v, %v], want %v [%v, %v]", tc.lo, tc.hi, got, dlo, dhi, tc.want, tc.min, tc.max)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDrawSteps(t *testing.T) {
	box := Box{Width: 110, Height: 110, Left: 10, Right: 0, Top: 10, Bottom: 0} // a 100 × 100 plot
	pts := []Point{{At: at(0), Value: 100, Sale: 0}, {At: at(1), Value: 50, Sale: 40}, {At: at(2), Value: 50, Sale: 0}, {At: at(3), Value: 100}}
	s, ok := Draw(pts, at(4), box)
	if !ok {
		t.Fatal("four points not drawn")
	}
	// Domain [40, 100] (ticks by 20) over y 110 (bottom) to 10 (top);
	// time over x 10 to 110.
	if want := "M10 10 H35 V93.3 H60 H85 V10 H110"; s.Path != want {
		t.Errorf("path %q, want %q", s.Path, want)
	}
	if s.Steps != 2 {
		t.Errorf("steps %d, want 2 (an equal value is no step)", s.Steps)
	}
	if want := "M35 110 H60"; s.SalePath != want {
		t.Errorf("sale path %q, want %q", s.SalePath, want)
	}
	if len(s.XTicks) != 4 || s.XTicks[0].Pos != 10 || s.XTicks[3].Pos != 110 || !s.XTicks[3].At.Equal(at(4)) {
		t.Errorf("x ticks %+v", s.XTicks)
	}
	if s.YTicks[0].Pos != 110 || s.YTicks[len(s.YTicks)-1].Pos != 10 {
		t.Errorf("y ticks %+v", s.YTicks)
	}
	// The end before the last point is the last point.
	if s2, _ := Draw(pts, at(-5), box); !strings.HasSuffix(s2.Path, "V10 H110") {
		t.Errorf("end before the last point: %q", s2.Path)
	}
}

func TestDrawEdges(t *testing.T) {
	if _, ok := Draw(nil, at(1), DefaultBox); ok {
		t.Error("no points drawn")
	}
	if _, ok := Draw([]Point{{At: at(0), Value: 5}}, at(1), DefaultBox); ok {
		t.Error("one point drawn")
	}
	// Equal values: a flat line in the middle of an axis around them.
	s, ok := Draw([]Point{{At: at(0), Value: 5000}, {At: at(1), Value: 5000}}, at(2), DefaultBox)
	if !ok || s.Steps != 0 || strings.Contains(s.Path, "V") || strings.Contains(s.Path, "NaN") {
		t.Errorf("equal values: %+v", s)
	}
	// Two points at one time: no division by zero.
	s, ok = Draw([]Point{{At: at(0), Value: 1}, {At: at(0), Value: 2}}, at(0), DefaultBox)
	if !ok || strings.Contains(s.Path, "NaN") || strings.Contains(s.Path, "Inf") || s.Steps != 1 {
		t.Errorf("one instant: %+v", s)
	}
	// Huge and negative values are drawn at the edges, finite.
	s, ok = Draw([]Point{{At: at(0), Value: 1 << 62, Sale: -5}, {At: at(1), Value: 0}}, at(2), DefaultBox)
	if !ok || strings.Contains(s.Path, "NaN") || strings.Contains(s.Path, "Inf") || strings.Contains(s.Path, "e+") || s.SalePath != "" {
		t.Errorf("huge values: %+v", s)
	}
	if last := s.YTicks[len(s.YTicks)-1].Value; last < MaxValue {
		t.Errorf("huge values: top tick %d below MaxValue", last)
	}
}

func TestTimeTicks(t *testing.T) {
	got := TimeTicks(at(0), at(3), 4)
	if len(got) != 4 || !got[1].Equal(at(1)) || !got[3].Equal(at(3)) {
		t.Errorf("ticks %v", got)
	}
	if got := TimeTicks(at(0), at(0), 4); len(got) != 1 {
		t.Errorf("one instant: %v", got)
	}
}
