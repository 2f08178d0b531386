// Package chart is the geometry of the small charts the pages draw as
// inline SVG: scales, step paths and axis ticks, in plain tested Go. It
// knows numbers and times only; the views put the words and formats on
// them, and draw the SVG.
package chart

import (
	"cmp"
	"math"
	"strconv"
	"strings"
	"time"
)

// Point is one observation of a step series: from At on, the value is
// Value (Sale is the second series; 0: none at that time).
type Point struct {
	At          time.Time
	Value, Sale int64
}

// Box is the drawing's size in SVG user units and its margins, where the
// axis labels go.
type Box struct {
	Width, Height            float64
	Left, Right, Top, Bottom float64
	// Dates is the number of ticks on the time axis (0: 4).
	Dates int
}

// DefaultBox is the price chart's box: a wide, short plot with room for
// amounts on the left and dates below; NarrowBox is the same for a
// phone's width, with fewer dates.
var (
	DefaultBox = Box{Width: 720, Height: 240, Left: 84, Right: 16, Top: 12, Bottom: 30, Dates: 4}
	NarrowBox  = Box{Width: 360, Height: 240, Left: 84, Right: 12, Top: 12, Bottom: 30, Dates: 3}
)

// Tick is one labelled position on an axis: Pos is x (time axis) or y
// (value axis) in user units.
type Tick struct {
	Pos   float64
	Value int64     // value axis
	At    time.Time // time axis
}

// Steps is a drawn step chart.
type Steps struct {
	Box
	// Path is the main series as a step line (an SVG path's d); Steps the
	// number of changes it draws (vertical moves).
	Path  string
	Steps int
	// SalePath is the second series, drawn only where it is set (a new
	// subpath "M" where it starts again); empty when it never is.
	SalePath string
	// YTicks are the value axis's ticks, bottom to top; XTicks the time
	// axis's, left to right.
	YTicks, XTicks []Tick
	// PlotLeft … PlotBottom are the plot's edges.
	PlotLeft, PlotRight, PlotTop, PlotBottom float64
}

// Draw lays out points (in time order) in box, the last value held until
// end (a time not before the last point; the page's "now"). ok is false
// with fewer than two points: there is no movement to draw.
func Draw(points []Point, end time.Time, box Box) (s Steps, ok bool) {
	if len(points) < 2 {
		return Steps{}, false
	}
	s.Box = box
	s.PlotLeft, s.PlotRight = box.Left, box.Width-box.Right
	s.PlotTop, s.PlotBottom = box.Top, box.Height-box.Bottom
	t0 := points[0].At
	if last := points[len(points)-1].At; end.Before(last) {
		end = last
	}
	span := end.Sub(t0)
	x := func(t time.Time) float64 {
		if span <= 0 {
			return s.PlotLeft
		}
		return s.PlotLeft + (s.PlotRight-s.PlotLeft)*float64(t.Sub(t0))/float64(span)
	}
	points = clamped(points)
	lo, hi := points[0].Value, points[0].Value
	for _, p := range points {
		lo, hi = min(lo, p.Value), max(hi, p.Value)
		if p.Sale > 0 {
			lo, hi = min(lo, p.Sale), max(hi, p.Sale)
		}
	}
	ticks, dlo, dhi := NiceTicks(lo, hi, 4)
	y := func(v int64) float64 {
		return s.PlotBottom - (s.PlotBottom-s.PlotTop)*(float64(v)-dlo)/(dhi-dlo)
	}
	for _, v := range ticks {
		s.YTicks = append(s.YTicks, Tick{Pos: y(v), Value: v})
	}
	for _, t := range TimeTicks(t0, end, cmp.Or(box.Dates, 4)) {
		s.XTicks = append(s.XTicks, Tick{Pos: x(t), At: t})
	}
	values := make([]stepPoint, len(points))
	sales := make([]stepPoint, len(points))
	for i, p := range points {
		values[i] = stepPoint{x: x(p.At), y: y(p.Value), set: true}
		sales[i] = stepPoint{x: x(p.At), y: y(p.Sale), set: p.Sale > 0}
	}
	s.Path, s.Steps = stepPath(values, x(end))
	s.SalePath, _ = stepPath(sales, x(end))
	return s, true
}

// MaxValue is the largest value drawn as itself; larger ones (and
// negative ones, as 0) are drawn at the edge, so a hostile or broken
// amount cannot overflow the scale.
const MaxValue = int64(1) << 50

// clamped is points with every value within [0, MaxValue].
func clamped(points []Point) []Point {
	out := make([]Point, len(points))
	for i, p := range points {
		p.Value, p.Sale = min(max(p.Value, 0), MaxValue), min(max(p.Sale, 0), MaxValue)
		out[i] = p
	}
	return out
}

// stepPoint is a point of a step path; set is false where the series has
// no value (a gap).
type stepPoint struct {
	x, y float64
	set  bool
}

// stepPath is the step line through ps held until xEnd, as an SVG path,
// and the number of vertical moves in it. A gap ends the line; the next
// set point starts it again.
func stepPath(ps []stepPoint, xEnd float64) (string, int) {
	var b strings.Builder
	steps := 0
	drawing := false
	for i, p := range ps {
		switch {
		case !p.set:
			if drawing {
				b.WriteString(" H" + num(p.x))
			}
			drawing = false
			continue
		case !drawing:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("M" + num(p.x) + " " + num(p.y))
			drawing = true
			continue
		}
		b.WriteString(" H" + num(p.x))
		if p.y != ps[i-1].y {
			b.WriteString(" V" + num(p.y))
			steps++
		}
	}
	if drawing {
		b.WriteString(" H" + num(xEnd))
	}
	return b.String(), steps
}

// num writes a coordinate with at most one decimal.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// NiceTicks returns about n round values (1, 2 or 5 times a power of
// ten) covering [lo, hi], and the axis's domain: from the lowest tick to
// the highest. Equal values get an axis around them.
func NiceTicks(lo, hi int64, n int) (ticks []int64, dlo, dhi float64) {
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		pad := max(int64(math.Abs(float64(lo)))/10, 1)
		lo, hi = lo-pad, hi+pad
		if lo < 0 && hi-pad >= 0 {
			lo = 0 // a price's axis does not go below zero for padding
		}
	}
	n = max(n, 2)
	raw := float64(hi-lo) / float64(n-1)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	st := max(int64(step), 1)
	first := floorDiv(lo, st) * st
	for v := first; ; v += st {
		ticks = append(ticks, v)
		if v >= hi || len(ticks) > 2*n+2 {
			break
		}
	}
	return ticks, float64(ticks[0]), float64(ticks[len(ticks)-1])
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// TimeTicks returns n times evenly spread from start to end, both
// included (one when they are equal).
func TimeTicks(start, end time.Time, n int) []time.Time {
	if !end.After(start) || n < 2 {
		return []time.Time{start}
	}
	out := make([]time.Time, n)
	span := end.Sub(start)
	for i := range n {
		out[i] = start.Add(span * time.Duration(i) / time.Duration(n-1))
	}
	return out
}
