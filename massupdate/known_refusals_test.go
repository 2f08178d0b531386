package massupdate

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// TestPreviewFlagsDropsTheMarketplaceRefuses: the sandbox's rule (a price
// or sale price below a tenth of the current price is refused) is flagged
// at preview, even with the import's own guard off, and Doomed finds it
// again from the stored row; a 90 % drop exactly is allowed.
func TestPreviewFlagsDropsTheMarketplaceRefuses(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{"MP1": {MarketplaceSKU: "MP1", Price: 25499_00, SalePrice: 25499_00}}}
	p := Previewer{Guard: 0, Catalog: cat}
	check := func(typed map[string]string) bulkjobs.Item {
		return p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: "MP1", Chunk: -1, Flag: bulkjobs.FlagInvalid}, typed, map[string]int{})
	}
	cases := []struct {
		price, sale string
		doomed      bool
	}{
		{"2549.90", "", false}, // exactly -90 %
		{"2549.89", "", true},
		{"1274.95", "", true},
		{"25499.00", "100.00", true}, // a sale price far below
		{"20000.00", "", false},
	}
	for _, c := range cases {
		it := check(map[string]string{"sku": "MP1", "price": c.price, "sale": c.sale})
		if got := Doomed("prices", it); got != c.doomed {
			t.Errorf("%s (sale %q): doomed %v, want %v (%s %q)", c.price, c.sale, got, c.doomed, it.Flag, it.Message)
		}
		if c.doomed && (it.Flag != bulkjobs.FlagGuard || !strings.Contains(en(it.Message), "more than 90 % below the current price 25,499.00")) {
			t.Errorf("%s: flag %s, message %q", c.price, it.Flag, it.Message)
		}
		if !c.doomed && it.Flag != bulkjobs.FlagOK {
			t.Errorf("%s: flag %s %q, want ok with the guard off", c.price, it.Flag, it.Message)
		}
	}
	if Doomed("stock", check(map[string]string{"sku": "MP1", "price": "1.00"})) {
		t.Error("a stock row is never a doomed price")
	}
}

// TestStockStatusTheMarketplaceRefuses: the preview (and the form, through
// the same Validate) refuses a status change moderation alone may make,
// with the reason, and allows disabling any record.
func TestStockStatusTheMarketplaceRefuses(t *testing.T) {
	cases := []struct {
		from, to string
		refused  bool
	}{
		{"rejected", "online", true}, {"in_moderation", "online", true}, {"online", "in_moderation", true},
		{"disabled", "rejected", true}, {"rejected", "disabled", false}, {"in_moderation", "disabled", false},
		{"disabled", "online", false}, {"online", "disabled", false},
	}
	for _, c := range cases {
		in := StockInput{Warehouse: "W", Barcode: "1", Qty: "1", OrigQty: "1", Status: c.to, OrigStatus: c.from}
		_, errs := in.Validate()
		if got := len(errs["status"]) > 0; got != c.refused {
			t.Errorf("%s → %s: refused %v (%q), want %v", c.from, c.to, got, errs["status"], c.refused)
		}
	}
	cat := &Catalog{ByKey: map[string]apiclient.Nomenclature{"W|1": {WarehouseCode: "W", Barcode: "1", Quantity: 3, Status: "rejected", Name: "Boots"}}}
	p := Previewer{Catalog: cat}
	items := p.StockItems(&bulkjobs.Table{Header: []string{"warehouse", "barcode", "status"}, Rows: [][]string{{"W", "1", "online"}}, Lines: []int{2}},
		bulkjobs.Mapping{"warehouse": 0, "barcode": 1, "status": 2})
	if items[0].Flag != bulkjobs.FlagInvalid || en(items[0].Message) != "status: Moderation rejected this product: correct its card before putting it online." {
		t.Errorf("preview: %s %q", items[0].Flag, items[0].Message)
	}
	p.Named(items)
	if RowName(items[0]) != "Boots" {
		t.Errorf("name %q", RowName(items[0]))
	}
}
