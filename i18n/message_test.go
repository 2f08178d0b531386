package i18n

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestMessagesKeptAsData(t *testing.T) {
	// A plural count survives the JSON round trip of a stored message.
	ms := roundTrip(t, Of(M("jobs.flash_retry_ready", map[string]any{"Count": 5})))
	if got, want := ms.In(RU, nil), "5 отклонённых или неотправленных строк готовы: проверьте, измените и отправьте снова."; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	if got, want := ms.In(EN, nil), "5 rejected or unsent rows are ready to review, change and send again."; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	// Parts join with a space; a Label names the field; a Status is
	// labelled; a Text part is shown as it is; an argument that is itself
	// a message (Msgs or Msg) is translated, after a round trip too.
	ms = roundTrip(t, Of(Msg{Key: "mass.price_empty", Label: "mass.field_price"}, M("mass.still_processing", map[string]any{"Now": Of(Msg{Text: "12.00"}, Msg{Status: "in_moderation"})})))
	if got, want := ms.In(RU, nil), "цена: Введите цену. маркетплейс ещё обрабатывает (показывает 12.00 На модерации)"; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	if got, want := Text(context.Background(), ms), "price: Enter a price. still processing at the marketplace (shows 12.00 in moderation)"; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	one := roundTrip(t, Of(M("mass.still_processing", map[string]any{"Now": Msg{Status: "in_moderation"}})))
	if got, want := one.In(EN, nil), "still processing at the marketplace (shows in moderation)"; got != want {
		t.Errorf("a Msg argument: %q, want %q", got, want)
	}
	// arg rewrites text arguments by name.
	ms = Of(M("mass.price_max", map[string]any{"Max": "100"}))
	if got := ms.In(EN, func(name, v string) string { return name + "=" + v }); got != "The price must be at most Max=100." {
		t.Errorf("arg: %q", got)
	}
}

func roundTrip(t *testing.T, ms Msgs) Msgs {
	t.Helper()
	v, err := ms.Value()
	if err != nil {
		t.Fatal(err)
	}
	var back Msgs
	if err := back.Scan(v); err != nil {
		t.Fatalf("scan %q: %v", v, err)
	}
	return back
}

func TestPlainTextStaysAsSent(t *testing.T) {
	for _, s := range []string{"Цена ниже минимальной", "Old job row: price must be above zero.", `[{"k":"mass.busy"}]`} {
		if got := roundTrip(t, Plain(s)).In(RU, nil); got != s {
			t.Errorf("Plain(%q) reads %q, want it as it is", s, got)
		}
	}
	if got := Plain("a\x00b\u202ec").In(EN, nil); got != "a b c" {
		t.Errorf("Plain keeps control characters: %q", got)
	}
	if Plain("") != nil || Of() != nil {
		t.Error("no message is nil")
	}
	if v, err := Msgs(nil).Value(); err != nil || v != "" {
		t.Errorf("no message stored as %q, %v; want \"\"", v, err)
	}
	if ms := roundTrip(t, nil); ms != nil {
		t.Errorf("\"\" read back as %#v", ms)
	}
	var ms Msgs
	if err := ms.Scan("not json"); err == nil {
		t.Error("a column that is not a stored Msgs read without an error")
	}
}

func TestErrorCarriesMessages(t *testing.T) {
	err := fmt.Errorf("binding: %w", Err("mass.form_rows", map[string]any{"Rows": "20001", "Max": "20000"}))
	var e *Error
	if !errors.As(err, &e) || len(e.Msgs) != 1 || e.Msgs[0].Key != "mass.form_rows" {
		t.Fatalf("errors.As found %#v", e)
	}
	if MsgsOf(err).In(RU, nil) == MsgsOf(err).In(EN, nil) || MsgsOf(errors.New("plain")) != nil {
		t.Errorf("MsgsOf: %q / %q", MsgsOf(err).In(RU, nil), MsgsOf(err).In(EN, nil))
	}
	if got := e.Error(); got != MsgsOf(err).In(EN, nil) {
		t.Errorf("Error() = %q, want the English", got)
	}
}
