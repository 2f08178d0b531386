package failure

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// TestMarketplace: each failure of a marketplace call has its kind, a
// title and words; the time the marketplace gave is kept; anything else
// is none of them.
func TestMarketplace(t *testing.T) {
	retry := time.Date(2026, 11, 27, 9, 0, 30, 0, time.UTC)
	for _, c := range []struct {
		err   error
		kind  Kind
		words string
	}{
		{&apiclient.RateLimitError{RetryAt: retry, Status: 429}, RateLimited, "2026-11-27T09:00:30Z"},
		{&apiclient.RateLimitError{RetryAt: retry, Status: 503}, Busy, "2026-11-27T09:00:30Z"},
		{apiclient.ErrRateLimited, RateLimited, "slow down"},
		{apiclient.ErrUnavailable, Busy, ""},
		{fmt.Errorf("list: %w", apiclient.ErrForbidden), Forbidden, ""},
		{apiclient.ErrNotFound, NotFound, ""},
		{apiclient.ErrOutcomeUnknown, OutcomeUnknown, "no answer came back"},
		{apiclient.ErrUnexpectedResponse, Unreadable, ""},
		{&apiclient.RequestError{Op: "x"}, NotSent, ""},
		{apiclient.ErrValidation, Refused, ""},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), Slow, ""},
		{&url.Error{Op: "Get", URL: "http://x", Err: errors.New("refused")}, NoConnection, ""},
	} {
		f, ok := Marketplace(c.err)
		title, msg := i18n.Of(f.Title).In(i18n.EN, nil), f.Message.In(i18n.EN, nil)
		if !ok || f.Kind != c.kind || title == "" || msg == "" || !strings.Contains(msg, c.words) {
			t.Errorf("%v: %v kind %d %q %q; want kind %d, words with %q", c.err, ok, f.Kind, title, msg, c.kind, c.words)
		}
		if _, isRL := c.err.(*apiclient.RateLimitError); isRL != !f.RetryAt.IsZero() {
			t.Errorf("%v: RetryAt %v", c.err, f.RetryAt)
		}
	}
	for _, err := range []error{errors.New("boom"), &apiclient.RPCError{Code: -32099}, sqldb.ErrUnavailable} {
		if f, ok := Marketplace(err); ok {
			t.Errorf("%v: kind %d, want none", err, f.Kind)
		}
	}
}

// TestAnswer: an error answer the dashboard has no words for says whose it
// was and its code, kept as sent (a long code cut), never as an amount.
func TestAnswer(t *testing.T) {
	for _, c := range []struct {
		err  error
		code string
	}{
		{&apiclient.RPCError{Code: -32099}, "(JSON-RPC code -32099)"},
		{&apiclient.B2BError{Status: 500, Code: 7}, "(HTTP 500, code 7)"},
		{&apiclient.GiftCertificateError{Status: 409, Code: 12}, "(HTTP 409, code 12)"},
		{&apiclient.RESTError{Status: 500, Code: "12.50"}, "(HTTP 500, code 12.50)"},
		{&apiclient.RESTError{Status: 500, Code: strings.Repeat("X", 50)}, "code " + strings.Repeat("X", 40) + "…)"},
	} {
		f, ok := Answer(c.err)
		if msg := f.Message.In(i18n.EN, nil); !ok || f.Kind != Unknown || !strings.Contains(msg, c.code) {
			t.Errorf("%v: %v kind %d %q, want %q", c.err, ok, f.Kind, msg, c.code)
		}
	}
	if _, ok := Answer(errors.New("boom")); ok {
		t.Error("a plain error is a marketplace answer")
	}
}

// TestStore: a database failure names the service that failed, or the
// database; Rejected is the marketplace refusing the credentials.
func TestStore(t *testing.T) {
	cause := errors.New("disk I/O error")
	for err, title := range map[error]string{
		sqldb.Unavailable("sessions", cause):                            "Session store unavailable",
		sqldb.Unavailable("sessions", sqldb.Unavailable("jobs", cause)): "Job service unavailable",
		sqldb.Unavailable("history", cause):                             "History unavailable",
		fmt.Errorf("ping: %w", sqldb.ErrUnavailable):                    "Database unavailable",
	} {
		f := Store(err)
		if got := i18n.Of(f.Title).In(i18n.EN, nil); f.Kind != Database || got != title || len(f.Message) == 0 {
			t.Errorf("%v: kind %d %q, want %q", err, f.Kind, got, title)
		}
	}
	if !Rejected(fmt.Errorf("x: %w", apiclient.ErrUnauthorized)) || Rejected(apiclient.ErrForbidden) {
		t.Error("Rejected")
	}
}
