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
	components.Markup
	// statuses caches the status labels of one render (statusLabel).
	statuses map[string]string
}

func newRowWriter(ctx context.Context, w io.Writer) *rowWriter {
	return &rowWriter{ctx: ctx, w: w, Markup: components.NewMarkup(w)}
}

// put writes trusted markup.
func (h *rowWriter) put(s string) { h.Put(s) }

// esc writes a value escaped as templ escapes text and attributes.
func (h *rowWriter) esc(s string) { h.Esc(s) }

// render writes a templ component (the rare parts of a row).
func (h *rowWriter) render(c templ.Component) {
	if h.Err == nil {
		h.Err = c.Render(h.ctx, h.w)
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
