package reqlog

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestRequestID: a well-formed incoming id is kept, anything else replaced
// by a fresh one; the answer carries it, and the request's logger prints
// it on the access line.
func TestRequestID(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	e := echo.New()
	var inside string
	e.Pre(RequestID(log))
	e.Use(Access(log, AccessOptions{}))
	e.GET("/p", func(c echo.Context) error {
		inside = ID(c.Request().Context())
		return c.NoContent(http.StatusNoContent)
	})
	for _, c := range []struct{ in, want string }{
		{"proxy-id-123456", "proxy-id-123456"},
		{"short", ""},
		{"bad id with spaces", ""},
	} {
		logs.Reset()
		r := httptest.NewRequest(http.MethodGet, "/p?secret=1", nil)
		r.Header.Set(echo.HeaderXRequestID, c.in)
		w := httptest.NewRecorder()
		e.ServeHTTP(w, r)
		got := w.Header().Get(echo.HeaderXRequestID)
		if c.want != "" && got != c.want || c.want == "" && (got == c.in || !validID.MatchString(got)) {
			t.Errorf("incoming %q: answered %q", c.in, got)
		}
		if inside != got {
			t.Errorf("incoming %q: the handler saw %q, the answer says %q", c.in, inside, got)
		}
		line := logs.String()
		if !strings.Contains(line, "request_id="+got) || !strings.Contains(line, "status=204") || !strings.Contains(line, "route=/p") || strings.Contains(line, "secret") {
			t.Errorf("access line %q", line)
		}
	}
}

// TestRecover: a panic becomes ErrPanic with the stack in the log, never
// the panic's value; http.ErrAbortHandler goes on.
func TestRecover(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
	err := Recover(log)(func(echo.Context) error { panic("token=s3cr3t") })(c)
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("a panic became %v", err)
	}
	if !strings.Contains(logs.String(), "stack=") || strings.Contains(logs.String(), "s3cr3t") {
		t.Errorf("the log: %q", logs.String())
	}
	defer func() {
		if p := recover(); p != http.ErrAbortHandler {
			t.Errorf("ErrAbortHandler became %v", p)
		}
	}()
	_ = Recover(log)(func(echo.Context) error { panic(http.ErrAbortHandler) })(c)
}
