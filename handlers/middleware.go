package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/httpzip"
	"github.com/sellerdesk/sellerdesk/internal/logctx"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	loggerKey
)

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// requestID gives every request an id, taken from a well-formed incoming
// X-Request-ID (a proxy's) or made fresh, and a logger that prints it on
// every line.
func (a *App) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		id := r.Header.Get(echo.HeaderXRequestID)
		if !validRequestID.MatchString(id) {
			var b [12]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		ctx := logctx.WithRequestID(context.WithValue(r.Context(), requestIDKey, id), id)
		ctx = context.WithValue(ctx, loggerKey, a.deps.Logger.With("request_id", id))
		c.SetRequest(r.WithContext(ctx))
		return next(c)
	}
}

// requestIDOf returns the request id of a context, or "".
func requestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// logger returns the request's logger (with its request id).
func (a *App) logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey).(*slog.Logger); ok {
		return l
	}
	return a.deps.Logger
}

// logRequests writes one line per request: method, path (never the query,
// which may hold user input), route template, status, bytes written (the
// body as the handler wrote it, and wire_bytes, as it went out, compressed
// or not) and duration.
func (a *App) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		r := c.Request()
		level := slog.LevelInfo
		if c.Response().Status >= 500 {
			level = slog.LevelError
		}
		a.logger(r.Context()).Log(r.Context(), level, "request",
			"method", r.Method, "path", r.URL.Path, "route", c.Path(), "status", c.Response().Status, "bytes", c.Response().Size, "wire_bytes", httpzip.WireBytes(c),
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "htmx", r.Header.Get("HX-Request") == "true")
		if o := a.deps.Observer; o != nil {
			o.Request(c.Path(), r.Method, c.Response().Status, time.Since(start))
		}
		return nil
	}
}

// recoverPanics turns a panic into a 500 page; the log gets the stack, the
// user a request id. http.ErrAbortHandler is no failure but the way to
// drop a response whose status is already out (see NomenclatureExportAll):
// it goes on to net/http, which closes the connection unfinished.
func (a *App) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				a.logger(c.Request().Context()).Error("panic", "panic", fmt.Sprintf("%T", p), "stack", string(debug.Stack()))
				err = fmt.Errorf("handlers: recovered from a panic")
			}
		}()
		return next(c)
	}
}

// contentSecurityPolicy allows only our own scripts and styles: no inline
// script, no eval, no framing, forms post only to us.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// securityHeaders sets the headers every response carries (the outermost
// handler sets them too, for answers given before Echo runs).
func (a *App) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		setSecurityHeaders(c.Response().Header())
		return next(c)
	}
}

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

const cleanupKey = "cleanup"

// boundUpstream bounds the marketplace calls of a request by
// Deps.UpstreamTimeout. The cancel functions of inner bounds (see
// boundedContext) run when the request ends.
func (a *App) boundUpstream(next echo.HandlerFunc) echo.HandlerFunc {
	return a.upstreamBudget(next, true)
}

// boundPerChunk is boundUpstream for the mass-update forms: they are
// bounded per chunk instead (see massupdate.Send), and their page reload by
// pageContext.
func (a *App) boundPerChunk(next echo.HandlerFunc) echo.HandlerFunc {
	return a.upstreamBudget(next, false)
}

func (a *App) upstreamBudget(next echo.HandlerFunc, bound bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		var cleanup []func()
		c.Set(cleanupKey, &cleanup)
		defer func() {
			for _, f := range cleanup {
				f()
			}
		}()
		orig := c.Request().Context()
		if bound {
			ctx, cancel := context.WithTimeout(orig, a.deps.UpstreamTimeout)
			defer cancel()
			c.SetRequest(c.Request().WithContext(ctx))
		}
		err := next(c)
		// The error page is rendered after this returns, and must not
		// inherit an expired deadline; parsed form values stay.
		c.SetRequest(c.Request().WithContext(orig))
		return err
	}
}

// boundedContext returns ctx bounded by d, cancelled at the latest when the
// request ends.
func boundedContext(c echo.Context, ctx context.Context, d time.Duration) context.Context {
	list, ok := c.Get(cleanupKey).(*[]func())
	if !ok {
		return ctx // outside boundUpstream (not a page route): nothing to bound
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return ctx // already bounded at least as tightly (a page route's own budget)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	*list = append(*list, cancel)
	return ctx
}

// readBody reads a form post's body before anything else runs: under its
// own deadline (Deps.BodyReadTimeout), so that a client sending slowly is
// answered 408, and before boundUpstream starts the marketplace's budget,
// so a slow upload is never mistaken for a slow marketplace. A body that
// breaks off is a 400 and one over the size limit a 413 (chunked bodies
// included, which only show their size while being read). Handlers then
// find the parsed form in place.
func (a *App) readBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		rc := http.NewResponseController(c.Response())
		deadlineSet := rc.SetReadDeadline(time.Now().Add(a.deps.BodyReadTimeout)) == nil
		var err error
		if ct := r.Header.Get(echo.HeaderContentType); strings.HasPrefix(ct, echo.MIMEMultipartForm) {
			err = r.ParseMultipartForm(multipartMemory)
		} else {
			err = r.ParseForm()
		}
		if err != nil {
			// The rest of a broken body is not waited for: the deadline
			// stays as it was (net/http would otherwise read what is left
			// before answering) and the connection closes after the answer.
			c.Response().Header().Set(echo.HeaderConnection, "close")
			if deadlineSet {
				_ = rc.SetReadDeadline(time.Now())
			}
			return bodyError(r.Context(), err)
		}
		if deadlineSet {
			_ = rc.SetReadDeadline(time.Time{})
		}
		return next(c)
	}
}

// multipartMemory is how much of a multipart form is held in memory; the
// body limit keeps a whole upload below it, so nothing spills to disk.
const multipartMemory = 16 << 20

// bodyError says what went wrong while the client was sending its body.
func bodyError(ctx context.Context, err error) error {
	var he *echo.HTTPError
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge, errors.As(err, &tooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge).SetInternal(err)
	case errors.As(err, &ne) && ne.Timeout():
		return echo.NewHTTPError(http.StatusRequestTimeout,
			i18n.T(ctx, "error.form_too_slow")).SetInternal(err)
	}
	return echo.NewHTTPError(http.StatusBadRequest,
		i18n.T(ctx, "error.form_broken")).SetInternal(err)
}
