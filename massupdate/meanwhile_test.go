package massupdate

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// table is a file of rows under header, its lines numbered from 2.
func table(header []string, rows ...[]string) *bulkjobs.Table {
	t := &bulkjobs.Table{Header: header, Rows: rows}
	for i := range rows {
		t.Lines = append(t.Lines, i+2)
	}
	return t
}

// mapped maps t's header to cols.
func mapped(t *testing.T, tb *bulkjobs.Table, cols []bulkjobs.Column) bulkjobs.Mapping {
	t.Helper()
	m, probs := bulkjobs.MapColumns(tb.Header, cols)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return m
}

// meanwhileArgs is the arguments of a row's changed-meanwhile message, or
// nil.
func meanwhileArgs(it bulkjobs.Item) map[string]any {
	for _, m := range it.Message {
		if m.Key == "mass.changed_meanwhile" {
			return m.Args
		}
	}
	return nil
}

// TestPreviewChangedMeanwhilePrices: a price row asking again for the
// price a change accepted through the dashboard replaced, while the
// product still shows that change's price, is changed meanwhile: held
// for its own confirmation, its message naming the price now, the price
// in the file and when it changed. Any other price, a product whose
// price moved on since, and a product never changed preview as ever.
func TestPreviewChangedMeanwhilePrices(t *testing.T) {
	at := time.Date(2026, 11, 26, 21, 5, 0, 0, time.UTC)
	cat := NewCatalog()
	for _, n := range []apiclient.Nomenclature{
		{MarketplaceSKU: "MP1", WarehouseCode: "W", Barcode: "B1", Price: 17399_00},
		{MarketplaceSKU: "MP2", WarehouseCode: "W", Barcode: "B2", Price: 500_00},
		{MarketplaceSKU: "MP3", WarehouseCode: "W", Barcode: "B3", Price: 300_00, SalePrice: 250_00},
		{MarketplaceSKU: "MP4", WarehouseCode: "W", Barcode: "B4", Price: 100_00},
	} {
		cat.Add(n)
	}
	cat.Replaced[StockKey("W", "B1")] = copystore.Replaced{Price: &copystore.Replacement[copystore.Prices]{
		Was: copystore.Prices{Price: 15000_00}, To: copystore.Prices{Price: 17399_00}, At: at}}
	// MP2's price moved on (read from the marketplace) after the change.
	cat.Replaced[StockKey("W", "B2")] = copystore.Replaced{Price: &copystore.Replacement[copystore.Prices]{
		Was: copystore.Prices{Price: 400_00}, To: copystore.Prices{Price: 450_00}, At: at}}
	// MP3's sale was set through the dashboard.
	cat.Replaced[StockKey("W", "B3")] = copystore.Replaced{Price: &copystore.Replacement[copystore.Prices]{
		Was: copystore.Prices{Price: 300_00}, To: copystore.Prices{Price: 300_00, Sale: 250_00}, At: at}}
	tb := table([]string{"sku", "price", "sale"},
		[]string{"MP1", "15000.00", ""},     // exported before the change
		[]string{"MP2", "400.00", ""},       // the price now is not the change's
		[]string{"MP3", "300.00", "300.00"}, // no sale, as before the change
		[]string{"MP4", "90.00", ""},        // never changed through the dashboard
	)
	items := Previewer{Catalog: cat}.PriceItems(tb, mapped(t, tb, bulkjobs.PriceColumns))
	for i, want := range []bool{true, false, true, false} {
		it := items[i]
		if got := ChangedMeanwhile(it); got != want {
			t.Errorf("%s: changed meanwhile %v, want %v (flag %s, %v)", it.Key, got, want, it.Flag, it.Message)
		}
		if want && it.Flag != bulkjobs.FlagGuard {
			t.Errorf("%s: flag %s, want held for confirmation", it.Key, it.Flag)
		}
		if !want && it.Flag != bulkjobs.FlagOK {
			t.Errorf("%s: flag %s %v, want ok", it.Key, it.Flag, it.Message)
		}
	}
	args := meanwhileArgs(items[0])
	if args["ChangedOn"] != at.Format(time.RFC3339) {
		t.Errorf("changed on %v, want %v", args["ChangedOn"], at)
	}
	if now, file := args["Now"].(i18n.Msgs), args["File"].(i18n.Msgs); now.In(i18n.EN, nil) != "17399.00" || file.In(i18n.EN, nil) != "15000.00" {
		t.Errorf("now %v, in the file %v; want 17399.00 and 15000.00", now, file)
	}
	text := items[0].Message.In(i18n.RU, nil)
	if want := "Изменено после выгрузки файла: сейчас 17399.00, в файле 15000.00"; len(text) < len(want) || text[:len(want)] != want {
		t.Errorf("message in Russian %q, want it to begin %q", text, want)
	}
}

// TestPreviewChangedMeanwhileStock: a stock row asking again for the
// quantity or the status a change accepted through the dashboard
// replaced, while the record still shows it, is changed meanwhile, in
// both profiles (by warehouse and barcode, and by barcode alone); a part
// the file leaves blank, or asks for anew, is not.
func TestPreviewChangedMeanwhileStock(t *testing.T) {
	at := time.Date(2026, 11, 26, 21, 5, 0, 0, time.UTC)
	for _, noWarehouse := range []bool{false, true} {
		wh := "W"
		if noWarehouse {
			wh = ""
		}
		cat := NewCatalog()
		for _, n := range []apiclient.Nomenclature{
			{MarketplaceSKU: "MP1", SellerSKU: "S1", WarehouseCode: wh, Barcode: "B1", Quantity: 10, Status: "online"},
			{MarketplaceSKU: "MP2", SellerSKU: "S2", WarehouseCode: wh, Barcode: "B2", Quantity: 7, Status: "online"},
			{MarketplaceSKU: "MP3", SellerSKU: "S3", WarehouseCode: wh, Barcode: "B3", Quantity: 7, Status: "online"},
		} {
			cat.Add(n)
		}
		cat.Replaced[StockKey(wh, "B1")] = copystore.Replaced{Quantity: &copystore.Replacement[int]{Was: 4, To: 10, At: at}}
		cat.Replaced[StockKey(wh, "B2")] = copystore.Replaced{Status: &copystore.Replacement[string]{Was: "disabled", To: "online", At: at}}
		cat.Replaced[StockKey(wh, "B3")] = copystore.Replaced{Quantity: &copystore.Replacement[int]{Was: 4, To: 10, At: at}}
		tb := table([]string{"warehouse", "barcode", "quantity", "status"},
			[]string{"W", "B1", "4", ""},        // the quantity replaced
			[]string{"W", "B2", "", "disabled"}, // the status replaced
			[]string{"W", "B3", "4", "online"},  // the quantity moved on since
		)
		p := Previewer{Catalog: cat}
		var items []bulkjobs.Item
		if noWarehouse {
			items = p.FilterStockItems(tb, mapped(t, tb, bulkjobs.StockColumnsNoWarehouse()))
		} else {
			items = p.StockItems(tb, mapped(t, tb, bulkjobs.StockColumns))
		}
		for i, want := range []bool{true, true, false} {
			it := items[i]
			if got := ChangedMeanwhile(it); got != want || want && it.Flag != bulkjobs.FlagGuard || !want && it.Flag != bulkjobs.FlagOK {
				t.Errorf("no warehouse %v, %s: changed meanwhile %v (flag %s, %v), want %v", noWarehouse, it.Key, got, it.Flag, it.Message, want)
			}
		}
		if args := meanwhileArgs(items[0]); args == nil || args["File"].(i18n.Msgs).In(i18n.EN, nil) != "4 pcs, online" {
			t.Errorf("no warehouse %v: message %v", noWarehouse, items[0].Message)
		}
	}
}

// TestPreviewChangedMeanwhileCards: a card's rows, exported before a
// change of the card's price, collapse to one item, changed meanwhile.
func TestPreviewChangedMeanwhileCards(t *testing.T) {
	at := time.Date(2026, 11, 26, 21, 5, 0, 0, time.UTC)
	cat := NewCatalog()
	for _, bc := range []string{"B1", "B2"} {
		cat.Add(apiclient.Nomenclature{MarketplaceSKU: "SZ" + bc, ParentSKU: "CARD", Barcode: bc, Price: 2000_00})
		cat.Replaced[StockKey("", bc)] = copystore.Replaced{Price: &copystore.Replacement[copystore.Prices]{
			Was: copystore.Prices{Price: 1800_00}, To: copystore.Prices{Price: 2000_00}, At: at}}
	}
	tb := table([]string{"sku", "price"}, []string{"SZB1", "1800.00"}, []string{"SZB2", "1800.00"})
	items := Previewer{Catalog: cat}.CardPriceItems(tb, mapped(t, tb, bulkjobs.PriceColumns))
	if !ChangedMeanwhile(items[0]) || items[0].Flag != bulkjobs.FlagGuard {
		t.Errorf("the card's row: flag %s %v, want changed meanwhile", items[0].Flag, items[0].Message)
	}
	if items[1].Flag != bulkjobs.FlagUnchanged {
		t.Errorf("the card's second row: flag %s, want riding along", items[1].Flag)
	}
}
