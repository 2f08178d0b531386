package bulkjobs

import (
	"testing"
	"time"
)

// TestStateLabel: a job's state as a key and a tone; finished with
// problems warns; an unknown state as it is.
func TestStateLabel(t *testing.T) {
	if m, tone := StateLabel(Job{State: StateDone, Counts: Counts{Unsent: 1}}); m.Key != "jobs.state_done_problems" || tone != "warn" {
		t.Fatalf("got %+v %q", m, tone)
	}
	if m, tone := StateLabel(Job{State: StateRunning, CancelRequested: true}); m.Key != "jobs.state_cancelling" || tone != "warn" {
		t.Fatalf("got %+v %q", m, tone)
	}
	if m, tone := StateLabel(Job{State: "odd"}); m.Text != "odd" || !m.Verbatim || tone != "" {
		t.Fatalf("got %+v %q", m, tone)
	}
	if m := FlagLabel("x"); m.Text != "x" || FlagLabel(FlagGuard).Key != "jobs.flag_guard" || ItemLabel(ItemHeld).Key != "jobs.item_held" {
		t.Fatalf("labels %+v", m)
	}
}

// TestProgressOf: rows answered of rows to send; a job waiting says until
// when, with 429 when the runner does not say; a finished job is 100 %.
func TestProgressOf(t *testing.T) {
	at := time.Date(2026, 11, 27, 7, 0, 0, 0, time.UTC)
	p := ProgressOf(Job{State: StateWaiting, WaitUntil: at, Counts: Counts{Queued: 3, Accepted: 1}}, Live{})
	if p.Done != 1 || p.Total != 4 || p.Percent != 25 || !p.WaitUntil.Equal(at) || p.Status != 429 {
		t.Fatalf("waiting %+v", p)
	}
	if p := ProgressOf(Job{State: StateRunning}, Live{WaitUntil: at, Status: 503}); p.Status != 503 {
		t.Fatalf("live %+v", p)
	}
	if p := ProgressOf(Job{State: StateDone}, Live{WaitUntil: at}); p.Percent != 100 || !p.WaitUntil.IsZero() {
		t.Fatalf("done %+v", p)
	}
}

// TestWho: the display name with the client id, or the client id alone.
func TestWho(t *testing.T) {
	if got := (Job{DisplayName: "Shop", ClientID: "c1"}).Who(); got != "Shop (c1)" {
		t.Fatalf("got %q", got)
	}
	if got := (Job{ClientID: "c1"}).Who(); got != "c1" {
		t.Fatalf("got %q", got)
	}
}
