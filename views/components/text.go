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
		t := textWriter{w: asStringWriter(w)}
		short, cut := format.Short(s, max)
		if !cut {
			t.esc(short)
			return t.err
		}
		t.put(`<span class="clip" title="`)
		t.esc(short)
		t.put(`">`)
		t.esc(short)
		t.put(`</span> <details class="full">`)
		if shown, chars, bounded := format.Bounded(s); bounded {
			t.put(`<summary>`)
			t.esc(i18n.N(ctx, "text.full_truncated", chars))
			t.put(`</summary><div>`)
			t.esc(shown)
			t.put(`</div><div class="muted small" data-testid="truncated">`)
			t.esc(truncatedNote(ctx, chars))
			t.put(`</div>`)
		} else {
			t.put(`<summary>`)
			t.esc(i18n.N(ctx, "text.full", chars))
			t.put(`</summary><div>`)
			t.esc(shown)
			t.put(`</div>`)
		}
		t.put(`</details>`)
		return t.err
	})
}

// textWriter writes markup and escaped values, keeping the first error
// and skipping everything after it, as templ's generated code does.
type textWriter struct {
	w   io.StringWriter
	err error
}

func (t *textWriter) put(s string) {
	if t.err == nil {
		_, t.err = t.w.WriteString(s)
	}
}

// esc writes s escaped as templ escapes text and attributes
// (html.EscapeString), in pieces between the characters it replaces, so
// it allocates nothing.
func (t *textWriter) esc(s string) {
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
		t.put(s[last:i])
		t.put(r)
		last = i + 1
	}
	t.put(s[last:])
}

func asStringWriter(w io.Writer) io.StringWriter {
	if sw, ok := w.(io.StringWriter); ok {
		return sw
	}
	return stringWriter{w}
}

type stringWriter struct{ io.Writer }

func (s stringWriter) WriteString(str string) (int, error) { return s.Write([]byte(str)) }
