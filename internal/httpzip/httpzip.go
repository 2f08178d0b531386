// Package httpzip compresses the dashboard's own answers: HTML pages and
// fragments, CSV and JSON, with gzip at a low level, when the client accepts
// it and the body is long enough to gain from it. Everything else passes
// through as it is: other types (XLSX is compressed already, static files
// arrive compressed by the static package), HEAD, answers without a body,
// short bodies. A flush reaches the client (a streamed download stays
// streamed, compressed as it goes). The compressor is klauspost/compress's
// gzip, the standard library's API at about half its CPU per page at
// level 1 (P16 measures what a page costs).
package httpzip

import (
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
)

// Config is the middleware's setting.
type Config struct {
	// Level is the gzip level (gzip.BestSpeed, 1, if zero): a page is
	// compressed on every request, so speed matters more than the last
	// few per cent.
	Level int
	// MinLength is the shortest body compressed (1024 bytes if zero): below
	// it gzip's own overhead eats most of the gain.
	MinLength int
	// Skip, when set, leaves a request's answer untouched (health and
	// readiness probes).
	Skip func(c echo.Context) bool
}

const (
	defaultLevel     = gzip.BestSpeed
	defaultMinLength = 1024
	wireKey          = "httpzip.wire"
)

// compressible are the media types compressed: the answers the handlers
// write themselves.
var compressible = map[string]bool{
	"text/html":        true,
	"text/csv":         true,
	"application/json": true,
}

// Compressible reports whether a Content-Type names a type this
// middleware compresses.
func Compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && compressible[mt]
}

// AcceptsGzip reports whether an Accept-Encoding header accepts gzip: named
// (or x-gzip), or "*", with a non-zero quality.
func AcceptsGzip(header string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "x-gzip" && name != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if name == "*" {
			star = q > 0
			continue
		}
		return q > 0
	}
	return star
}

// Middleware compresses the answers of the handlers it wraps (see the
// package comment). It renders a handler's error itself (c.Error), so error
// pages are compressed like any page, and records the bytes that went on
// the wire for WireBytes.
func Middleware(cfg Config) echo.MiddlewareFunc {
	if cfg.Level == 0 {
		cfg.Level = defaultLevel
	}
	if cfg.MinLength <= 0 {
		cfg.MinLength = defaultMinLength
	}
	level := cfg.Level
	pool := &sync.Pool{New: func() any {
		zw, err := gzip.NewWriterLevel(nil, level)
		if err != nil { // a level out of range: the default
			zw = gzip.NewWriter(nil)
		}
		return zw
	}}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Method == http.MethodHead || cfg.Skip != nil && cfg.Skip(c) {
				return next(c)
			}
			res := c.Response()
			w := &writer{
				rw:      res.Writer,
				pool:    pool,
				min:     cfg.MinLength,
				accepts: AcceptsGzip(r.Header.Get(echo.HeaderAcceptEncoding)),
			}
			res.Writer = w
			done := false
			defer func() {
				res.Writer = w.rw
				if !done {
					// A panic on its way up (an aborted download): nothing
					// more is written, the compressor is dropped.
					w.zw = nil
				}
			}()
			if err := next(c); err != nil {
				c.Error(err)
			}
			// An error here is the client gone while the end went out:
			// nothing is left to tell it.
			_ = w.finish()
			done = true
			c.Set(wireKey, w.wire)
			return nil
		}
	}
}

// WireBytes is how many body bytes the answer put on the wire, after
// compression; the bytes the handler wrote (c.Response().Size) where the
// middleware did not run.
func WireBytes(c echo.Context) int64 {
	if n, ok := c.Get(wireKey).(int64); ok {
		return n
	}
	return c.Response().Size
}

// writer holds the start of a compressible body until it knows whether to
// compress: MinLength bytes arrived (compress), a flush (compress: more is
// coming), or the end (send as it is).
type writer struct {
	rw      http.ResponseWriter
	pool    *sync.Pool
	min     int
	accepts bool

	code    int  // the status, once the handler set it
	decided bool // the header went out (plain or compressed)
	zw      *gzip.Writer
	buf     []byte
	wire    int64
}

// Header is the underlying writer's header.
func (w *writer) Header() http.Header { return w.rw.Header() }

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *writer) Unwrap() http.ResponseWriter { return w.rw }

// WriteHeader records the status; the header goes out once the body shows
// whether it is compressed. An answer that will never be compressed goes
// out at once.
func (w *writer) WriteHeader(code int) {
	if code < 200 { // informational: passes through, the real one follows
		w.rw.WriteHeader(code)
		return
	}
	if w.decided || w.code != 0 {
		return
	}
	w.code = code
	h := w.rw.Header()
	bodyful := code != http.StatusNoContent && code != http.StatusNotModified && code != http.StatusPartialContent
	if bodyful && h.Get(echo.HeaderContentEncoding) == "" && Compressible(h.Get(echo.HeaderContentType)) {
		h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if w.accepts {
			return // held until the body says
		}
	}
	w.sendPlain()
}

func (w *writer) sendPlain() {
	w.decided = true
	w.rw.WriteHeader(w.code)
}

func (w *writer) startGzip() {
	w.decided = true
	h := w.rw.Header()
	h.Del(echo.HeaderContentLength)
	h.Set(echo.HeaderContentEncoding, "gzip")
	w.rw.WriteHeader(w.code)
	w.zw = w.pool.Get().(*gzip.Writer)
	w.zw.Reset(wireCounter{w})
}

// Write sends p (compressed, plain, or held while undecided).
func (w *writer) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.WriteHeader(http.StatusOK)
	}
	switch {
	case w.zw != nil:
		return w.zw.Write(p)
	case w.decided:
		n, err := w.rw.Write(p)
		w.wire += int64(n)
		return n, err
	}
	if len(w.buf)+len(p) < w.min {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	w.startGzip()
	if len(w.buf) > 0 {
		held := w.buf
		w.buf = nil
		if _, err := w.zw.Write(held); err != nil {
			return 0, err
		}
	}
	return w.zw.Write(p)
}

// FlushError sends what was written so far. An undecided answer is
// compressed from here on: a handler that flushes is streaming, and its
// length is unknown.
func (w *writer) FlushError() error {
	if w.code == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !w.decided {
		w.startGzip()
		if _, err := w.zw.Write(w.buf); err != nil {
			return err
		}
		w.buf = nil
	}
	if w.zw != nil {
		if err := w.zw.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(w.rw).Flush()
}

// Flush is FlushError for callers that know only http.Flusher.
func (w *writer) Flush() { _ = w.FlushError() }

// finish ends the answer: a held header and body go out as they are (the
// body was short), a compressed one gets its trailer.
func (w *writer) finish() error {
	if w.zw != nil {
		zw := w.zw
		w.zw = nil
		err := zw.Close()
		zw.Reset(nil)
		w.pool.Put(zw)
		return err
	}
	if !w.decided && w.code != 0 {
		w.sendPlain()
		if len(w.buf) > 0 {
			n, err := w.rw.Write(w.buf)
			w.wire += int64(n)
			w.buf = nil
			if err != nil && !errors.Is(err, http.ErrBodyNotAllowed) {
				return err
			}
		}
	}
	return nil
}

// wireCounter counts the compressed bytes on their way out.
type wireCounter struct{ w *writer }

func (c wireCounter) Write(p []byte) (int, error) {
	n, err := c.w.rw.Write(p)
	c.w.wire += int64(n)
	return n, err
}
