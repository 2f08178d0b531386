package components

import (
	"context"
	"io"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// Text prints untrusted marketplace text shortened to max characters, with
// the longer value one click away when it was cut: the whole of it up to
// format.MaxShown characters, beyond that its beginning and a note.
//
// It is written in Go (textTempl is its templ original, kept byte for byte
// the same by TestTextMatchesTempl): every cut name of a list went through
// templ's two allocations per expression, and a value that was not cut
// costs nothing here (bench/NOTES.md, round 6).
func Text(s string, max int) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := NewMarkup(w)
		short, cut := format.Short(s, max)
		if !cut {
			t.Esc(short)
			return t.Err
		}
		t.Put(`<span class="clip" title="`)
		t.Esc(short)
		t.Put(`">`)
		t.Esc(short)
		t.Put(`</span> <details class="full">`)
		if shown, chars, bounded := format.Bounded(s); bounded {
			t.Put(`<summary>`)
			t.Esc(i18n.N(ctx, "text.full_truncated", chars))
			t.Put(`</summary><div>`)
			t.Esc(shown)
			t.Put(`</div><div class="muted small" data-testid="truncated">`)
			t.Esc(truncatedNote(ctx, chars))
			t.Put(`</div>`)
		} else {
			t.Put(`<summary>`)
			t.Esc(i18n.N(ctx, "text.full", chars))
			t.Put(`</summary><div>`)
			t.Esc(shown)
			t.Put(`</div>`)
		}
		t.Put(`</details>`)
		return t.Err
	})
}

// Markup writes trusted markup and escaped values straight to a writer,
// keeping the first error and skipping everything after it, as templ's
// generated code does. The parts of pages written in Go rather than templ
// (Text, the table rows and the copy's toolbar in views/pages) write
// through it.
type Markup struct {
	W   io.StringWriter
	Err error
}

// NewMarkup writes to w (through WriteString when w has it).
func NewMarkup(w io.Writer) Markup { return Markup{W: asStringWriter(w)} }

// Put writes trusted markup.
func (m *Markup) Put(s string) {
	if m.Err == nil {
		_, m.Err = m.W.WriteString(s)
	}
}

// Esc writes s escaped as templ escapes text and attributes
// (html.EscapeString), in pieces between the characters it replaces, so
// it allocates nothing (TestEscMatchesTempl).
func (m *Markup) Esc(s string) {
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
		m.Put(s[last:i])
		m.Put(r)
		last = i + 1
	}
	m.Put(s[last:])
}

func asStringWriter(w io.Writer) io.StringWriter {
	if sw, ok := w.(io.StringWriter); ok {
		return sw
	}
	return stringWriter{w}
}

type stringWriter struct{ io.Writer }

func (s stringWriter) WriteString(str string) (int, error) { return s.Write([]byte(str)) }
