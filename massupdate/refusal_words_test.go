package massupdate

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestKnownRefusalsAreSaidInTheReadersLanguage: each refusal the contract,
// the field notes and the lamoda Swagger name reads as a sentence of the
// reader's language, the marketplace's own words kept beside it unchanged
// (their numbers as sent); an unknown text stays exactly as sent; a known
// code with an unknown text gets the code's sentence.
func TestKnownRefusalsAreSaidInTheReadersLanguage(t *testing.T) {
	cases := []struct {
		code     int
		text     string
		ru, en   string // a part of the sentence
		verbatim bool   // shown exactly as sent, nothing added
	}{
		{422, "price 1.00 is more than 90% below the current price 1799.00", "цена 1.00 ниже текущей цены 1799.00 больше чем на 90 %", "refused the price 1.00", false},
		{422, "salePrice 5.00 is more than 90% below the current price 1799.00", "цена со скидкой 5.00 ниже", "refused the sale price 5.00", false},
		{409, "the new price 500.00 is less than half of the current 1799.00: confirm it (force) to apply", "Проверка цен маркетплейса задержала новую цену 500.00", "price check holds the new price 500.00", false},
		{400, "stock 2000000 is above the limit of 1000000", "отклонил остаток 2000000", "refused the stock 2000000", false},
		{422, "moderation has not approved this product: it cannot be activated", "модерация его не одобрила", "moderation has not approved it", false},
		{422, "status rejected is set by marketplace moderation, not by the seller", "Статус «Отклонён» ставит модерация маркетплейса", "the status “rejected” is set by the marketplace's moderation", false},
		{422, "the product was rejected by moderation: correct its card before putting it online", "Модерация отклонила товар", "Moderation rejected the product", false},
		{422, "the product is still in moderation and cannot go online yet", "Товар ещё на модерации", "still in moderation", false},
		{403, "warehouse MSK-2 does not belong to seller 1001", "склад MSK-2 принадлежит другому продавцу", "warehouse MSK-2 belongs to another seller", false},
		{404, "nomenclature not found: warehouse MSK-1, barcode 4601234567890", "нет товара со штрихкодом 4601234567890", "no product with barcode 4601234567890", false},
		{404, "product card MP1 not found", "не знает товар MP1", "does not know the product MP1", false},
		{400, "quantity must be a non-negative integer; status must be one of online, in_moderation, rejected, disabled", "нужно целое число, не меньше 0. Маркетплейс отклонил статус", "refused the status", false},
		{400, "salePrice must not exceed price", "цену со скидкой: она выше цены", "sale price: it is above the price", false},
		{400, "price must have at most 2 decimal places", "цена может иметь не больше 2 знаков", "refused the price: it takes at most 2 decimals", false},
		{400, "saleEndDate must not be before saleStartDate", "скидка заканчивается раньше", "the sale ends before it starts", false},
		{422, "a brand new rule nobody described", "Маркетплейс отклонил изменение по своим правилам", "refused this change by its rules", false},
		{0, "a brand new rule nobody described", "", "", true},
		{500, "price 1.00 is more than 90% below the current price 1799.00 and more", "", "", true},
	}
	for _, c := range cases {
		ms := Refusal(c.code, c.text)
		ru, en := ms.In(i18n.RU, nil), ms.In(i18n.EN, nil)
		if c.verbatim {
			if ru != c.text || en != c.text {
				t.Errorf("%d %q: read %q / %q, want it as sent", c.code, c.text, ru, en)
			}
			continue
		}
		if !strings.Contains(ru, c.ru) || !strings.Contains(ru, "«"+c.text+"»") {
			t.Errorf("%d %q in Russian: %q, want %q and the text kept", c.code, c.text, ru, c.ru)
		}
		if !strings.Contains(en, c.en) || !strings.Contains(en, "“"+c.text+"”") {
			t.Errorf("%d %q in English: %q, want %q and the text kept", c.code, c.text, en, c.en)
		}
		if strings.HasPrefix(ru, c.text) || strings.Count(ru, c.text) != 1 {
			t.Errorf("%d: the marketplace's text should stand once, after the sentence: %q", c.code, ru)
		}
	}
	if got := Refusal(404, "").In(i18n.RU, nil); got != "Маркетплейс не знает этот товар." {
		t.Errorf("a 404 without text: %q", got)
	}
}

// TestSentRefusalsAreRead: an item error the marketplace answers reaches the
// row as Refusal reads it, and one without any message names its code.
func TestSentRefusalsAreRead(t *testing.T) {
	got := marketMessages(422, []string{"price 1.00 is more than 90% below the current price 1799.00"}).In(i18n.RU, nil)
	if !strings.HasPrefix(got, "Маркетплейс отклонил изменение: цена 1.00") {
		t.Errorf("a sent refusal reads %q", got)
	}
	if got := marketMessages(7, nil).In(i18n.EN, nil); got != "Rejected by the marketplace (code 7)." {
		t.Errorf("a refusal with no message reads %q", got)
	}
}

// TestStockPreviewWithoutWarehouses: a lamoda stock file's unknown barcode
// is not said to be missing "at this warehouse" (its records keep none),
// and a status cell written by the Russian export («В продаже») reads as
// the status it labels.
func TestStockPreviewWithoutWarehouses(t *testing.T) {
	cat := &Catalog{ByKey: map[string]apiclient.Nomenclature{"|1": {Barcode: "1", SellerSKU: "S1", Quantity: 3, Status: "disabled"}}}
	p := Previewer{Catalog: cat}
	items := p.FilterStockItems(&bulkjobs.Table{Header: []string{"barcode", "status"}, Rows: [][]string{{"1", "В продаже"}, {"2", "online"}}, Lines: []int{2, 3}},
		bulkjobs.Mapping{"barcode": 0, "status": 1})
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	if got := ru(items[1].Message); strings.Contains(got, "склад") || !strings.Contains(got, "нет в каталоге") {
		t.Errorf("unknown barcode: %q", got)
	}
	if items[0].Flag == bulkjobs.FlagInvalid || !strings.Contains(items[0].Typed, `"status":"online"`) {
		t.Errorf("a status label: flag %s, typed %s, message %q", items[0].Flag, items[0].Typed, ru(items[0].Message))
	}
}
