package components

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// TestTextMatchesTempl keeps the Go Text byte for byte what its templ
// original renders: a value that fits, one cut, one beyond
// format.MaxShown, hostile and control characters, in both languages.
func TestTextMatchesTempl(t *testing.T) {
	long := strings.Repeat("Очень длинное название товара ", 5)
	huge := strings.Repeat(`<b>"x" & 'y'</b> `, format.MaxShown/10)
	values := []string{"", "Шарф", "a\u202eb\x01c & \"d\" <i>", long, long + "<script>&'\"", huge, strings.Repeat("я", 60), strings.Repeat("я", 61), "\xff\xfe"}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.RU} {
		ctx := i18n.WithLang(context.Background(), lang)
		for _, s := range values {
			for _, max := range []int{1, 30, 60, 200} {
				var got, want bytes.Buffer
				if err := Text(s, max).Render(ctx, &got); err != nil {
					t.Fatal(err)
				}
				if err := textTempl(s, max).Render(ctx, &want); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("%s, %q, %d: Text differs from the templ original:\n got %s\nwant %s", lang, s, max, got.String(), want.String())
				}
			}
		}
	}
	// The comparison saw the cut and the note.
	var b bytes.Buffer
	if err := Text(huge, 60).Render(i18n.WithLang(context.Background(), i18n.RU), &b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<span class="clip" title="&lt;b&gt;&#34;x&#34; &amp; &#39;y&#39;`, `data-testid="truncated"`, "…"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("Text lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "<b>") {
		t.Error("Text writes markup from its value")
	}
}

// TestTextUncutAllocatesNothing: a value that fits is written escaped
// without an allocation.
func TestTextUncutAllocatesNothing(t *testing.T) {
	var b bytes.Buffer
	b.Grow(1 << 10)
	ctx := context.Background()
	c := Text(`Шарф "Зима" & <шапка>`, 60)
	if n := testing.AllocsPerRun(100, func() {
		b.Reset()
		if err := c.Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// FuzzTextMatchesTempl holds the Go Text byte for byte to its templ
// original for any value and width, in both languages.
func FuzzTextMatchesTempl(f *testing.F) {
	for _, s := range []string{"Шарф", `<script>alert(1)</script>`, strings.Repeat("Очень длинное название ", 12), "a\x00b\x1bc\xff\xfe", "", "&amp;'`\u202e"} {
		f.Add(s, 60, true)
	}
	f.Fuzz(func(t *testing.T, s string, max int, ru bool) {
		max = int(uint(max) % 300)
		ctx := context.Background()
		if ru {
			ctx = i18n.WithLang(ctx, i18n.RU)
		}
		var got, want bytes.Buffer
		gerr, werr := Text(s, max).Render(ctx, &got), textTempl(s, max).Render(ctx, &want)
		if (gerr == nil) != (werr == nil) || got.String() != want.String() {
			t.Fatalf("Text(%q, %d) differs from the templ original (%v, %v):\n got %q\nwant %q", s, max, gerr, werr, got.String(), want.String())
		}
	})
}
