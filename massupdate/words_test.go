package massupdate

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// en and ru are messages of this package as the pages show them in
// English and Russian.
func en(ms i18n.Msgs) string { return format.MessageIn(format.Locale{Lang: i18n.EN}, ms) }
func ru(ms i18n.Msgs) string { return format.MessageIn(format.Locale{Lang: i18n.RU}, ms) }

// shown is each field problem of invalid as the English page shows it.
func shown(invalid map[string]map[string]i18n.Msgs) map[string]map[string]string {
	out := make(map[string]map[string]string, len(invalid))
	for k, errs := range invalid {
		out[k] = map[string]string{}
		for f, m := range errs {
			out[k][f] = en(m)
		}
	}
	return out
}

// TestMessagesAreKeptAsDataAndReadInBothLanguages: the checks return
// catalogue keys with their arguments, not English sentences, so the same
// stored message reads English or Russian; amounts are written each
// language's way.
func TestMessagesAreKeptAsDataAndReadInBothLanguages(t *testing.T) {
	_, msg := PriceInput{SKU: "A", Price: "9", Sale: "11"}.Validate()
	if m := msg["sale"]; len(m) != 1 || m[0].Key != "mass.sale_above_price" || m[0].Args["Price"] != "9.00" {
		t.Fatalf("sale problem %#v is not the catalogue's message with its amount", m)
	}
	if got, want := en(msg["sale"]), "The sale price may not exceed the price (9.00): lower it."; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	if got, want := ru(msg["sale"]), "Цена со скидкой не может быть выше цены (9,00): снизьте её."; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	_, msg = PriceInput{SKU: "A", Price: "100000001", Sale: "0"}.Validate()
	if got := ru(msg["price"]); got != "Цена не может быть больше 100\u202f000\u202f000,00." {
		t.Errorf("ru price %q", got)
	}
	if got := ru(msg["sale"]); got != "Цена со скидкой должна быть больше нуля." {
		t.Errorf("ru sale %q", got)
	}
	note := (&Report{Stopped: errBusy{}, Unsent: 5}).Note()
	if got, want := ru(note), "Отправка остановлена раньше времени (маркетплейс отклонил запрос). 5 строк не отправлены: отправьте форму снова."; got != want {
		t.Errorf("ru note %q, want %q", got, want)
	}
	if len(note) != 2 || note[0].Key != "mass.stopped_early" || note[1].Key != "mass.note_unsent" {
		t.Errorf("note %#v, want the stop and the unsent rows as messages", note)
	}
}

type errBusy struct{}

func (errBusy) Error() string { return "boom" }

func unmatchedShown(u map[string]i18n.Msgs) map[string][]string {
	out := make(map[string][]string, len(u))
	for k, ms := range u {
		for _, m := range ms {
			out[k] = append(out[k], en(i18n.Of(m)))
		}
	}
	return out
}
