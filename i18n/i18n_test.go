package i18n

import (
	"context"
	"strconv"
	"testing"
)

func TestPluralsRussianAndEnglish(t *testing.T) {
	ru := WithLang(context.Background(), RU)
	en := WithLang(context.Background(), EN)
	cases := []struct {
		ctx  context.Context
		key  string
		n    int
		want string
	}{
		{ru, "count.items", 1, "1 товар"},
		{ru, "count.items", 2, "2 товара"},
		{ru, "count.items", 5, "5 товаров"},
		{ru, "count.items", 11, "11 товаров"},
		{ru, "count.items", 21, "21 товар"},
		{ru, "count.items", 22, "22 товара"},
		{ru, "count.items", 0, "0 товаров"},
		{ru, "count.rows", 1, "1 строка"},
		{ru, "count.rows", 3, "3 строки"},
		{ru, "count.rows", 12, "12 строк"},
		{ru, "count.rows", 10001, "10\u202f001 строка"},
		{en, "count.rows", 1, "1 row"},
		{en, "count.rows", 2, "2 rows"},
		{en, "count.rows", 0, "0 rows"},
		{en, "count.rows", 10001, "10,001 rows"},
		{en, "count.items", 21, "21 items"},
	}
	for _, c := range cases {
		if got := N(c.ctx, c.key, c.n); got != c.want {
			t.Errorf("N(%s, %q, %d) = %q, want %q", LangOf(c.ctx), c.key, c.n, got, c.want)
		}
	}
}

func TestTranslateAndFallbacks(t *testing.T) {
	ru := WithLang(context.Background(), RU)
	en := WithLang(context.Background(), EN)
	if got := T(ru, "nav.orders"); got != "Заказы" {
		t.Errorf("ru nav.orders = %q", got)
	}
	if got := T(en, "nav.orders"); got != "Orders" {
		t.Errorf("en nav.orders = %q", got)
	}
	// No language in the context (outside a request): English.
	if got := T(context.Background(), "chrome.logout"); got != "Log out" {
		t.Errorf("default chrome.logout = %q", got)
	}
	// A missing key shows as itself (and the key test fails on it).
	if got := T(en, "no.such.key"); got != "no.such.key" {
		t.Errorf("missing key = %q", got)
	}
	if got := TD(en, "chrome.seller", map[string]any{"ID": "<b>7</b>"}); got != "seller <b>7</b>" {
		t.Errorf("TD = %q (escaping is templ's job, not the catalogue's)", got)
	}
	if Has(EN, "no.such.key") || !Has(RU, "nav.orders") || !Has(EN, "count.rows") {
		t.Error("Has is wrong")
	}
	if l, ok := Parse("en"); !ok || l != EN {
		t.Error("Parse(en)")
	}
	if l, ok := Parse("de"); ok || l != Default {
		t.Error("Parse(de) accepted")
	}
}

// TestPlainLookupsKept: a message looked up without data is kept and read
// back the same in each language, while keys missing from the catalogues
// (a marketplace status never seen, say) are not kept: what is kept stays
// bounded by the catalogues.
func TestPlainLookupsKept(t *testing.T) {
	size := func() int {
		n := 0
		plain.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	ru := WithLang(context.Background(), RU)
	en := WithLang(context.Background(), EN)
	first := T(ru, "nav.orders")
	if _, ok := plain.Load(plainKey{RU, "nav.orders"}); !ok {
		t.Fatal("a plain lookup was not kept")
	}
	if again := T(ru, "nav.orders"); again != first || first == "nav.orders" {
		t.Fatalf("ru %q then %q", first, again)
	}
	if got := T(en, "nav.orders"); got != "Orders" {
		t.Fatalf("en %q after ru was kept", got)
	}
	if got := In(Lang("xx"), "nav.orders", nil, nil); got != first {
		t.Fatalf("unknown language %q, want the default's %q", got, first)
	}
	before := size()
	for i := range 1000 {
		if got := T(ru, "status.unseen"+strconv.Itoa(i)); got != "status.unseen"+strconv.Itoa(i) {
			t.Fatalf("missing key printed %q", got)
		}
	}
	if after := size(); after != before {
		t.Fatalf("missing keys kept: %d entries, was %d", after, before)
	}
	if got := TD(en, "nav.orders", map[string]any{"X": 1}); got != "Orders" {
		t.Fatalf("with data %q", got)
	}
}
