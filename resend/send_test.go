package resend

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// fakeMarket answers each resend request with answer(set), and keeps the
// sets it was sent.
type fakeMarket struct {
	sent   [][]string
	answer func(set []string) (*apiclient.ResendResult, error)
}

func (f *fakeMarket) ResendNotifications(_ context.Context, req *apiclient.ResendRequest) (*apiclient.ResendResult, error) {
	f.sent = append(f.sent, slices.Clone(req.OrderNrs))
	return f.answer(req.OrderNrs)
}

// queuedAll queues one statusChanged notification for every order sent.
func queuedAll(set []string) (*apiclient.ResendResult, error) {
	res := &apiclient.ResendResult{Queued: len(set)}
	for _, nr := range set {
		res.Notifications = append(res.Notifications, apiclient.Notification{OrderNr: nr, Type: "statusChanged"})
	}
	return res, nil
}

// busy429 is the marketplace's 429 for a resend, its message naming
// order nr (none when empty) and, when at is not zero, a time.
func busy429(nr string, at time.Time) error {
	msg := "notifications are still processing"
	if nr != "" {
		msg += " for order " + nr
	}
	if !at.IsZero() {
		msg += "; retry after " + at.UTC().Format(time.RFC3339)
	}
	return &apiclient.RateLimitError{Status: 429, Attempts: 1, Err: &apiclient.B2BError{Status: 429, Message: msg}}
}

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// TestSendSplitsAroundBusyOrders: an order known busy is not sent; a
// refusal naming one order of several sends the rest again without it,
// and that order waits until the time the marketplace named.
func TestSendSplitsAroundBusyOrders(t *testing.T) {
	states := States{}
	states.Refused("KNOWN", t0.Add(-time.Second), t0.Add(time.Minute)) // busy a minute more
	named := t0.Add(90 * time.Second)
	m := &fakeMarket{answer: func(set []string) (*apiclient.ResendResult, error) {
		if slices.Contains(set, "B") {
			return nil, busy429("B", named)
		}
		return queuedAll(set)
	}}
	run, err := Send(context.Background(), m, states, []string{"A", "B", "KNOWN", "C"}, t0, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"A", "B", "C"}, {"A", "C"}}; !slices.EqualFunc(m.sent, want, slices.Equal) {
		t.Errorf("sent %v, want %v", m.sent, want)
	}
	if !slices.Equal(run.Busy, []string{"KNOWN", "B"}) || len(run.Queued) != 2 || run.Requests != 2 {
		t.Errorf("busy %v, queued %v, %d requests", run.Busy, run.Queued, run.Requests)
	}
	if got := states.BusyUntil("B"); !got.Equal(named) {
		t.Errorf("B busy until %v, want the marketplace's %v", got, named)
	}
	if got := states.BusyUntil("A"); !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("A busy until %v, want the processing time", got)
	}
	for nr, want := range map[string]Outcome{"A": OutcomeQueued, "B": OutcomeBusy, "KNOWN": OutcomeBusy} {
		if got := run.Outcome(nr); got != want {
			t.Errorf("outcome of %s: %v, want %v", nr, got, want)
		}
	}
	if run.Verdict() != VerdictQueued {
		t.Errorf("verdict %v, want queued", run.Verdict())
	}
}

// TestSendRefusedWithoutAName: a refusal naming no order is tried order
// by order, within MaxRequests; the rest is unsent.
func TestSendRefusedWithoutAName(t *testing.T) {
	m := &fakeMarket{answer: func(set []string) (*apiclient.ResendResult, error) {
		if len(set) > 1 {
			return nil, busy429("", time.Time{})
		}
		return queuedAll(set)
	}}
	var selected []string
	for _, c := range "ABCDEFGHIJKL" { // 12 orders: the whole, then 9 alone fit
		selected = append(selected, string(c))
	}
	run, err := Send(context.Background(), m, States{}, selected, t0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if run.Requests != MaxRequests || len(m.sent) != MaxRequests {
		t.Fatalf("%d requests, want %d", run.Requests, MaxRequests)
	}
	if len(run.Queued) != MaxRequests-1 || !slices.Equal(run.Unsent, []string{"J", "K", "L"}) {
		t.Errorf("queued %d, unsent %v", len(run.Queued), run.Unsent)
	}
	if run.Outcome("L") != OutcomeUnsent {
		t.Errorf("outcome of L: %v, want unsent", run.Outcome("L"))
	}
}

// TestSendFailures: the first request's own failure is the error; a
// refused request is a Failure beside what was queued; a later failure
// leaves the queued orders standing and the rest unsent.
func TestSendFailures(t *testing.T) {
	down := errors.New("connection refused")
	if _, err := Send(context.Background(), &fakeMarket{answer: func([]string) (*apiclient.ResendResult, error) { return nil, down }},
		States{}, []string{"A"}, t0, 0); !errors.Is(err, down) {
		t.Errorf("first request failing: %v, want it returned", err)
	}

	notFound := &fakeMarket{answer: func([]string) (*apiclient.ResendResult, error) { return nil, &apiclient.B2BError{Status: 404} }}
	run, err := Send(context.Background(), notFound, States{}, []string{"A", "B"}, t0, 0)
	if err != nil || run.Failure != FailureUnknownSelected || run.Verdict() != VerdictFailed || run.Outcome("A") != OutcomeRefused {
		t.Errorf("404 for two: %v %+v", err, run)
	}

	// 403 for an order: that order is refused, the request is not an error
	// of the account (the caller would end the session on one).
	foreign := &fakeMarket{answer: func([]string) (*apiclient.ResendResult, error) { return nil, &apiclient.B2BError{Status: 403} }}
	for _, tc := range []struct {
		orders []string
		want   Failure
	}{{[]string{"A"}, FailureForeignOrder}, {[]string{"A", "B"}, FailureForeignSelected}} {
		run, err := Send(context.Background(), foreign, States{}, tc.orders, t0, 0)
		if err != nil || run.Failure != tc.want || run.Verdict() != VerdictFailed || run.Outcome("A") != OutcomeRefused {
			t.Errorf("403 for %v: %v %+v", tc.orders, err, run)
		}
	}

	calls := 0
	later := &fakeMarket{answer: func(set []string) (*apiclient.ResendResult, error) {
		calls++
		switch calls {
		case 1:
			return nil, busy429("B", time.Time{})
		case 2:
			return nil, down
		}
		return queuedAll(set)
	}}
	states := States{}
	states.Queued("A", t0.Add(-time.Hour), t0.Add(-time.Hour), []string{"x"}, 1)
	run, err = Send(context.Background(), later, states, []string{"A", "B", "C"}, t0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if run.Failure != FailureNoAnswer || !errors.Is(run.Err, down) || !slices.Equal(run.Unsent, []string{"A", "C"}) {
		t.Errorf("later failure: %v %v unsent %v", run.Failure, run.Err, run.Unsent)
	}
}

// TestSendKeepsWhatWasQueued: the kinds the marketplace named are kept
// (bounded, letters only); a count without a list queues with unknown
// kinds; nothing queued is "nothing to resend".
func TestSendKeepsWhatWasQueued(t *testing.T) {
	m := &fakeMarket{answer: func(set []string) (*apiclient.ResendResult, error) {
		switch set[0] {
		case "LISTED":
			return &apiclient.ResendResult{Queued: 3, Notifications: []apiclient.Notification{
				{OrderNr: "LISTED", Type: "statusChanged"}, {OrderNr: "LISTED", Type: "<script>"}, {OrderNr: "LISTED", Type: "itemStatusChanged"}}}, nil
		case "COUNTED":
			return &apiclient.ResendResult{Queued: 2}, nil
		}
		return &apiclient.ResendResult{}, nil
	}}
	states := States{}
	for _, nr := range []string{"LISTED", "COUNTED", "EMPTY"} {
		if _, err := Send(context.Background(), m, states, []string{nr}, t0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if st := states["LISTED"]; st.Types != "statusChanged, itemStatusChanged" || st.Queued != 2 || !st.QueuedAt.Equal(t0) || !st.Until.Equal(t0.Add(DefaultProcessing)) {
		t.Errorf("listed: %+v", st)
	}
	run, _ := Send(context.Background(), m, States{}, []string{"COUNTED"}, t0, 0)
	if types, ok := run.Queued["COUNTED"]; !ok || types != nil {
		t.Errorf("counted without a list: %v %v", types, ok)
	}
	run, _ = Send(context.Background(), m, States{}, []string{"EMPTY"}, t0, 0)
	if run.Verdict() != VerdictNothing || run.Outcome("EMPTY") != OutcomeNothing {
		t.Errorf("nothing to resend: %v %v", run.Verdict(), run.Outcome("EMPTY"))
	}
}

// TestBusyNamed: the order is named as a whole word only, and the time is
// bounded to the next hour.
func TestBusyNamed(t *testing.T) {
	err := busy429("AB1", t0.Add(5*time.Hour))
	nr, at := busyNamed(err, []string{"AB", "AB1"}, t0)
	if nr != "AB1" || !at.Equal(t0.Add(time.Hour)) {
		t.Errorf("named %q at %v, want AB1 an hour on", nr, at)
	}
	if nr, _ := busyNamed(busy429("XAB1Y", time.Time{}), []string{"AB1"}, t0); nr != "" {
		t.Errorf("a part of a word named %q", nr)
	}
	if !strings.Contains(err.Error(), "AB1") {
		t.Fatal("test error does not carry the message")
	}
}
