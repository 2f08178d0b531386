package massupdate

import (
	"encoding/json"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// TestSaleCellRule: what a price row's sale cell means (sale.go), for a
// product without a sale (the marketplace lists it with its sale price
// equal to its price) and one on sale: a file never invents a sale.
func TestSaleCellRule(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{
		"PLAIN": {MarketplaceSKU: "PLAIN", Price: 1000_00, SalePrice: 1000_00},
		"SALE":  {MarketplaceSKU: "SALE", Price: 1000_00, SalePrice: 800_00},
	}}
	p := Previewer{Guard: 50, Catalog: cat}
	money := func(m int64) *apiclient.Money { v := apiclient.Money(m); return &v }
	for _, tc := range []struct {
		name             string
		sku, price, sale string
		flag             string
		sendPrice        int64
		sendSale         *apiclient.Money
	}{
		{name: "no sale, cells as exported", sku: "PLAIN", price: "1000.00", flag: bulkjobs.FlagUnchanged},
		{name: "no sale, sale cell equal to the price", sku: "PLAIN", price: "1000.00", sale: "1000.00", flag: bulkjobs.FlagUnchanged},
		{name: "no sale, price lowered, sale cell empty", sku: "PLAIN", price: "900.00", flag: bulkjobs.FlagOK, sendPrice: 900_00},
		{name: "no sale, price lowered, sale cell at the old price", sku: "PLAIN", price: "900.00", sale: "1000.00", flag: bulkjobs.FlagOK, sendPrice: 900_00},
		{name: "no sale, price raised, sale cell at the old price", sku: "PLAIN", price: "1100.00", sale: "1000.00", flag: bulkjobs.FlagOK, sendPrice: 1100_00},
		{name: "no sale, price raised, sale cell empty", sku: "PLAIN", price: "1100.00", flag: bulkjobs.FlagOK, sendPrice: 1100_00},
		{name: "no sale, a sale asked for", sku: "PLAIN", price: "1000.00", sale: "900.00", flag: bulkjobs.FlagOK, sendPrice: 1000_00, sendSale: money(900_00)},
		{name: "on sale, cells as exported", sku: "SALE", price: "1000.00", sale: "800.00", flag: bulkjobs.FlagUnchanged},
		{name: "on sale, sale cell empty", sku: "SALE", price: "1000.00", flag: bulkjobs.FlagUnchanged},
		{name: "on sale, sale cell equal to the price ends it", sku: "SALE", price: "1000.00", sale: "1000.00", flag: bulkjobs.FlagOK, sendPrice: 1000_00},
		{name: "on sale, price raised keeps it", sku: "SALE", price: "1100.00", flag: bulkjobs.FlagOK, sendPrice: 1100_00, sendSale: money(800_00)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typed := map[string]string{"sku": tc.sku, "price": tc.price, "sale": tc.sale}
			it := p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: tc.sku, Chunk: -1, Flag: bulkjobs.FlagInvalid}, typed, map[string]int{})
			if it.Flag != tc.flag {
				t.Fatalf("flag %s (%v), want %s", it.Flag, it.Message, tc.flag)
			}
			if tc.flag != bulkjobs.FlagOK {
				return
			}
			var upd apiclient.PriceUpdate
			if err := json.Unmarshal([]byte(it.Payload), &upd); err != nil {
				t.Fatal(err)
			}
			if int64(upd.Price) != tc.sendPrice || (upd.SalePrice == nil) != (tc.sendSale == nil) || (upd.SalePrice != nil && *upd.SalePrice != *tc.sendSale) {
				t.Errorf("sends %+v, want price %d and sale %v", upd, tc.sendPrice, tc.sendSale)
			}
		})
	}
}

// TestOnSale: a sale price at or above the price, or none, is no sale.
func TestOnSale(t *testing.T) {
	for _, tc := range []struct {
		price, sale int64
		want        bool
	}{{1000, 800, true}, {1000, 1000, false}, {1000, 0, false}, {1000, 1200, false}} {
		if got := OnSale(tc.price, tc.sale); got != tc.want {
			t.Errorf("OnSale(%d, %d) = %v, want %v", tc.price, tc.sale, got, tc.want)
		}
	}
}

// TestRepeatedRowSayingTheSame: a SKU repeated with the same price cells
// (a file with a row per warehouse) is unchanged, counted once; repeated
// with other cells it is refused as before.
func TestRepeatedRowSayingTheSame(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{"A": {MarketplaceSKU: "A", Price: 1000_00, SalePrice: 1000_00}}}
	p := Previewer{Catalog: cat}
	tab := &bulkjobs.Table{Header: []string{"sku", "price", "sale"},
		Rows:  [][]string{{"A", "1100", ""}, {"A", "1100.00", ""}, {"A", "1200", ""}},
		Lines: []int{2, 3, 4}}
	m, probs := bulkjobs.MapColumns(tab.Header, bulkjobs.PriceColumns)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	items := p.PriceItems(tab, m)
	for i, want := range []string{bulkjobs.FlagOK, bulkjobs.FlagUnchanged, bulkjobs.FlagInvalid} {
		if items[i].Flag != want {
			t.Errorf("line %d: %s (%v), want %s", items[i].Line, items[i].Flag, items[i].Message, want)
		}
	}
}
