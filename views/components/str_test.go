package components

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// textExpr is `{ s }` as templ prints it, the reference Str must match.
func textExpr(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		v, err := templ.JoinStringErrs(s)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, templ.EscapeString(v))
		return err
	})
}

func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestStrPrintsAsTextExpression: Str prints a value byte for byte as
// templ's text expression does, markup and quotes escaped, and allocates
// nothing for a value with nothing to escape.
func TestStrPrintsAsTextExpression(t *testing.T) {
	for _, s := range []string{"", "plain", "Кроссовки 42", `<b>"Acme" & 'Co'</b>`, "a\x00b\xff", " · размер M"} {
		if got, want := renderString(t, Str(s)), renderString(t, textExpr(s)); got != want {
			t.Errorf("Str(%q) = %q, want %q", s, got, want)
		}
	}
	var buf bytes.Buffer
	buf.Grow(64)
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { buf.Reset(); _ = Str("Кроссовки 42").Render(ctx, &buf) }); n != 0 {
		t.Errorf("Str allocated %v times", n)
	}
}

// TestFieldErrorOf: a row's field error is FieldError with the id
// prefix-i-error, and nothing (no allocation) without a message.
func TestFieldErrorOf(t *testing.T) {
	if got, want := renderString(t, FieldErrorOf("qty", 7, "Введите <число>")), renderString(t, FieldError("qty-7-error", "Введите <число>")); got != want {
		t.Errorf("FieldErrorOf = %q, want %q", got, want)
	}
	if got := renderString(t, FieldErrorOf("qty", 7, "")); got != "" {
		t.Errorf("without a message: %q", got)
	}
	ctx := context.Background()
	var buf bytes.Buffer
	if n := testing.AllocsPerRun(100, func() { _ = FieldErrorOf("price", 12, "").Render(ctx, &buf) }); n != 0 {
		t.Errorf("a field without an error allocated %v times", n)
	}
}

// TestTextThatFitsAllocatesNothing: a marketplace text short enough to
// print whole costs a row no allocation.
func TestTextThatFitsAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	buf.Grow(256)
	if n := testing.AllocsPerRun(100, func() {
		buf.Reset()
		_ = Text("Кроссовки беговые мужские", 60).Render(ctx, &buf)
	}); n != 0 {
		t.Errorf("a text that fits allocated %v times", n)
	}
}
