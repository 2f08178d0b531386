package resend

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// Notifier is the marketplace's resend call (apiclient.B2BService).
type Notifier interface {
	ResendNotifications(ctx context.Context, req *apiclient.ResendRequest) (*apiclient.ResendResult, error)
}

// MaxRequests bounds the marketplace calls of one resend: a selection
// split around busy orders, or tried order by order.
const MaxRequests = 10

// DefaultProcessing is how long a queued resend is taken to keep the
// marketplace busy when Send is given no time: the contract names none,
// the sandbox keeps notifications processing this long, and a refusal that
// names a later time extends it.
const DefaultProcessing = 60 * time.Second

// maxKinds bounds the notification kinds kept of one order.
const maxKinds = 8

// Failure is a refusal of a whole request, which queued nothing of it.
type Failure int

const (
	// FailureNone: no request was refused as a whole.
	FailureNone Failure = iota
	// FailureUnknownOrder: the marketplace does not know the one order
	// sent (404).
	FailureUnknownOrder
	// FailureUnknownSelected: the marketplace does not know an order of
	// the several sent (404).
	FailureUnknownSelected
	// FailureInvalid: the marketplace found the request invalid.
	FailureInvalid
	// FailureForeignOrder: the marketplace refused the one order sent as
	// not the seller's (403): a refusal of that order, never of the account.
	FailureForeignOrder
	// FailureForeignSelected: an order of the several sent is not the
	// seller's (403).
	FailureForeignSelected
	// FailureNoAnswer: a request after the first failed otherwise (Run.Err
	// says how); what was queued before it stands.
	FailureNoAnswer
)

// Run is what became of each selected order in one resend.
type Run struct {
	Selected []string
	// Queued are the orders the marketplace queued, with the kinds of
	// notification it named (nil: it counted them without naming them).
	Queued map[string][]string
	Empty  []string // sent, but the marketplace had nothing to resend
	Busy   []string // not sent, or refused: still processing
	Unsent []string // not sent: the request budget ran out, or a request was refused
	// Failure is the last refusal of a whole request; Err, with
	// FailureNoAnswer, the error behind it.
	Failure  Failure
	Err      error
	Requests int // calls made to the marketplace
}

// Send sends the free orders of selected (none of them busy in states at
// now) and accounts for every one; states learns what was queued (busy
// for processing, DefaultProcessing when zero) and what was refused.
// The first request's failures other than the marketplace's refusals
// (credentials, a store behind the account, no answer) are returned as
// the error, with nothing sent.
func Send(ctx context.Context, api Notifier, states States, selected []string, now time.Time, processing time.Duration) (*Run, error) {
	if processing <= 0 {
		processing = DefaultProcessing
	}
	run := &Run{Selected: selected, Queued: map[string][]string{}}
	var free []string
	for _, nr := range selected {
		if states.BusyUntil(nr).After(now) {
			run.Busy = append(run.Busy, nr)
		} else {
			free = append(free, nr)
		}
	}
	pending := [][]string{}
	if len(free) > 0 {
		pending = append(pending, free)
	}
	for len(pending) > 0 {
		set := pending[0]
		pending = pending[1:]
		if run.Requests == MaxRequests {
			run.Unsent = append(run.Unsent, set...)
			continue
		}
		run.Requests++
		res, err := api.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: set})
		var rl *apiclient.RateLimitError
		switch {
		case err == nil:
			types := map[string][]string{}
			for _, n := range res.Notifications {
				if t := notificationType(n.Type); t != "" && len(types[n.OrderNr]) < maxKinds {
					types[n.OrderNr] = append(types[n.OrderNr], t)
				}
			}
			for _, nr := range set {
				switch {
				case len(types[nr]) > 0:
					run.Queued[nr] = types[nr]
				case res.Queued > 0 && len(res.Notifications) == 0:
					// A marketplace that counts without listing: queued, kinds unknown.
					run.Queued[nr] = nil
				default:
					run.Empty = append(run.Empty, nr)
				}
				states.Queued(nr, now, now.Add(processing), run.Queued[nr], len(types[nr]))
			}
		case errors.As(err, &rl) || errors.Is(err, apiclient.ErrRateLimited):
			named, at := busyNamed(err, set, now)
			switch {
			case named != "" && len(set) > 1:
				// One named order blocked the rest: they go again without it.
				states.Refused(named, now, at)
				run.Busy = append(run.Busy, named)
				pending = append(pending, slices.DeleteFunc(slices.Clone(set), func(nr string) bool { return nr == named }))
			case len(set) == 1:
				states.Refused(set[0], now, at)
				run.Busy = append(run.Busy, set[0])
			default:
				// Refused without naming an order: try them one by one.
				for _, nr := range set {
					pending = append(pending, []string{nr})
				}
			}
		case errors.Is(err, apiclient.ErrNotFound):
			run.Failure = FailureUnknownOrder
			if len(set) > 1 {
				run.Failure = FailureUnknownSelected
			}
			run.Unsent = append(run.Unsent, set...)
		case errors.Is(err, apiclient.ErrValidation):
			run.Failure = FailureInvalid
			run.Unsent = append(run.Unsent, set...)
		case errors.Is(err, apiclient.ErrForbidden):
			run.Failure = FailureForeignOrder
			if len(set) > 1 {
				run.Failure = FailureForeignSelected
			}
			run.Unsent = append(run.Unsent, set...)
		default:
			if run.Requests == 1 {
				return nil, err
			}
			// Later failures leave what was already queued standing.
			run.Failure, run.Err = FailureNoAnswer, err
			run.Unsent = append(run.Unsent, set...)
			for _, rest := range pending {
				run.Unsent = append(run.Unsent, rest...)
			}
			pending = nil
		}
	}
	return run, nil
}

// Verdict is the outcome of a run as a whole.
type Verdict int

const (
	// VerdictQueued: something was queued (a Failure may come beside it).
	VerdictQueued Verdict = iota
	// VerdictFailed: nothing was queued, and a request was refused.
	VerdictFailed
	// VerdictBusy: nothing was queued, and an order was still processing.
	VerdictBusy
	// VerdictNothing: the marketplace had nothing to resend.
	VerdictNothing
	// VerdictUnsent: nothing was sent at all.
	VerdictUnsent
)

// Verdict sums the run up.
func (r *Run) Verdict() Verdict {
	switch {
	case len(r.Queued) > 0:
		return VerdictQueued
	case r.Failure != FailureNone:
		return VerdictFailed
	case len(r.Busy) > 0:
		return VerdictBusy
	case len(r.Empty) > 0:
		return VerdictNothing
	}
	return VerdictUnsent
}

// Outcome is what became of one selected order.
type Outcome int

const (
	// OutcomeUnsent: not sent.
	OutcomeUnsent Outcome = iota
	// OutcomeQueued: its notifications were queued.
	OutcomeQueued
	// OutcomeNothing: sent; the marketplace had nothing to resend.
	OutcomeNothing
	// OutcomeBusy: not sent, or refused, because it was still processing.
	OutcomeBusy
	// OutcomeRefused: sent in a request the marketplace refused (Failure).
	OutcomeRefused
)

// Outcome is what became of order nr of the selection.
func (r *Run) Outcome(nr string) Outcome {
	switch _, queued := r.Queued[nr]; {
	case queued:
		return OutcomeQueued
	case slices.Contains(r.Empty, nr):
		return OutcomeNothing
	case slices.Contains(r.Busy, nr):
		return OutcomeBusy
	case slices.Contains(r.Unsent, nr) && r.Failure != FailureNone:
		return OutcomeRefused
	}
	return OutcomeUnsent
}

// notificationType keeps a notification kind the marketplace named if it
// looks like one (letters only, bounded): it is shown and stored.
func notificationType(t string) string {
	if len(t) == 0 || len(t) > 40 {
		return ""
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return ""
		}
	}
	return t
}

// retryAfterText finds a time in a refusal's message ("retry after
// 2026-11-24T12:01:05Z"); the contract gives none, the sandbox and, by
// report, the marketplace put one there.
var retryAfterText = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)

// busyNamed reads a 429 for the order it names (one of set, as a whole
// word) and the time it names in its message or, failing that, in its
// Retry-After, bounded to the next hour; zero when none.
func busyNamed(err error, set []string, now time.Time) (string, time.Time) {
	var at time.Time
	var rl *apiclient.RateLimitError
	if errors.As(err, &rl) && !rl.RetryAt.IsZero() {
		// apiclient states RetryAt on the wall clock; the wait is moved
		// onto the caller's clock (tests run it on the sandbox's).
		at = now.Add(time.Until(rl.RetryAt))
	}
	limit := now.Add(time.Hour)
	if at.After(limit) {
		at = limit
	}
	var be *apiclient.B2BError
	if !errors.As(err, &be) {
		return "", at
	}
	msg := be.Message
	if len(msg) > 2000 {
		msg = msg[:2000]
	}
	named := ""
	words := strings.FieldsFunc(msg, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
	for _, w := range words {
		if slices.Contains(set, w) {
			named = w
			break
		}
	}
	if m := retryAfterText.FindString(msg); m != "" {
		if t, err := time.Parse(time.RFC3339Nano, m); err == nil && t.After(now) {
			at = t
			if at.After(limit) {
				at = limit
			}
		}
	}
	return named, at
}
