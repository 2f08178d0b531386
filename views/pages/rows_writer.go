package pages

import (
	"context"
	"io"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// rowWriter writes the hand-rendered table rows (orderRows, priceRows,
// nomenclatureRows)
// straight to the output, keeping the first error and skipping everything
// after it, as templ's generated code does.
type rowWriter struct {
	ctx context.Context
	w   io.Writer
	sw  io.StringWriter
	err error
	// statuses caches the status labels of one render (statusLabel).
	statuses map[string]string
}

func newRowWriter(ctx context.Context, w io.Writer) *rowWriter {
	sw, ok := w.(io.StringWriter)
	if !ok {
		sw = stringWriter{w}
	}
	return &rowWriter{ctx: ctx, w: w, sw: sw}
}

// put writes trusted markup.
func (h *rowWriter) put(s string) {
	if h.err == nil {
		_, h.err = h.sw.WriteString(s)
	}
}

// esc writes a value, escaped as templ escapes text and attributes
// (html.EscapeString), in pieces between the characters it replaces, so it
// allocates nothing (TestEscMatchesTempl).
func (h *rowWriter) esc(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '"':
			r = "&#34;"
		default:
			continue
		}
		h.put(s[last:i])
		h.put(r)
		last = i + 1
	}
	h.put(s[last:])
}

// render writes a templ component (the rare parts of a row).
func (h *rowWriter) render(c templ.Component) {
	if h.err == nil {
		h.err = c.Render(h.ctx, h.w)
	}
}

// text is components.Text, taking the templ path only for a cut value.
func (h *rowWriter) text(s string, max int) {
	if short, cut := format.Short(s, max); !cut {
		h.esc(short)
		return
	}
	h.render(components.Text(s, max))
}

type stringWriter struct{ io.Writer }

func (s stringWriter) WriteString(str string) (int, error) { return s.Write([]byte(str)) }
