package components

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/format"
)

// Str is a text printed escaped, byte for byte what `{ s }` prints:
// `@components.Str(s)`. templ's text expression boxes its value and copies
// it through fmt.Sprint, two allocations a value; Str's Render is called on
// the value itself and allocates nothing unless the text needs escaping.
// For the values printed on every row of a list.
type Str string

// Render writes s escaped.
func (s Str) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(s)))
	return err
}

// FieldErrorAt is FieldError for the field with id prefix-i: the error's id,
// prefix-i-error, is built only when there is an error to show, and a
// field without one costs nothing. The rows of a list call it per field.
type FieldErrorAt struct {
	prefix string
	i      int
	msg    string
}

// FieldErrorOf is FieldError(prefix-i-error, msg) for a row's field i.
func FieldErrorOf(prefix string, i int, msg string) FieldErrorAt {
	return FieldErrorAt{prefix: prefix, i: i, msg: msg}
}

// Render writes the error, if any, as FieldError does.
func (f FieldErrorAt) Render(ctx context.Context, w io.Writer) error {
	if f.msg == "" {
		return nil
	}
	return FieldError(f.prefix+"-"+strconv.Itoa(f.i)+"-error", f.msg).Render(ctx, w)
}

// TextOf is the component Text returns.
type TextOf struct {
	s   string
	max int
}

// Text prints untrusted marketplace text shortened to max characters, with
// the longer value one click away when it was cut (textCut). A value that
// fits is printed as Str prints it: the rows of a list print two or three
// such values each, and a text that fits costs no allocation.
func Text(s string, max int) TextOf { return TextOf{s: s, max: max} }

// Render writes the text, cut or whole.
func (t TextOf) Render(ctx context.Context, w io.Writer) error {
	short, cut := format.Short(t.s, t.max)
	if !cut {
		return Str(short).Render(ctx, w)
	}
	return textCut(t.s, short).Render(ctx, w)
}
