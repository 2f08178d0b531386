package i18n

import (
	"context"
	"strings"
	"testing"
)

func TestMessagesKeptAsData(t *testing.T) {
	// A plural count survives the JSON round trip of a stored message.
	s := Encode(M("jobs.flash_retry_ready", map[string]any{"Count": 5}))
	if !strings.HasPrefix(s, msgMark) {
		t.Fatalf("encoded %q lacks the mark", s)
	}
	if got, want := TextIn(RU, s, nil), "5 отклонённых или неотправленных строк готовы: проверьте, измените и отправьте снова."; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	if got, want := TextIn(EN, s, nil), "5 rejected or unsent rows are ready to review, change and send again."; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	// Parts join with a space; a Label names the field; a Status is
	// labelled; a Text part is shown as it is; an argument that is itself
	// a message is translated.
	s = Encode(Msg{Key: "mass.price_empty", Label: "mass.field_price"}, M("mass.still_processing", map[string]any{"Now": Encode(Msg{Text: "12.00"}, Msg{Status: "in_moderation"})}))
	if got, want := TextIn(RU, s, nil), "цена: Введите цену. маркетплейс ещё обрабатывает (показывает 12.00 На модерации)"; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	if got, want := Text(context.Background(), s), "price: Enter a price. still processing at the marketplace (shows 12.00 in moderation)"; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	// arg rewrites text arguments by name.
	s = Encode(M("mass.price_max", map[string]any{"Max": "100"}))
	if got := TextIn(EN, s, func(name, v string) string { return name + "=" + v }); got != "The price must be at most Max=100." {
		t.Errorf("arg: %q", got)
	}
}

func TestPlainTextStaysAsSent(t *testing.T) {
	for _, s := range []string{"", "Цена ниже минимальной", "Old job row: price must be above zero.", "§i18n:not json"} {
		if got := TextIn(RU, s, nil); got != s {
			t.Errorf("TextIn(%q) = %q, want it as it is", s, got)
		}
		if _, ok := Decode(s); ok {
			t.Errorf("Decode(%q) took plain text for a message", s)
		}
	}
	if ms := Messages("as sent"); len(ms) != 1 || ms[0].Text != "as sent" {
		t.Errorf("Messages of plain text: %+v", ms)
	}
	if Encode() != "" || Messages("") != nil {
		t.Error("no message is the empty string")
	}
}
