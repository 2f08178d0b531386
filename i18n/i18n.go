// Package i18n holds the message catalogues of the dashboard (Russian and
// English, embedded from locales/*.json) and the translator a request carries
// in its context. Pages and handlers look words up by key:
//
//	i18n.T(ctx, "nav.orders")            // "Заказы" / "Orders"
//	i18n.N(ctx, "count.rows", n)         // "5 строк" / "5 rows"
//	i18n.TD(ctx, "chrome.seller", map[string]any{"ID": id})
//
// A key missing from a catalogue prints as the key itself, and the key test
// (keys_test.go) fails: every key used under views/ and handlers/ must exist
// in both catalogues.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"strconv"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Lang is a language the interface speaks.
type Lang string

// The languages of the interface. Russian is the default: the people who
// open the dashboard read Russian.
const (
	RU      Lang = "ru"
	EN      Lang = "en"
	Default      = RU
)

// Langs lists the languages in the order the switch shows them.
var Langs = []Lang{RU, EN}

// Parse returns the language a form or cookie value names, and whether it
// names one of ours.
func Parse(s string) (Lang, bool) {
	switch Lang(s) {
	case RU, EN:
		return Lang(s), true
	}
	return Default, false
}

// Tag is the BCP 47 tag of the language, for <html lang>.
func (l Lang) Tag() string { return string(l) }

//go:embed locales/*.json
var files embed.FS

var (
	bundle     *goi18n.Bundle
	localizers = map[Lang]*goi18n.Localizer{}
	// plain keeps the messages looked up without data or count, by
	// plainKey: the same words every time, while a lookup matches the
	// language and executes the message's template anew. Only keys found
	// in a catalogue are kept, so it holds at most the catalogues.
	plain sync.Map
)

type plainKey struct {
	lang Lang
	key  string
}

func init() {
	bundle = goi18n.NewBundle(language.Russian)
	bundle.RegisterUnmarshalFunc("json", json.Unmarshal)
	for _, l := range Langs {
		if _, err := bundle.LoadMessageFileFS(files, "locales/"+string(l)+".json"); err != nil {
			panic("i18n: catalogue " + string(l) + ": " + err.Error())
		}
		// Only the one language: a key missing from it shows as the key,
		// never silently as the other language.
		localizers[l] = goi18n.NewLocalizer(bundle, string(l))
	}
}

type ctxKey struct{}

// WithLang returns ctx carrying the language of the request.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// LangOf returns the language ctx carries. A context without one (a
// component rendered outside a request: tests, the hand-written row writers'
// reference renders) is English, the words the pages had before the
// catalogues; requests always carry one, chosen by the locale middleware,
// whose default is Russian.
func LangOf(ctx context.Context) Lang {
	if l, ok := ctx.Value(ctxKey{}).(Lang); ok {
		return l
	}
	return EN
}

// K marks a string literal as a catalogue key kept in data (a navigation
// entry, a table of labels) and translated later; the key test finds it.
func K(key string) string { return key }

// T returns the message key in the language of ctx.
func T(ctx context.Context, key string) string {
	return In(LangOf(ctx), key, nil, nil)
}

// TD returns the message key with its {{.Name}} placeholders filled from
// data. Values are inserted as text; templ escapes the result when printed.
func TD(ctx context.Context, key string, data map[string]any) string {
	return In(LangOf(ctx), key, data, nil)
}

// N returns the plural message key for n, with {{.Count}} set to n grouped
// by thousands the way the language writes numbers: 1 товар, 2 товара,
// 5 товаров, 21 товар; 1 row, 2 rows.
func N(ctx context.Context, key string, n int) string {
	l := LangOf(ctx)
	return In(l, key, map[string]any{"Count": groupThousands(l, n)}, n)
}

// In looks key up in the catalogue of l. count, when not nil, chooses the
// plural form.
func In(l Lang, key string, data map[string]any, count any) string {
	lz, ok := localizers[l]
	if !ok {
		l, lz = Default, localizers[Default]
	}
	cache := data == nil && count == nil
	if cache {
		if s, ok := plain.Load(plainKey{l, key}); ok {
			return s.(string)
		}
	}
	s, err := lz.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: data, PluralCount: count})
	if err != nil || s == "" {
		return key
	}
	if cache {
		plain.Store(plainKey{l, key}, s)
	}
	return s
}

// Has reports whether the catalogue of l holds key.
func Has(l Lang, key string) bool {
	lz, ok := localizers[l]
	if !ok {
		return false
	}
	_, tag, err := lz.LocalizeWithTag(&goi18n.LocalizeConfig{MessageID: key})
	return err == nil && tag.String() == string(l)
}

// groupThousands writes n with the thousands separator of l: a narrow
// no-break space (U+202F) in Russian, a comma in English.
func groupThousands(l Lang, n int) string {
	sep := "\u202f"
	if l == EN {
		sep = ","
	}
	s := strconv.Itoa(n)
	neg := false
	if n < 0 {
		neg, s = true, s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3*len(sep)+1)
	if neg {
		out = append(out, '-')
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, sep...)
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Code is the language's short code as the switch shows it: RU, EN.
func (l Lang) Code() string {
	if l == EN {
		return "EN"
	}
	return "RU"
}

// ND is N with more placeholders than {{.Count}}: data fills the others.
func ND(ctx context.Context, key string, n int, data map[string]any) string {
	l := LangOf(ctx)
	d := map[string]any{"Count": groupThousands(l, n)}
	for k, v := range data {
		d[k] = v
	}
	return In(l, key, d, n)
}
