package resend

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestSelect: blanks and repeats are dropped; a malformed number, none and
// too many are refused.
func TestSelect(t *testing.T) {
	got, p := Select([]string{" A1 ", "", "A1", "B-2"})
	if p != ProblemNone || strings.Join(got, ",") != "A1,B-2" {
		t.Errorf("got %v %v", got, p)
	}
	if _, p := Select([]string{"A1", "../x"}); p != ProblemInvalidNr {
		t.Errorf("malformed: %v", p)
	}
	if _, p := Select([]string{" "}); p != ProblemNoneSelected {
		t.Errorf("blank: %v", p)
	}
	many := make([]string, MaxOrders+1)
	for i := range many {
		many[i] = fmt.Sprint("N", i)
	}
	if _, p := Select(many); p != ProblemTooMany {
		t.Errorf("%d orders: %v", len(many), p)
	}
	if _, p := Select(many[:MaxOrders]); p != ProblemNone {
		t.Errorf("%d orders: %v", MaxOrders, p)
	}
}

// TestRefusedBackoff: the wait doubles from 1 s per refusal in a row, up to
// 60 s, a later time named by the marketplace wins, and what was queued
// before is kept.
func TestRefusedBackoff(t *testing.T) {
	s := States{}
	s.Queued("A", t0, t0, []string{"statusChanged"}, 1)
	for i, want := range []time.Duration{1, 2, 4, 8, 16, 32, 60, 60} {
		s.Refused("A", t0, time.Time{})
		if got := s.BusyUntil("A").Sub(t0); got != want*time.Second {
			t.Errorf("refusal %d: wait %v, want %v", i+1, got, want*time.Second)
		}
	}
	if s["A"].Types != "statusChanged" || !s["A"].QueuedAt.Equal(t0) {
		t.Errorf("what was queued was lost: %+v", s["A"])
	}
	s.Refused("B", t0, t0.Add(10*time.Minute))
	if !s.BusyUntil("B").Equal(t0.Add(10 * time.Minute)) {
		t.Errorf("the marketplace's later time lost: %v", s.BusyUntil("B"))
	}
}

// TestStatesEncode: states survive the round trip; those whose wait ended
// long ago are dropped, and only the 150 latest are kept.
func TestStatesEncode(t *testing.T) {
	s := States{}
	s.Queued("KEPT", t0, t0.Add(time.Minute), []string{"a", "b"}, 2)
	s.Refused("OLD", t0.Add(-time.Hour), time.Time{})
	got := Decode(s.Encode(t0))
	if len(got) != 1 || got["KEPT"].Types != "a, b" || got["KEPT"].Queued != 2 || !got["KEPT"].Until.Equal(t0.Add(time.Minute)) || !got["KEPT"].QueuedAt.Equal(t0) {
		t.Errorf("round trip: %+v", got)
	}
	if v := (States{"OLD": s["OLD"]}).Encode(t0); v != nil {
		t.Errorf("nothing to keep encodes as %v, want nil", v)
	}
	many := States{}
	for i := range 200 {
		many[fmt.Sprint("N", i)] = State{Until: t0.Add(time.Duration(i) * time.Second)}
	}
	kept := Decode(many.Encode(t0))
	if len(kept) != 150 {
		t.Fatalf("%d kept, want 150", len(kept))
	}
	if _, ok := kept["N199"]; !ok {
		t.Error("the latest state was dropped")
	}
	if _, ok := kept["N0"]; ok {
		t.Error("the oldest state was kept beyond the bound")
	}
	if got := Decode(map[string][]string{"../x": {"1", "2"}, "A": {"x", "1"}, "B": {"1"}}); len(got) != 0 {
		t.Errorf("unreadable entries decoded: %+v", got)
	}
}

// TestQueuedKindsBounded: the kinds kept of one resend are cut at 200
// characters.
func TestQueuedKindsBounded(t *testing.T) {
	s := States{}
	s.Queued("A", t0, t0, []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40), strings.Repeat("e", 40), strings.Repeat("f", 40)}, 6)
	if got := []rune(s["A"].Types); len(got) != 200 || got[199] != '…' {
		t.Errorf("%d characters, ends %q", len(got), string(got[len(got)-1]))
	}
}

// TestPhase: queued and processing, refused and busy, done; nothing known.
func TestPhase(t *testing.T) {
	s := States{}
	s.Queued("Q", t0, t0.Add(time.Minute), nil, 1)
	s.Refused("R", t0, time.Time{})
	tests := []struct {
		nr   string
		at   time.Time
		want Phase
	}{
		{"Q", t0, PhaseProcessing},
		{"Q", t0.Add(2 * time.Minute), PhaseDone},
		{"R", t0, PhaseBusy},
		{"R", t0.Add(time.Minute), PhaseNone},
		{"X", t0, PhaseNone},
	}
	for _, tt := range tests {
		if _, got := s.Phase(tt.nr, tt.at); got != tt.want {
			t.Errorf("%s at %v: %v, want %v", tt.nr, tt.at.Sub(t0), got, tt.want)
		}
	}
	s.Refused("Q", t0, time.Time{}) // refused after it was queued: busy, not processing
	if _, got := s.Phase("Q", t0); got != PhaseBusy {
		t.Errorf("queued then refused: %v, want busy", got)
	}
}
