// Package failure says what a failed request means for the user, without
// HTTP: a failure of the marketplace (or of the dashboard's own request to
// it) or of the database, as a kind and typed messages. The HTTP layer
// chooses the status and the page; the views put the messages in words.
package failure

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Kind is what went wrong, as the user is told.
type Kind int

// The kinds of failure.
const (
	// None: err is not a failure this package knows.
	None Kind = iota
	// RateLimited: the marketplace asked to slow down (429).
	RateLimited
	// Busy: the marketplace is busy or unavailable (503).
	Busy
	// Forbidden: the marketplace refused access to what was asked.
	Forbidden
	// NotFound: the marketplace does not know what was asked.
	NotFound
	// OutcomeUnknown: a write got no answer; whether it was done is not
	// known.
	OutcomeUnknown
	// Unreadable: the marketplace's answer could not be read.
	Unreadable
	// NotSent: the dashboard refused its own request before sending it.
	NotSent
	// Refused: the marketplace refused the request as invalid.
	Refused
	// Slow: the marketplace did not answer in time.
	Slow
	// NoConnection: the connection failed or broke before an answer.
	NoConnection
	// Unknown: an error answer of a kind the dashboard has no special
	// words for (an unknown code, a 500 from the marketplace).
	Unknown
	// Database: the database failed; the message names the service.
	Database
)

// Failure is what the user is told of a failed request.
type Failure struct {
	Kind    Kind
	Title   i18n.Msg
	Message i18n.Msgs
	// RetryAt, when set, is when the marketplace said to try again (on
	// the wall clock, as apiclient states it).
	RetryAt time.Time
}

// Rejected reports whether the marketplace rejected the credentials.
func Rejected(err error) bool { return errors.Is(err, apiclient.ErrUnauthorized) }

// Marketplace says what a failure of a marketplace call means; ok is
// false when err is none (Of, Unknown, covers the marketplace's other
// error answers).
func Marketplace(err error) (f Failure, ok bool) {
	var rl *apiclient.RateLimitError
	switch {
	case errors.As(err, &rl):
		f = of(Busy, i18n.M("error.busy_title", nil), i18n.M("error.slow_down_until", map[string]any{"At": rl.RetryAt.UTC().Format(time.RFC3339)}))
		if errors.Is(err, apiclient.ErrRateLimited) {
			f.Kind = RateLimited
		}
		f.RetryAt = rl.RetryAt
	case errors.Is(err, apiclient.ErrRateLimited):
		f = of(RateLimited, i18n.M("error.busy_title", nil), i18n.M("error.slow_down", nil))
	case errors.Is(err, apiclient.ErrUnavailable):
		f = of(Busy, i18n.M("error.busy_title", nil), i18n.M("error.unavailable", nil))
	case errors.Is(err, apiclient.ErrForbidden):
		f = of(Forbidden, i18n.M("error.forbidden_title", nil), i18n.M("error.forbidden_message", nil))
	case errors.Is(err, apiclient.ErrNotFound):
		f = of(NotFound, i18n.M("error.item_not_found_title", nil), i18n.M("error.item_not_found_message", nil))
	case errors.Is(err, apiclient.ErrOutcomeUnknown):
		f = of(OutcomeUnknown, i18n.M("error.no_answer_title", nil), i18n.M("error.outcome_unknown", nil))
	case errors.Is(err, apiclient.ErrUnexpectedResponse):
		f = of(Unreadable, i18n.M("error.unreadable_title", nil), i18n.M("error.unreadable_message", nil))
	case errors.As(err, new(*apiclient.RequestError)):
		// Refused before sending: the dashboard's own doing, not the
		// marketplace's.
		f = of(NotSent, i18n.M("error.not_sent_title", nil), i18n.M("error.not_sent_message", nil))
		for _, fe := range apiclient.FieldErrors(err) {
			f.Message = append(f.Message, i18n.Plain(strings.TrimSpace(fe.Field+": "+fe.Message))...)
		}
	case errors.Is(err, apiclient.ErrValidation):
		f = of(Refused, i18n.M("error.refused_title", nil), i18n.M("error.refused_message", nil))
		if fe := apiclient.FieldErrors(err); len(fe) > 0 {
			parts := make([]string, 0, len(fe))
			for _, e := range fe {
				parts = append(parts, strings.TrimSpace(e.Field+": "+e.Message))
			}
			f.Message = append(f.Message, i18n.Plain(strings.Join(parts, "; "))...)
		}
	case errors.Is(err, context.DeadlineExceeded):
		f = of(Slow, i18n.M("error.slow_title", nil), i18n.M("error.slow_message", nil))
	case errors.As(err, new(*url.Error)):
		// A read, since writes with an unknown outcome are caught above.
		f = of(NoConnection, i18n.M("error.no_answer_title", nil), i18n.M("error.connection_failed", nil))
	default:
		return Failure{}, false
	}
	return f, true
}

// Answer says what a marketplace error answer the dashboard has no
// special words for means: whose it was, with its code; ok is false when
// err is not one.
func Answer(err error) (f Failure, ok bool) {
	var (
		b2b  *apiclient.B2BError
		gift *apiclient.GiftCertificateError
		rpc  *apiclient.RPCError
		rest *apiclient.RESTError
	)
	var code i18n.Msgs
	httpCode := func(status int, c string) i18n.Msgs {
		return i18n.Join(i18n.Plain("HTTP "+strconv.Itoa(status)+","), i18n.Of(i18n.M("error.code", map[string]any{"Code": i18n.Plain(c)})))
	}
	switch {
	case errors.As(err, &rpc):
		code = i18n.Join(i18n.Plain("JSON-RPC"), i18n.Of(i18n.M("error.code", map[string]any{"Code": i18n.Plain(strconv.Itoa(rpc.Code))})))
	case errors.As(err, &b2b):
		code = httpCode(b2b.Status, strconv.Itoa(b2b.Code))
	case errors.As(err, &gift):
		code = httpCode(gift.Status, strconv.Itoa(gift.Code))
	case errors.As(err, &rest):
		code = httpCode(rest.Status, short(rest.Code, 40))
	default:
		return Failure{}, false
	}
	return of(Unknown, i18n.M("error.marketplace_error_title", nil), i18n.M("error.marketplace_error_message", map[string]any{"Code": code})), true
}

// Store says which of the dashboard's services failed with the database
// (sqldb.StoreOf); a store not named here is "the database".
func Store(err error) Failure {
	switch sqldb.StoreOf(err) {
	case "sessions":
		return of(Database, i18n.M("error.session_store_title", nil), i18n.M("error.session_store_message", nil))
	case "jobs":
		return of(Database, i18n.M("error.jobs_unavailable_title", nil), i18n.M("error.jobs_unavailable_message", nil))
	case "history":
		return of(Database, i18n.M("error.history_unavailable_title", nil), i18n.M("error.history_unavailable_message", nil))
	}
	return of(Database, i18n.M("error.database_unavailable_title", nil), i18n.M("error.database_unavailable_message", nil))
}

func of(k Kind, title, msg i18n.Msg) Failure {
	return Failure{Kind: k, Title: title, Message: i18n.Of(msg)}
}

// short is s cleaned and cut to max characters, a cut marked "…".
func short(s string, max int) string {
	s = i18n.Clean(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	i := 0
	for n := range s {
		if i == max {
			return strings.TrimRightFunc(s[:n], unicode.IsSpace) + "…"
		}
		i++
	}
	return s
}
