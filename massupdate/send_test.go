package massupdate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// fakeLocker records the sellers locked and whether every lock was
// released.
type fakeLocker struct {
	mu      sync.Mutex
	sellers []int64
	held    int
	failed  error
}

func (l *fakeLocker) LockSeller(_ context.Context, seller int64) (func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed != nil {
		return nil, l.failed
	}
	l.sellers = append(l.sellers, seller)
	l.held++
	return func() { l.mu.Lock(); l.held--; l.mu.Unlock() }, nil
}

// testKind is a kind of mass update whose chunks answer from a script.
func testKind(answer func(chunk []string) (*apiclient.UpdateResult, error), sent *[][]string) Kind[string] {
	return Kind[string]{
		Name:     "test",
		Key:      func(s string) string { return s },
		ErrorKey: func(e apiclient.ItemError) string { return e.MarketplaceSKU },
		Send: func(_ context.Context, _ *apiclient.Account, _ int64, chunk []string) (*apiclient.UpdateResult, error) {
			*sent = append(*sent, slices.Clone(chunk))
			return answer(chunk)
		},
	}
}

func states(rep *Report) map[string]Outcome {
	out := make(map[string]Outcome, len(rep.Outcomes))
	for k, o := range rep.Outcomes {
		var shown i18n.Msgs
		for _, m := range o.Messages {
			shown = append(shown, i18n.Plain(en(i18n.Of(m)))...)
		}
		o.Messages = shown
		out[k] = o
	}
	return out
}

func TestSendChunksUnderTheSellerLock(t *testing.T) {
	lk := &fakeLocker{}
	e := &Engine{Locker: lk, ChunkSize: 2}
	var sent [][]string
	kind := testKind(func(chunk []string) (*apiclient.UpdateResult, error) {
		res := &apiclient.UpdateResult{}
		for _, k := range chunk {
			switch k {
			case "B":
				res.Errors = append(res.Errors, apiclient.ItemError{MarketplaceSKU: "B", Code: 17}) // no message: the fallback
			case "C":
				res.Errors = append(res.Errors, apiclient.ItemError{MarketplaceSKU: "C", Messages: []string{"too low", "really"}})
			}
		}
		if chunk[0] == "E" {
			res.Errors = append(res.Errors, apiclient.ItemError{MarketplaceSKU: "W1|123", Messages: []string{"by barcode"}})
		}
		return res, nil
	}, &sent)
	rep, err := Send(context.Background(), e, nil, 42, kind, []string{"A", "B", "C", "D", "E"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"A", "B"}, {"C", "D"}, {"E"}}, sent); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{42}, lk.sellers); diff != "" || lk.held != 0 {
		t.Errorf("locks %v (%s), %d still held; want one, released", lk.sellers, diff, lk.held)
	}
	want := map[string]Outcome{
		"A": {State: Accepted},
		"B": {State: Rejected, Messages: i18n.Plain("Rejected by the marketplace (code 17).")},
		"C": {State: Rejected, Messages: i18n.Join(i18n.Plain("too low"), i18n.Plain("really"))},
		"D": {State: Accepted},
		"E": {State: Accepted},
	}
	if diff := cmp.Diff(want, states(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if rep.Accepted != 3 || rep.Rejected != 2 || rep.Unsent != 0 || rep.Unknown != 0 {
		t.Errorf("counts %d accepted, %d rejected, %d unsent, %d unknown", rep.Accepted, rep.Rejected, rep.Unsent, rep.Unknown)
	}
	if diff := cmp.Diff(map[string]i18n.Msgs{"W1|123": i18n.Plain("by barcode")}, rep.Unmatched); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	if rep.Complete() {
		t.Error("a report with rejected rows is complete")
	}
	// An error matched late (by the caller, against the catalogue) turns an
	// accepted row into a rejected one, once.
	rep.Reject("E", i18n.Plain("by barcode"))
	rep.Reject("E", nil)
	if o := rep.Outcomes["E"]; o.State != Rejected || rep.Accepted != 2 || rep.Rejected != 3 {
		t.Errorf("after Reject: %+v, %d accepted, %d rejected", o, rep.Accepted, rep.Rejected)
	}
}

func TestSendStopsEarly(t *testing.T) {
	for _, tc := range []struct {
		name        string
		err         error
		unknown     []string
		unsent      []string
		note        string
		returnedErr bool
	}{
		{name: "outcome unknown", err: apiclient.ErrOutcomeUnknown, unknown: []string{"C", "D"}, unsent: []string{"E"},
			note: "Sending stopped early (no answer came for the last batch). 2 rows got no answer: reload the page to see whether they were applied. 1 row was not sent: submit again to send them."},
		{name: "busy", err: apiclient.ErrUnavailable, unsent: []string{"C", "D", "E"},
			note: "Sending stopped early (the marketplace is busy). 3 rows were not sent: submit again to send them."},
		{name: "unauthorized after the first chunk", err: apiclient.ErrUnauthorized, unsent: []string{"C", "D", "E"},
			note: "Sending stopped early (the marketplace refused the request). 3 rows were not sent: submit again to send them."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent [][]string
			kind := testKind(func(chunk []string) (*apiclient.UpdateResult, error) {
				if chunk[0] == "C" {
					return nil, fmt.Errorf("chunk 2: %w", tc.err)
				}
				return &apiclient.UpdateResult{}, nil
			}, &sent)
			rep, err := Send(context.Background(), &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 1, kind, []string{"A", "B", "C", "D", "E"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.unknown {
				if rep.Outcomes[k].State != Unknown {
					t.Errorf("%s: %s, want unknown", k, rep.Outcomes[k].State)
				}
			}
			for _, k := range tc.unsent {
				if rep.Outcomes[k].State != Unsent {
					t.Errorf("%s: %s, want unsent", k, rep.Outcomes[k].State)
				}
			}
			if len(sent) != 2 || rep.Accepted != 2 || rep.Unknown != len(tc.unknown) || rep.Unsent != len(tc.unsent) {
				t.Errorf("%d chunks sent, %d accepted, %d unknown, %d unsent", len(sent), rep.Accepted, rep.Unknown, rep.Unsent)
			}
			if got := en(rep.Note()); got != tc.note {
				t.Errorf("note %q\nwant %q", got, tc.note)
			}
		})
	}
}

// At the first chunk, credentials rejected and the caller's own store
// failing are the caller's to handle, not a stopped run.
func TestSendFirstChunkErrorsReturned(t *testing.T) {
	storeDown := errors.New("token store down")
	for _, want := range []error{apiclient.ErrUnauthorized, storeDown} {
		var sent [][]string
		kind := testKind(func([]string) (*apiclient.UpdateResult, error) { return nil, want }, &sent)
		e := &Engine{Locker: &fakeLocker{}, StoreFailed: func(err error) bool { return errors.Is(err, storeDown) }}
		rep, err := Send(context.Background(), e, nil, 1, kind, []string{"A"}, nil)
		if !errors.Is(err, want) || rep != nil {
			t.Errorf("Send = %v, %v; want %v", rep, err, want)
		}
	}
	// A lock that cannot be taken is a *LockError, and nothing is sent.
	var sent [][]string
	kind := testKind(func([]string) (*apiclient.UpdateResult, error) { return &apiclient.UpdateResult{}, nil }, &sent)
	_, err := Send(context.Background(), &Engine{Locker: &fakeLocker{failed: storeDown}}, nil, 1, kind, []string{"A"}, nil)
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(err, storeDown) || len(sent) != 0 {
		t.Errorf("Send with the lock down = %v (%d chunks sent); want a *LockError and nothing sent", err, len(sent))
	}
}

// alongLast runs with the last chunk only when an earlier chunk already had
// rows rejected, and Send returns only after it has.
func TestSendAlongLast(t *testing.T) {
	for _, tc := range []struct {
		reject string
		want   bool
	}{{"A", true}, {"", false}, {"E", false}} {
		var sent [][]string
		kind := testKind(func(chunk []string) (*apiclient.UpdateResult, error) {
			res := &apiclient.UpdateResult{}
			if slices.Contains(chunk, tc.reject) {
				res.Errors = []apiclient.ItemError{{MarketplaceSKU: tc.reject, Messages: []string{"no"}}}
			}
			return res, nil
		}, &sent)
		ran := false
		_, err := Send(context.Background(), &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 1, kind, []string{"A", "B", "C", "D", "E"}, func() { ran = true })
		if err != nil {
			t.Fatal(err)
		}
		if ran != tc.want {
			t.Errorf("rejecting %q: alongLast ran = %v, want %v", tc.reject, ran, tc.want)
		}
	}
}

func TestStopReason(t *testing.T) {
	for err, want := range map[error]string{
		apiclient.ErrRateLimited:    "the marketplace is busy",
		apiclient.ErrOutcomeUnknown: "no answer came for the last batch",
		context.Canceled:            "the request was cancelled",
		errors.New("boom"):          "the marketplace refused the request",
	} {
		if got := en(StopReason(err)); !strings.HasPrefix(got, want) {
			t.Errorf("StopReason(%v) = %q, want %q", err, got, want)
		}
	}
}
