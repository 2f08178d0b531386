package formbody

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestError: each way a body fails has its status, and the slow and broken
// ones their sentinel.
func TestError(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		is     error
	}{
		{timeoutErr{}, http.StatusRequestTimeout, ErrTooSlow},
		{errors.New("unexpected EOF"), http.StatusBadRequest, ErrBroken},
		{&http.MaxBytesError{Limit: 10}, http.StatusRequestEntityTooLarge, nil},
		{echo.ErrStatusRequestEntityTooLarge, http.StatusRequestEntityTooLarge, nil},
	} {
		got := Error(c.err)
		var he *echo.HTTPError
		if !errors.As(got, &he) || he.Code != c.status {
			t.Errorf("%v: %v, want status %d", c.err, got, c.status)
		}
		if c.is != nil && !errors.Is(got, c.is) {
			t.Errorf("%v: %v is not %v", c.err, got, c.is)
		}
	}
}

// TestRead: a form post is parsed before the handler runs; a broken
// multipart body is a 400 and closes the connection.
func TestRead(t *testing.T) {
	e := echo.New()
	var seen string
	h := Read(0)(func(c echo.Context) error {
		seen = c.Request().PostForm.Get("a")
		return nil
	})
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("a=1"))
	r.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	if err := h(e.NewContext(r, httptest.NewRecorder())); err != nil || seen != "1" {
		t.Fatalf("a good form: %v, a=%q", err, seen)
	}
	r = httptest.NewRequest(http.MethodPost, "/", strings.NewReader("--x\r\nbroken"))
	r.Header.Set(echo.HeaderContentType, echo.MIMEMultipartForm+"; boundary=x")
	w := httptest.NewRecorder()
	err := h(e.NewContext(r, w))
	var he *echo.HTTPError
	if !errors.As(err, &he) || he.Code != http.StatusBadRequest || !errors.Is(err, ErrBroken) {
		t.Fatalf("a broken form: %v", err)
	}
	if w.Header().Get(echo.HeaderConnection) != "close" {
		t.Errorf("a broken form leaves the connection open")
	}
}
