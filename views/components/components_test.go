package components

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
)

func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestNewPager(t *testing.T) {
	href := func(p int) string { return "/orders?page=" + string(rune('0'+p%10)) }
	p := NewPager(5, 13, 260, href)
	var labels []string
	for _, l := range p.Links {
		labels = append(labels, l.Label)
	}
	if got := strings.Join(labels, " "); got != "1 … 3 4 5 6 7 … 13" {
		t.Errorf("links %q", got)
	}
	if p.Prev == "" || p.Next == "" {
		t.Error("missing prev or next")
	}
	if first := NewPager(1, 1, 3, href); first.Prev != "" || first.Next != "" {
		t.Error("a single page has no prev/next")
	}
	doc := render(t, PagerNav(p))
	if doc.Find("[data-testid=pager] [aria-current=page]").Text() != "5" {
		t.Error("current page not marked")
	}
	if render(t, PagerNav(NewPager(1, 1, 3, href))).Find("[data-testid=pager]").Length() != 0 {
		t.Error("a single page renders a pager")
	}
}

func TestTextIsInertAndShortened(t *testing.T) {
	hostile := `<script>alert(1)</script><img src=x onerror=alert(2)>` + strings.Repeat("я", 500)
	doc := render(t, Text(hostile, 40))
	if doc.Find("script, img").Length() != 0 {
		t.Fatal("markup from the data became elements")
	}
	if got := []rune(doc.Find(".clip").Text()); len(got) != 41 {
		t.Errorf("shortened to %d runes, want 41", len(got))
	}
	if !strings.Contains(doc.Find("details.full div").Text(), strings.Repeat("я", 500)) {
		t.Error("the full value is not available")
	}
	short := render(t, Text("Куртка & <Co>", 40))
	if short.Find("details").Length() != 0 || !strings.Contains(short.Text(), "Куртка & <Co>") {
		t.Errorf("short text: %q", short.Text())
	}
}

func TestStatusAndEmpty(t *testing.T) {
	doc := render(t, Status("to_delivery"))
	if s := doc.Find("[data-status=to_delivery]"); s.Text() != "to delivery" || !s.HasClass("warn") {
		t.Errorf("status badge %q class %q", s.Text(), s.AttrOr("class", ""))
	}
	doc = render(t, Empty("Nothing here.", "Try another filter."))
	if doc.Find("[data-testid=empty] strong").Text() != "Nothing here." {
		t.Error("empty state title missing")
	}
	if render(t, FieldError("x-error", "")).Find("#x-error").Length() != 0 {
		t.Error("an empty field error renders")
	}
}
