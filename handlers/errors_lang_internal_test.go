package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/httpx/formbody"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// latinIn returns the Latin words of s but the allowed ones (protocol
// names the messages quote).
func latinIn(s string, allowed ...string) []string {
	var out []string
	for _, w := range regexp.MustCompile(`[A-Za-z][A-Za-z'-]*`).FindAllString(s, -1) {
		ok := false
		for _, a := range allowed {
			ok = ok || w == a
		}
		if !ok {
			out = append(out, w)
		}
	}
	return out
}

// describedErrors are the errors the dashboard has its own words for, each
// with its status.
func describedErrors() map[string]error {
	return map[string]error{
		"session store":   errSessionStore(errors.New("disk full")),
		"rate limit 429":  &apiclient.RateLimitError{RetryAt: time.Now().Add(30 * time.Second), Status: 429},
		"rate limit 503":  &apiclient.RateLimitError{RetryAt: time.Now().Add(30 * time.Second), Status: 503},
		"rate limited":    apiclient.ErrRateLimited,
		"unavailable":     apiclient.ErrUnavailable,
		"forbidden":       apiclient.ErrForbidden,
		"not found":       apiclient.ErrNotFound,
		"outcome unknown": apiclient.ErrOutcomeUnknown,
		"unreadable":      apiclient.ErrUnexpectedResponse,
		"request error":   &apiclient.RequestError{Op: "x"},
		"validation":      apiclient.ErrValidation,
		"deadline":        fmt.Errorf("call: %w", context.DeadlineExceeded),
		"connection":      &url.Error{Op: "Get", URL: "http://x", Err: errors.New("refused")},
		"404":             echo.ErrNotFound,
		"405":             echo.ErrMethodNotAllowed,
		"408":             echo.NewHTTPError(http.StatusRequestTimeout),
		"413":             echo.ErrStatusRequestEntityTooLarge,
		"429 own":         echo.NewHTTPError(http.StatusTooManyRequests),
		"503 own":         echo.NewHTTPError(http.StatusServiceUnavailable),
		"rpc code":        &apiclient.RPCError{Code: -32099, Message: "Internal"},
		"rest code":       &apiclient.RESTError{Status: 500, Code: "BOOM"},
		"unexpected":      errors.New("boom"),
		"copy revoked":    copyRevoked(),
	}
}

// TestDescribeInRussian: every error page's title and message, the retry
// time included, is Russian; only protocol names and the marketplace's own
// codes stay Latin.
func TestDescribeInRussian(t *testing.T) {
	t.Parallel()
	a := &App{}
	ru := i18n.WithLang(context.Background(), i18n.RU)
	for name, err := range describedErrors() {
		v := a.describe(ru, err)
		if v.Title == "" || v.Message == "" && v.Status != http.StatusTooManyRequests && v.Status != http.StatusServiceUnavailable {
			t.Errorf("%s: empty %+v", name, v)
		}
		if words := latinIn(v.Title+" "+v.Message+" "+v.LinkText, "HTTP", "JSON-RPC", "BOOM"); len(words) > 0 {
			t.Errorf("%s: English in %q / %q: %q", name, v.Title, v.Message, words)
		}
	}
	v := a.describe(ru, &apiclient.RateLimitError{RetryAt: time.Now().Add(30 * time.Second), Status: 429})
	if v.Title != "Маркетплейс перегружен" || !strings.Contains(v.Message, "МСК.") {
		t.Errorf("busy: %q %q", v.Title, v.Message)
	}
	if v := a.describe(ru, &apiclient.RPCError{Code: -32099}); !strings.Contains(v.Message, "(JSON-RPC код -32099)") {
		t.Errorf("rpc: %q", v.Message)
	}
	if v := a.describe(ru, echo.ErrStatusRequestEntityTooLarge); v.Title != "Слишком большой запрос" {
		t.Errorf("413: %q", v.Title)
	}
}

// TestDescribeInEnglish: the English words are as they were.
func TestDescribeInEnglish(t *testing.T) {
	t.Parallel()
	a := &App{}
	en := i18n.WithLang(context.Background(), i18n.EN)
	for name, want := range map[string][2]string{
		"rate limited":    {"The marketplace is busy", "It asked us to slow down, so we are waiting instead of pressing on."},
		"outcome unknown": {"No answer from the marketplace", "The change was sent, but no answer came back"},
		"413":             {"Request Entity Too Large", "The form is too large to accept."},
		"405":             {"Method Not Allowed", "This address does not accept that kind of request."},
		"rpc code":        {"The marketplace answered with an error", "(JSON-RPC code -32099)"},
		"rest code":       {"The marketplace answered with an error", "(HTTP 500, code BOOM)"},
		"unexpected":      {"Something went wrong", "It has been logged."},
		"copy revoked":    {"Forbidden", "The marketplace refused this account's credentials, so its data is no longer shown. Log in again."},
	} {
		v := a.describe(en, describedErrors()[name])
		if v.Title != want[0] || !strings.Contains(v.Message, want[1]) {
			t.Errorf("%s: %q %q, want %q and %q", name, v.Title, v.Message, want[0], want[1])
		}
	}
	if v := a.describe(en, describedErrors()["rate limit 429"]); !strings.Contains(v.Message, "MSK.") {
		t.Errorf("busy until: %q", v.Message)
	}
}

// timeoutErr is a network timeout, as a slow body's read gives.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestBodyErrorInBothLanguages: a form that arrived too slowly or broke
// off is explained in the reader's language.
func TestBodyErrorInBothLanguages(t *testing.T) {
	t.Parallel()
	ru := i18n.WithLang(context.Background(), i18n.RU)
	en := i18n.WithLang(context.Background(), i18n.EN)
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{ru, timeoutErr{}, "Форма пришла слишком медленно"},
		{ru, errors.New("unexpected EOF"), "Форму не удалось прочитать"},
		{en, timeoutErr{}, "The form arrived too slowly"},
		{en, errors.New("unexpected EOF"), "The form could not be read"},
	} {
		if v := (&App{}).describe(c.ctx, formbody.Error(c.err)); !strings.HasPrefix(v.Message, c.want) {
			t.Errorf("%v in %s: %d %q, want %q", c.err, i18n.LangOf(c.ctx), v.Status, v.Message, c.want)
		}
	}
}

// TestUnavailableWords: a database failure names the store that failed,
// or the database when none is named, in the reader's language; a failure
// wrapped again on the way up keeps the first store's name.
func TestUnavailableWords(t *testing.T) {
	t.Parallel()
	a := &App{}
	ru := i18n.WithLang(context.Background(), i18n.RU)
	en := i18n.WithLang(context.Background(), i18n.EN)
	cause := errors.New("disk I/O error")
	for _, c := range []struct {
		ctx       context.Context
		err       error
		wantTitle string
	}{
		{en, errSessionStore(cause), "Session store unavailable"},
		{en, errSessionStore(sqldb.Unavailable("jobs", cause)), "Job service unavailable"},
		{ru, sqldb.Unavailable("history", cause), "История изменений недоступна"},
		{en, fmt.Errorf("sqldb: ping: %w", sqldb.ErrUnavailable), "Database unavailable"},
		{ru, fmt.Errorf("sqldb: ping: %w", sqldb.ErrUnavailable), "База данных недоступна"},
	} {
		v := a.describe(c.ctx, c.err)
		if v.Status != http.StatusServiceUnavailable || v.Title != c.wantTitle || v.Message == "" || v.RetryIn == 0 {
			t.Errorf("%v: %d %q %q, want 503 %q", c.err, v.Status, v.Title, v.Message, c.wantTitle)
		}
	}
}
