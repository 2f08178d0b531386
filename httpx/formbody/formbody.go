// Package formbody reads a form post's body before anything else runs,
// under its own deadline, so that a client sending slowly is told so and
// a slow upload is never mistaken for a slow marketplace.
package formbody

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// MaxMemory is how much of a multipart form is held in memory; the
// router's body limit keeps a whole upload below it, so nothing spills to
// disk.
const MaxMemory = 16 << 20

// The ways a body can fail, for errors.Is on the answer's error: the
// client sent too slowly (408), or a body that cannot be read (400). A
// body over the size limit is a 413 of its own.
var (
	ErrTooSlow = errors.New("formbody: the form arrived too slowly")
	ErrBroken  = errors.New("formbody: the form could not be read")
)

// Read parses a POST's form (multipart or URL-encoded) within timeout of
// the request reaching it; handlers then find the parsed form in place. A
// body that breaks off is a 400 (ErrBroken), one too slow a 408
// (ErrTooSlow) and one over the size limit a 413 (chunked bodies
// included, which only show their size while being read).
func Read(timeout time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
				return next(c)
			}
			rc := http.NewResponseController(c.Response())
			deadlineSet := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
			if err := Parse(r); err != nil {
				// The rest of a broken body is not waited for: the
				// deadline stays as it was (net/http would otherwise
				// read what is left before answering) and the
				// connection closes after the answer.
				c.Response().Header().Set(echo.HeaderConnection, "close")
				if deadlineSet {
					_ = rc.SetReadDeadline(time.Now())
				}
				return Error(err)
			}
			if deadlineSet {
				_ = rc.SetReadDeadline(time.Time{})
			}
			return next(c)
		}
	}
}

// Parse parses r's form, multipart or URL-encoded.
func Parse(r *http.Request) error {
	if strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEMultipartForm) {
		return r.ParseMultipartForm(MaxMemory)
	}
	return r.ParseForm()
}

// Error is the answer to a body that failed with err while being read:
// 413, 408 (ErrTooSlow) or 400 (ErrBroken), with err inside.
func Error(err error) error {
	var he *echo.HTTPError
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge, errors.As(err, &tooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge).SetInternal(err)
	case errors.As(err, &ne) && ne.Timeout():
		return echo.NewHTTPError(http.StatusRequestTimeout).SetInternal(fmt.Errorf("%w: %w", ErrTooSlow, err))
	}
	return echo.NewHTTPError(http.StatusBadRequest).SetInternal(fmt.Errorf("%w: %w", ErrBroken, err))
}
