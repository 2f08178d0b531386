// Package reqlog gives every request an id and a logger that prints it,
// writes one access line per request and turns a panic into an error the
// router answers, with the stack in the log only.
package reqlog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/internal/logctx"
)

type ctxKey struct{}

var validID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// RequestID gives every request an id, taken from a well-formed incoming
// X-Request-ID (a proxy's) or made fresh, answers with it, and puts in the
// request's context the id (logctx) and log with the id on every line.
func RequestID(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			id := r.Header.Get(echo.HeaderXRequestID)
			if !validID.MatchString(id) {
				var b [12]byte
				_, _ = rand.Read(b[:])
				id = hex.EncodeToString(b[:])
			}
			c.Response().Header().Set(echo.HeaderXRequestID, id)
			ctx := logctx.WithRequestID(r.Context(), id)
			ctx = context.WithValue(ctx, ctxKey{}, log.With(logctx.Key, id))
			c.SetRequest(r.WithContext(ctx))
			return next(c)
		}
	}
}

// ID returns the request id of a context, or "".
func ID(ctx context.Context) string { return logctx.RequestID(ctx) }

// Logger returns the request's logger (with its request id), or fallback
// outside a request.
func Logger(ctx context.Context, fallback *slog.Logger) *slog.Logger {
	if l, ok := ctx.Value(ctxKey{}).(*slog.Logger); ok {
		return l
	}
	return fallback
}

// Access writes one line per request with the request's logger (see
// RequestID; fallback outside one): method, path (never the query, which
// may hold user input), route template, status, bytes written, duration
// and whether htmx sent it. A handler's error is answered (c.Error) first,
// so the line carries the status the client got.
func Access(fallback *slog.Logger, o AccessOptions) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			took := time.Since(start)
			r := c.Request()
			level := slog.LevelInfo
			if c.Response().Status >= 500 {
				level = slog.LevelError
			}
			wire := c.Response().Size
			if o.WireBytes != nil {
				wire = o.WireBytes(c)
			}
			Logger(r.Context(), fallback).Log(r.Context(), level, "request",
				"method", r.Method, "path", r.URL.Path, "route", c.Path(), "status", c.Response().Status, "bytes", c.Response().Size, "wire_bytes", wire,
				"duration_ms", float64(took.Microseconds())/1000, "htmx", r.Header.Get("HX-Request") == "true")
			if o.Observe != nil {
				o.Observe(c, took)
			}
			return nil
		}
	}
}

// AccessOptions adds to the access line: WireBytes reads what went on the
// wire, compressed or not (nil: the body's size); Observe is told of each
// request once it is answered (nil: nobody).
type AccessOptions struct {
	WireBytes func(echo.Context) int64
	Observe   func(c echo.Context, took time.Duration)
}

// ErrPanic is the error a recovered panic becomes.
var ErrPanic = fmt.Errorf("reqlog: recovered from a panic")

// Recover turns a panic into ErrPanic, which the router answers as any
// failure; the log gets the panic's type and the stack, never its value
// (which may hold a secret). http.ErrAbortHandler is no failure but the
// way to drop a response whose status is already out: it goes on to
// net/http, which closes the connection unfinished.
func Recover(fallback *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if p := recover(); p != nil {
					if p == http.ErrAbortHandler {
						panic(p)
					}
					Logger(c.Request().Context(), fallback).Error("panic", "panic", fmt.Sprintf("%T", p), "stack", string(debug.Stack()))
					err = ErrPanic
				}
			}()
			return next(c)
		}
	}
}
