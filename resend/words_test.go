package resend

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestRunTell: each verdict's tone and words, the orders queued with
// their kinds and those not sent with why, and a single order's wait
// while the marketplace processes it.
func TestRunTell(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	busy := now.Add(time.Minute)
	states := States{"A": {Until: busy, QueuedAt: now, Queued: 2}}
	cases := []struct {
		name   string
		run    Run
		single string
		tone   Tone
		msg    string
		queued []string
		unsent []string
		until  time.Time
	}{
		{name: "queued, a later request unanswered", run: Run{Selected: []string{"A", "B", "C"}, Queued: map[string][]string{"A": {"OrderCreated", "x"}, "C": nil}, Unsent: []string{"B"}, Failure: FailureNoAnswer},
			tone: ToneOK, msg: "Queued 3 notifications for 2 orders. The marketplace did not answer for some of the selected orders.",
			queued: []string{"A: OrderCreated, x", "C: notifications (kinds not listed)"}, unsent: []string{"B: not sent"}},
		{name: "one order queued, processing", run: Run{Selected: []string{"A"}, Queued: map[string][]string{"A": nil}}, single: "A",
			tone: ToneOK, msg: "Queued 1 notification for 1 order.", queued: []string{"A: notifications (kinds not listed)"}, until: busy},
		{name: "refused", run: Run{Selected: []string{"B"}, Unsent: []string{"B"}, Failure: FailureForeignOrder}, single: "B",
			tone: ToneBad, msg: "The marketplace refused this order: it is not this seller's.", unsent: []string{"B: not sent"}},
		{name: "busy", run: Run{Selected: []string{"A"}, Busy: []string{"A"}}, tone: ToneBusy,
			msg: "Not sent: the marketplace is still processing earlier notifications.", unsent: []string{"A: still being processed by the marketplace, retry at " + busy.Format(time.RFC3339)}},
		{name: "nothing", run: Run{Selected: []string{"B"}, Empty: []string{"B"}}, tone: ToneOK, msg: "Nothing to resend: the marketplace has no notifications for this selection."},
		{name: "unsent", run: Run{Selected: []string{"B"}}, tone: ToneBusy, msg: "Not sent: the marketplace is busy."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := c.run.Tell(states, now, c.single)
			if a.Tone != c.tone || a.Message.In(i18n.EN, nil) != c.msg || !a.Until.Equal(c.until) || a.Processing != !c.until.IsZero() {
				t.Errorf("Tell = %s %q until %v (processing %v); want %s %q until %v", a.Tone, a.Message.In(i18n.EN, nil), a.Until, a.Processing, c.tone, c.msg, c.until)
			}
			if got := lines(a.Queued); !equal(got, c.queued) {
				t.Errorf("queued %q, want %q", got, c.queued)
			}
			if got := lines(a.NotSent); !equal(got, c.unsent) {
				t.Errorf("not sent %q, want %q", got, c.unsent)
			}
		})
	}
}

// TestStatesTell: an order's control says what its last resend queued,
// and waits while the marketplace is busy with it; of an order nothing is
// known of, nothing is said.
func TestStatesTell(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	at, until := now.Add(-time.Minute).Format(time.RFC3339), now.Add(time.Minute)
	s := States{
		"P": {Until: until, QueuedAt: now.Add(-time.Minute), Queued: 2, Types: "OrderCreated, x"},
		"B": {Until: until, QueuedAt: now.Add(-time.Minute), Attempts: 1},
		"R": {Until: until, Attempts: 1},
		"D": {Until: now.Add(-time.Second), QueuedAt: now.Add(-time.Minute), Queued: 1},
	}
	for nr, want := range map[string]struct {
		tone  Tone
		msg   string
		until time.Time
	}{
		"P": {ToneBusy, "Queued at " + at + ": 2 notifications (OrderCreated, x); the marketplace is processing them.", until},
		"B": {ToneBusy, "Still being processed by the marketplace. Last queued at " + at + ": notifications.", until},
		"R": {ToneBusy, "Still being processed by the marketplace.", until},
		"D": {ToneOK, "Last queued at " + at + ": 1 notification.", time.Time{}},
	} {
		a, ok := s.Tell(nr, now)
		if !ok || a.Tone != want.tone || a.Message.In(i18n.EN, nil) != want.msg || !a.Until.Equal(want.until) {
			t.Errorf("%s: Tell = %v %s %q until %v; want %s %q until %v", nr, ok, a.Tone, a.Message.In(i18n.EN, nil), a.Until, want.tone, want.msg, want.until)
		}
	}
	if _, ok := s.Tell("unknown", now); ok {
		t.Error("an order nothing is known of has something to say")
	}
}

// TestProblemAndFailureWords: every problem of a form and every refusal
// has words; none has none.
func TestProblemAndFailureWords(t *testing.T) {
	if ProblemNone.Msgs() != nil || FailureNone.Msgs() != nil {
		t.Error("no problem, or no refusal, has words")
	}
	for _, p := range []Problem{ProblemNoneSelected, ProblemInvalidNr, ProblemTooMany} {
		if w := p.Msgs().In(i18n.RU, nil); w == "" || w == p.Msgs()[0].Key {
			t.Errorf("problem %d: %q", p, w)
		}
	}
	for f := FailureUnknownOrder; f <= FailureNoAnswer; f++ {
		if w := f.Msgs().In(i18n.RU, nil); w == "" || w == f.Msgs()[0].Key {
			t.Errorf("failure %d: %q", f, w)
		}
	}
}

func lines(ls []Line) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Nr+": "+l.Msg.In(i18n.EN, nil))
	}
	return out
}

func equal(a, b []string) bool {
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
