package handlers

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestJobRowReadsStoredWords: a row stored with a message key reads in
// the reader's language; a row stored before the keys (a plain English
// sentence) or a marketplace message is shown as it was stored, numbers
// included (no Russian amount inside an English sentence); the grid's own
// amounts are written its way, a negative change with the minus sign.
func TestJobRowReadsStoredWords(t *testing.T) {
	t.Parallel()
	ru := i18n.WithLang(context.Background(), i18n.RU)
	en := i18n.WithLang(context.Background(), i18n.EN)
	job := bulkjobs.Job{Kind: "prices", State: bulkjobs.StateDone}
	keyed := bulkjobs.Item{Flag: bulkjobs.FlagInvalid, State: bulkjobs.ItemSkipped, Message: i18n.Of(i18n.M("mass.unknown_sku", nil)),
		OldText: i18n.Of(i18n.Msg{Text: "25499.00"}), ReadBack: bulkjobs.ReadMissing}
	if got := jobRow(ru, job, keyed); got.Message != "Неизвестный артикул: его нет в каталоге продавца." || got.Old != "25\u202f499,00" ||
		got.ReadLabel != "нет в каталоге" || got.FlagLabel != "ошибка" || got.StateLabel != "пропущено" {
		t.Errorf("ru row %+v", got)
	}
	if got := jobRow(en, job, keyed); got.Message != "Unknown SKU: it is not in this seller's catalogue." || got.Old != "25,499.00" {
		t.Errorf("en row %+v", got)
	}
	delta := bulkjobs.Item{Flag: bulkjobs.FlagOK, HasNum: true, OldNum: 2549900, NewNum: 2677895}
	if got := jobRow(ru, job, delta); got.Delta != "+1\u202f279,95" || got.DeltaPct != "+5,0\u00a0%" {
		t.Errorf("ru delta %q %q", got.Delta, got.DeltaPct)
	}
	if got := jobRow(en, job, delta); got.Delta != "+1 279.95" || got.DeltaPct != "+5.0\u00a0%" {
		t.Errorf("en delta %q %q", got.Delta, got.DeltaPct)
	}
	// A drop reads as the prices forms write it: the minus sign, the
	// reader's decimal mark.
	drop := bulkjobs.Item{Flag: bulkjobs.FlagGuard, HasNum: true, OldNum: 1739900, NewNum: 200000}
	if got := jobRow(ru, job, drop); got.DeltaPct != "−88,5\u00a0%" {
		t.Errorf("ru drop %q, want −88,5 %%", got.DeltaPct)
	}
	drop = bulkjobs.Item{Flag: bulkjobs.FlagOK, HasNum: true, OldNum: 1859950, NewNum: 100}
	if got := jobRow(ru, job, drop); got.Delta != "−18\u202f598,50" || got.DeltaPct != "−99,9\u00a0%" {
		t.Errorf("ru drop %q %q, want the minus sign", got.Delta, got.DeltaPct)
	}
	if got := jobRow(ru, bulkjobs.Job{Kind: "stock"}, bulkjobs.Item{HasNum: true, OldNum: 5, NewNum: 2}); got.Delta != "−3" || got.DeltaPct != "−60,0\u00a0%" {
		t.Errorf("ru stock drop %q %q, want the minus sign", got.Delta, got.DeltaPct)
	}
	old := bulkjobs.Item{State: bulkjobs.ItemRejected, Message: i18n.Plain("Not sent: a change beyond ±20 % that was not confirmed."), OldText: i18n.Plain("25 499.00")}
	if got := jobRow(ru, job, old); got.Message != "Not sent: a change beyond ±20 % that was not confirmed." || got.Old != "25 499.00" {
		t.Errorf("an old row's text changed: %+v", got)
	}
	market := bulkjobs.Item{State: bulkjobs.ItemRejected, Message: i18n.Plain("price 25499.00 is below the minimum")}
	if got := jobRow(ru, job, market).Message; got != "price 25499.00 is below the minimum" {
		t.Errorf("marketplace message %q", got)
	}
	// A stock row of a record without a warehouse (lamoda) is keyed
	// "|barcode": the grid shows the barcode alone.
	if got := jobRow(ru, bulkjobs.Job{Kind: "stock"}, bulkjobs.Item{Key: "|4601234567890"}).Key; got != "4601234567890" {
		t.Errorf("a key without a warehouse shows as %q", got)
	}
	if got := jobRow(ru, bulkjobs.Job{Kind: "stock"}, bulkjobs.Item{Key: "MSK-1|4601234567890"}).Key; got != "MSK-1|4601234567890" {
		t.Errorf("a key with a warehouse shows as %q", got)
	}
}
