// Package logctx carries a request's id in its context to every log line
// written for that request, whichever package writes it: the handlers put
// the id in (WithRequestID), the composition root wraps the process's log
// handler (Handler), and any logger called with that context (slog's
// *Context methods, LogAttrs) prints it as request_id.
package logctx

import (
	"context"
	"log/slog"
)

// Key is the attribute the request id is logged under.
const Key = "request_id"

type ctxKey struct{}

// WithRequestID returns ctx carrying the request id id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// RequestID is the request id ctx carries, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// Handler wraps h so that every record logged with a context carrying a
// request id gets it as request_id, unless the logger or the record
// already holds one (a logger made With("request_id", …)).
func Handler(h slog.Handler) slog.Handler {
	if w, ok := h.(*handler); ok {
		return w
	}
	return &handler{next: h}
}

type handler struct {
	next slog.Handler
	has  bool // the logger's attributes already name the request id
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	if !h.has && !names(r) {
		if id := RequestID(ctx); id != "" {
			r = r.Clone()
			r.AddAttrs(slog.String(Key, id))
		}
	}
	return h.next.Handle(ctx, r)
}

// names reports whether the record itself carries the request id.
func names(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == Key
		return !found
	})
	return found
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	has := h.has
	for _, a := range attrs {
		if a.Key == Key {
			has = true
		}
	}
	return &handler{next: h.next.WithAttrs(attrs), has: has}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), has: h.has}
}
