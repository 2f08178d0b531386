package resend

import (
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Tone is how a resend control shows its answer.
type Tone string

// The tones of a resend control's answer.
const (
	ToneOK   Tone = "ok"
	ToneBad  Tone = "bad"
	ToneBusy Tone = "busy"
)

// Answer is what a resend control says: the run's outcome, or an order's
// state, as messages kept as data for the caller to put in words.
type Answer struct {
	Tone    Tone
	Message i18n.Msgs
	// Queued and NotSent list the orders queued, with the kinds queued,
	// and the orders not sent, with why; each line starts with its order.
	Queued, NotSent []Line
	// Until is when a single order's control may send again (zero: now).
	Until time.Time
	// Processing: the single order was queued and is being processed, as
	// the message's end should say.
	Processing bool
}

// Line is one order's part of an answer.
type Line struct {
	Nr  string
	Msg i18n.Msgs
}

// Msgs is what is wrong with the orders of a form, or nothing.
func (p Problem) Msgs() i18n.Msgs {
	switch p {
	case ProblemNone:
		return nil
	case ProblemInvalidNr:
		return i18n.Of(i18n.M("orders.invalid_nr", nil))
	case ProblemTooMany:
		return i18n.Of(i18n.M("orders.select_at_most", map[string]any{"Max": MaxOrders}))
	}
	return i18n.Of(i18n.M("orders.select_one", nil))
}

// Msgs is what a refusal of a whole request says, or nothing.
func (f Failure) Msgs() i18n.Msgs {
	switch f {
	case FailureUnknownOrder:
		return i18n.Of(i18n.M("orders.unknown_order", nil))
	case FailureUnknownSelected:
		return i18n.Of(i18n.M("orders.unknown_selected", nil))
	case FailureInvalid:
		return i18n.Of(i18n.M("orders.invalid_request", nil))
	case FailureForeignOrder:
		return i18n.Of(i18n.M("orders.not_your_order", nil))
	case FailureForeignSelected:
		return i18n.Of(i18n.M("orders.not_your_selected", nil))
	case FailureNoAnswer:
		return i18n.Of(i18n.M("orders.no_answer", nil))
	}
	return nil
}

// Tell sums a run up for its control at now: what was queued, what is
// busy and why, the words of the verdict; single names the order of a
// single-order control ("" for a selection), which waits while the
// marketplace is busy with it.
func (r *Run) Tell(states States, now time.Time, single string) Answer {
	var a Answer
	nqueued := 0
	for _, nr := range r.Selected {
		if types, ok := r.Queued[nr]; ok {
			nqueued += max(len(types), 1)
			a.Queued = append(a.Queued, Line{nr, TypesKept(types)})
		}
	}
	for _, nr := range r.Busy {
		a.NotSent = append(a.NotSent, Line{nr, i18n.Of(i18n.M("orders.busy_retry_at", map[string]any{"At": stamp(states.BusyUntil(nr))}))})
	}
	for _, nr := range r.Unsent {
		a.NotSent = append(a.NotSent, Line{nr, i18n.Of(i18n.M("orders.not_sent_item", nil))})
	}
	switch r.Verdict() {
	case VerdictQueued:
		a.Tone = ToneOK
		a.Message = i18n.Join(i18n.Of(i18n.M("orders.resend_queued", map[string]any{
			"Notifications": i18n.M("orders.n_notifications", map[string]any{"Count": nqueued}),
			"Orders":        i18n.M("orders.for_n_orders", map[string]any{"Count": len(r.Queued)}),
		})), r.Failure.Msgs())
	case VerdictFailed:
		a.Tone, a.Message = ToneBad, r.Failure.Msgs()
	case VerdictBusy:
		a.Tone, a.Message = ToneBusy, i18n.Of(i18n.M("orders.busy_earlier", nil))
	case VerdictNothing:
		a.Tone, a.Message = ToneOK, i18n.Of(i18n.M("orders.nothing_to_resend", nil))
	default:
		a.Tone, a.Message = ToneBusy, i18n.Of(i18n.M("orders.busy", nil))
	}
	if until := states.BusyUntil(single); single != "" && until.After(now) {
		a.Until, a.Processing = until, len(r.Queued) > 0
	}
	return a
}

// Tell is order nr's state at now for its single-order control: what was
// queued and when, and while the marketplace is busy, the reason and the
// time a resend can succeed. ok is false when nothing is known of nr.
func (s States) Tell(nr string, now time.Time) (a Answer, ok bool) {
	st, phase := s.Phase(nr, now)
	last := i18n.Of(i18n.M("orders.last_queued_at", map[string]any{"At": stamp(st.QueuedAt), "What": st.what()}))
	switch phase {
	case PhaseProcessing:
		a.Tone, a.Message = ToneBusy, i18n.Of(i18n.M("orders.queued_at_processing", map[string]any{"At": stamp(st.QueuedAt), "What": st.what()}))
	case PhaseBusy:
		a.Tone, a.Message = ToneBusy, i18n.Of(i18n.M("orders.still_processing", nil))
		if !st.QueuedAt.IsZero() {
			a.Message = i18n.Join(a.Message, last)
		}
	case PhaseDone:
		return Answer{Tone: ToneOK, Message: last}, true
	default:
		return a, false
	}
	a.Until = st.Until
	return a, true
}

// what is what the resend of st queued.
func (st State) what() i18n.Msgs {
	n := i18n.M("orders.n_notifications", map[string]any{"Count": st.Queued})
	if st.Queued == 0 {
		n = i18n.M("orders.notifications_lower", nil)
	}
	if st.Types == "" {
		return i18n.Of(n)
	}
	return i18n.Of(i18n.M("orders.what_with_types", map[string]any{"What": n, "Types": i18n.NotificationTypes(strings.Split(st.Types, ", "))}))
}

// stamp is t as a message argument named …At carries it.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
