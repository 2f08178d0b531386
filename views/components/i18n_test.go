package components

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func renderIn(t *testing.T, l i18n.Lang, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(i18n.WithLang(context.Background(), l), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestStatusLabelsByLanguage(t *testing.T) {
	cases := []struct {
		l           i18n.Lang
		status      string
		want        string
		dataOrClass string
	}{
		{i18n.RU, "new", "Новый", "info"},
		{i18n.RU, "in_moderation", "На модерации", "warn"},
		{i18n.RU, "to_delivery", "Передан в доставку", "warn"},
		{i18n.EN, "in_moderation", "in moderation", "warn"},
		{i18n.RU, "SOME_NEW_STATE", "some new state", ""}, // unknown: as sent, readable
		{i18n.RU, "", "—", ""},
	}
	for _, c := range cases {
		b := renderIn(t, c.l, Status(c.status)).Find("span.badge")
		if got := b.Text(); got != c.want {
			t.Errorf("%s %q: label %q, want %q", c.l, c.status, got, c.want)
		}
		if b.AttrOr("data-status", "?") != c.status {
			t.Errorf("%s %q: data-status %q (the marketplace's value must stay)", c.l, c.status, b.AttrOr("data-status", "?"))
		}
		if c.dataOrClass != "" && !b.HasClass(c.dataOrClass) {
			t.Errorf("%s %q: class %q, want tone %s", c.l, c.status, b.AttrOr("class", ""), c.dataOrClass)
		}
	}
}

func TestPagerAndTextInRussian(t *testing.T) {
	href := func(p int) string { return "/orders" }
	doc := renderIn(t, i18n.RU, PagerNav(NewPager(2, 3, 10021, href)))
	if got := doc.Find("[data-testid=prev]").Text(); got != "← Назад" {
		t.Errorf("prev %q", got)
	}
	if got := doc.Find("[data-testid=pager] .muted.small").Text(); got != "всего 10\u202f021" {
		t.Errorf("total %q", got)
	}
	if got := doc.Find("[data-testid=pager]").AttrOr("aria-label", ""); got != "Страницы" {
		t.Errorf("aria-label %q", got)
	}
	long := strings.Repeat("я", 1021)
	d := renderIn(t, i18n.RU, Text(long, 10))
	if got := d.Find("summary").Text(); got != "полный текст (обрезан, 1\u202f021 символ)" {
		t.Errorf("summary %q", got)
	}
	if got := d.Find("[data-testid=truncated]").Text(); got != "обрезано: показаны первые 1\u202f000 из 1\u202f021 символа" {
		t.Errorf("truncated note %q", got)
	}
	if got := renderIn(t, i18n.RU, Text(strings.Repeat("я", 25), 10)).Find("summary").Text(); got != "полный текст (25 символов)" {
		t.Errorf("summary of 25 %q", got)
	}
	if got := renderIn(t, i18n.EN, Text(long, 10)).Find("[data-testid=truncated]").Text(); got != "truncated: the first 1,000 of 1,021 characters are shown" {
		t.Errorf("English truncated note %q", got)
	}
}
