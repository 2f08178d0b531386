package i18n

import (
	"context"
	"strings"
	"testing"
)

// TestMarketplaceWordsAreLabelled: payment methods, notification kinds and
// environments read in the reader's language; a value the catalogues do
// not know is shown as sent.
func TestMarketplaceWordsAreLabelled(t *testing.T) {
	ru, en := WithLang(context.Background(), RU), WithLang(context.Background(), EN)
	for _, c := range []struct{ got, want string }{
		{Payment(ru, "COD"), "Наложенный платёж"},
		{Payment(en, "COD"), "cash on delivery"},
		{Payment(ru, "sbp"), "СБП"},
		{Payment(ru, "crypto"), "crypto"},
		{Env(ru, "production"), "боевая"},
		{Env(en, "test"), "test"},
		{Text(ru, NotificationTypes([]string{"statusChanged", "itemStatusChanged", "newKind"})), "смена статуса заказа, смена статуса товара, newKind"},
		{Text(en, NotificationTypes([]string{"fulfilmentShipmentStatusChanged"})), "shipment status changed"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if NotificationTypes(nil) != nil {
		t.Error("no kinds should be no message")
	}
	many := make([]string, 20)
	for i := range many {
		many[i] = "statusChanged"
	}
	if got := Text(en, NotificationTypes(many)); strings.Count(got, "order status changed") != maxListed || !strings.HasSuffix(got, "statusChanged") {
		t.Errorf("a long list: %q", got)
	}
}

// TestStatusCodeReadsLabels: an imported status cell may hold the code or
// its label in either language, as the exports write it.
func TestStatusCodeReadsLabels(t *testing.T) {
	codes := []string{"online", "in_moderation", "rejected", "disabled"}
	for cell, want := range map[string]string{
		"online": "online", " ONLINE ": "online", "В продаже": "online", "в продаже": "online",
		"На модерации": "in_moderation", "in moderation": "in_moderation", "Отключён": "disabled",
		"sold out": "sold out", "": "",
	} {
		if got := StatusCode(cell, codes); got != want {
			t.Errorf("StatusCode(%q) = %q, want %q", cell, got, want)
		}
	}
}

// TestReturnBoxStatusesAgreeWithTheBox: a return box is «коробка»
// (feminine): its statuses read «Принята», «Отгружена», never the
// masculine forms.
func TestReturnBoxStatusesAgreeWithTheBox(t *testing.T) {
	for status, want := range map[string]string{"accepted": "Принята", "shipped": "Отгружена", "in_progress": "Собирается", "loading": "Загружается"} {
		if got := statusIn(RU, status); got != want {
			t.Errorf("box status %s: %q, want %q", status, got, want)
		}
	}
}
