package format

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestMessageIn(t *testing.T) {
	at := time.Date(2026, 11, 22, 11, 5, 9, 0, time.UTC).Format(time.RFC3339)
	busy := i18n.Of(i18n.M("mass.stopped_early", map[string]any{"Reason": i18n.Of(i18n.M("mass.busy_until", map[string]any{"RetryAt": at}))}))
	drop := i18n.Of(i18n.M("mass.drop_price", map[string]any{"Limit": "90", "Current": "25499.00", "Price": "1064.95"}))
	card := i18n.Of(i18n.M("mass.card_of", map[string]any{"Card": "1234.50"}))
	meanwhile := i18n.Of(i18n.M("mass.changed_meanwhile", map[string]any{"Now": i18n.Of(i18n.Msg{Text: "17399.00"}),
		"File": i18n.Of(i18n.Msg{Text: "15000.00"}), "ChangedOn": at}))
	for _, c := range []struct {
		l    i18n.Lang
		in   i18n.Msgs
		want string
	}{
		{i18n.RU, busy, "Отправка остановлена раньше времени (маркетплейс занят до 14:05:09\u00a0МСК)."},
		{i18n.EN, busy, "Sending stopped early (the marketplace is busy until 14:05:09\u00a0MSK)."},
		{i18n.RU, drop, "Маркетплейс отклоняет цену ниже текущей (25\u202f499,00) больше чем на 90 %: цена 1\u202f064,95 будет отклонена."},
		{i18n.EN, drop, "The marketplace refuses a price more than 90 % below the current price 25,499.00: the price 1,064.95 would be refused."},
		{i18n.RU, meanwhile, "Изменено после выгрузки файла: сейчас 17\u202f399,00, в файле 15\u202f000,00, изменено " +
			DateTimeIn(Locale{Lang: i18n.RU, Zone: zone(t, "Europe/Moscow")}, time.Date(2026, 11, 22, 11, 5, 9, 0, time.UTC)) + "."},
		{i18n.RU, card, "(карточка 1234.50)"},                                                         // a card's id is no amount
		{i18n.RU, i18n.Plain("Marketplace said: price 25499.00"), "Marketplace said: price 25499.00"}, // plain: as sent
	} {
		if got := MessageIn(Locale{Lang: c.l, Zone: zone(t, "Europe/Moscow")}, c.in); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.l, got, c.want)
		}
	}
}

// TestGridMessageInKeepsTheMarketplacesNumbers: the job grid writes the
// dashboard's amounts its way ("1 799.00" in English too) but leaves a
// marketplace message as sent, so an English sentence never carries a
// Russian amount.
func TestGridMessageInKeepsTheMarketplacesNumbers(t *testing.T) {
	said := "price 1.00 is more than 90% below the current price 1799.00"
	ms := i18n.Join(i18n.Of(i18n.M("mass.drop_price", map[string]any{"Limit": "90", "Current": "1799.00", "Price": "1.00"})), i18n.Plain(said))
	for _, c := range []struct {
		l    i18n.Lang
		want string
	}{
		{i18n.RU, "Маркетплейс отклоняет цену ниже текущей (1\u202f799,00) больше чем на 90 %: цена 1,00 будет отклонена. " + said},
		{i18n.EN, "The marketplace refuses a price more than 90 % below the current price 1 799.00: the price 1.00 would be refused. " + said},
	} {
		if got := GridMessageIn(Locale{Lang: c.l}, ms); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.l, got, c.want)
		}
	}
}
