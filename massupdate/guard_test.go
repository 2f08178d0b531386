package massupdate

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

func money(k int64) *apiclient.Money { m := apiclient.Money(k); return &m }

// TestPriceBeyondGuard: the one rule measures the price and the sale
// price (against the running sale, else the price), holds a change past
// ±percent either way, lets one at the guard exactly pass, and is off at 0.
func TestPriceBeyondGuard(t *testing.T) {
	cases := []struct {
		name     string
		cur      PriceNow
		upd      apiclient.PriceUpdate
		percent  int
		beyond   bool
		permille int64
		saleEnds bool
	}{
		{"typo: 17 399 to 2 000", PriceNow{Price: 17399_00}, apiclient.PriceUpdate{Price: 2000_00}, 50, true, -885, false},
		{"half exactly", PriceNow{Price: 1000_00}, apiclient.PriceUpdate{Price: 500_00}, 50, false, -500, false},
		{"up past the guard", PriceNow{Price: 1000_00}, apiclient.PriceUpdate{Price: 1501_00}, 50, true, 501, false},
		{"small change", PriceNow{Price: 1000_00}, apiclient.PriceUpdate{Price: 900_00}, 50, false, -100, false},
		{"guard off", PriceNow{Price: 17399_00}, apiclient.PriceUpdate{Price: 2000_00}, 0, false, -885, false},
		{"sale far below the running one", PriceNow{Price: 1000_00, Sale: 800_00}, apiclient.PriceUpdate{Price: 1000_00, SalePrice: money(100_00)}, 50, true, -875, false},
		{"new sale far below the price", PriceNow{Price: 1000_00}, apiclient.PriceUpdate{Price: 1000_00, SalePrice: money(300_00)}, 50, true, -700, false},
		{"sale ends, price kept", PriceNow{Price: 1799_00, Sale: 1187_00}, apiclient.PriceUpdate{Price: 1799_00}, 50, false, 0, true},
		{"1 instead of 1 799", PriceNow{Price: 1799_00, Sale: 1187_00}, apiclient.PriceUpdate{Price: 1_00}, 50, true, -999, true},
	}
	for _, c := range cases {
		d, beyond := PriceBeyondGuard(c.percent, c.cur, c.upd)
		if beyond != c.beyond || d.Permille() != c.permille || d.SaleEnds != c.saleEnds {
			t.Errorf("%s: beyond %v, %d ‰, sale ends %v; want %v, %d ‰, %v", c.name, beyond, d.Permille(), d.SaleEnds, c.beyond, c.permille, c.saleEnds)
		}
	}
}

// TestHoldBeyondGuard: the form's rows past the guard are taken out of
// what is sent and held with their change and token; a confirmation of
// that very change sends it, one of another amount does not; rows within
// the guard are sent either way.
func TestHoldBeyondGuard(t *testing.T) {
	rows := []PriceInput{
		{SKU: "A", OrigPrice: "17399.00", Price: "2000.00"},
		{SKU: "B", OrigPrice: "1000.00", Price: "950.00"},
	}
	key := func(u apiclient.PriceUpdate) (string, apiclient.PriceUpdate) { return u.MarketplaceSKU, u }
	c := HoldBeyondGuard(CheckPrices(rows), 50, nil, key)
	if len(c.Send) != 1 || c.Send[0].MarketplaceSKU != "B" {
		t.Fatalf("sent %+v, want B alone", c.Send)
	}
	h, ok := c.Held["A"]
	if !ok || h.Confirmed || h.Delta.Permille() != -885 || h.Token != "A|200000" || c.Waiting() != 1 {
		t.Fatalf("held %+v, want A at −88.5 %% with its token", c.Held)
	}
	c = HoldBeyondGuard(CheckPrices(rows), 50, map[string]bool{"A|200000": true}, key)
	if len(c.Send) != 2 || !c.Held["A"].Confirmed || c.Waiting() != 0 {
		t.Errorf("confirmed: sent %+v, held %+v; want both sent", c.Send, c.Held)
	}
	rows[0].Price = "200.00"
	c = HoldBeyondGuard(CheckPrices(rows), 50, map[string]bool{"A|200000": true}, key)
	if h := c.Held["A"]; h.Confirmed || h.Token != "A|20000" || len(c.Send) != 1 {
		t.Errorf("a confirmation of another amount: sent %+v, held %+v; want A held", c.Send, c.Held)
	}
	if c := HoldBeyondGuard(CheckPrices(rows), 0, nil, key); len(c.Send) != 2 {
		t.Errorf("guard off: sent %+v, want both", c.Send)
	}
}

// TestPriceBelowSaleNamesThePrice: a price typed under a sale the user
// left alone is the price's mistake, and the form says so on the price;
// a sale typed above the price stays the sale's.
func TestPriceBelowSaleNamesThePrice(t *testing.T) {
	_, errs := PriceInput{SKU: "A", OrigPrice: "1799.00", OrigSale: "1187.00", Price: "1", Sale: "1187.00"}.Validate()
	if len(errs["price"]) == 0 || len(errs["sale"]) != 0 || !strings.Contains(en(errs["price"]), "1,187.00") {
		t.Errorf("price 1 under a kept sale: errors %v, want the price named with the sale", errs)
	}
	_, errs = PriceInput{SKU: "A", OrigPrice: "1799.00", OrigSale: "1187.00", Price: "1799.00", Sale: "2000.00"}.Validate()
	if len(errs["sale"]) == 0 || len(errs["price"]) != 0 {
		t.Errorf("sale typed above the price: errors %v, want the sale named", errs)
	}
}

// TestPreviewSaysTheSaleEnds: an import row whose new price ends the
// running sale says so in its preview, before anything is sent; the
// guard flags the row by the same rule as the form.
func TestPreviewSaysTheSaleEnds(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{"MP1": {MarketplaceSKU: "MP1", Price: 1799_00, SalePrice: 1187_00}}}
	p := Previewer{Guard: 50, Catalog: cat}
	it := p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: "MP1", Chunk: -1, Flag: bulkjobs.FlagInvalid}, map[string]string{"sku": "MP1", "price": "1100.00"}, map[string]int{})
	if it.Flag != bulkjobs.FlagOK || !strings.Contains(en(it.Message), "sale price 1,187.00 ends") {
		t.Errorf("price under the sale: flag %s, message %q; want ok, saying the sale ends", it.Flag, en(it.Message))
	}
	it = p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: "MP1", Chunk: -1, Flag: bulkjobs.FlagInvalid}, map[string]string{"sku": "MP1", "price": "1799.00", "sale": "500.00"}, map[string]int{})
	if it.Flag != bulkjobs.FlagGuard {
		t.Errorf("sale 1 187 to 500: flag %s %q, want held by the guard", it.Flag, en(it.Message))
	}
}

// TestPreviewGuardsTheSalePriceToo: an import row that barely moves the
// price but cuts the running sale deep is held by the one rule, as the
// form holds it; before, the preview measured the price alone.
func TestPreviewGuardsTheSalePriceToo(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{"MP1": {MarketplaceSKU: "MP1", Price: 1000_00, SalePrice: 800_00}}}
	p := Previewer{Guard: 50, Catalog: cat}
	it := p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: "MP1", Chunk: -1, Flag: bulkjobs.FlagInvalid}, map[string]string{"sku": "MP1", "price": "990.00", "sale": "150.00"}, map[string]int{})
	if it.Flag != bulkjobs.FlagGuard {
		t.Errorf("price −1 %%, sale 800 → 150: flag %s %q, want held by the guard", it.Flag, en(it.Message))
	}
	_, beyond := PriceBeyondGuard(50, PriceNow{Price: 1000_00, Sale: 800_00}, apiclient.PriceUpdate{Price: 990_00, SalePrice: money(150_00)})
	if !beyond {
		t.Error("the form's rule lets the same change through")
	}
}

// TestHoldCards: the card form's guard is the one rule, a row named by
// its card: a card past the guard is held under its card's token until
// that change is confirmed.
func TestHoldCards(t *testing.T) {
	rows := []PriceInput{
		{SKU: "C1", OrigPrice: "1000.00", Price: "100.00"},
		{SKU: "C2", OrigPrice: "1000.00", Price: "900.00"},
	}
	c := HoldCards(CheckCards(rows, nil), 50, nil)
	if len(c.Send) != 1 || c.Send[0].Parent != "C2" || c.Held["C1"].Token != "C1|10000" || c.Waiting() != 1 {
		t.Fatalf("sent %+v, held %+v; want C2 sent and C1 held", c.Send, c.Held)
	}
	c = HoldCards(CheckCards(rows, nil), 50, map[string]bool{"C1|10000": true})
	if len(c.Send) != 2 || !c.Held["C1"].Confirmed {
		t.Errorf("confirmed: sent %+v, held %+v; want both sent", c.Send, c.Held)
	}
	p := HoldPrices(CheckPrices(rows), 50, nil)
	if len(p.Send) != 1 || p.Send[0].MarketplaceSKU != "C2" || p.Held["C1"].Token != "C1|10000" {
		t.Errorf("per SKU: sent %+v, held %+v; want C2 sent and C1 held", p.Send, p.Held)
	}
}

// TestPriceInputHints: a typed price or sale price more than 90 % below
// the shown price is warned of with its drop, cut toward zero; a sale
// left blank while one runs is warned it ends; an unchanged field or an
// unreadable baseline gives no warning.
func TestPriceInputHints(t *testing.T) {
	h := PriceInput{SKU: "A", OrigPrice: "16799.00", Price: "1.00"}.Hints()
	if len(h) != 1 || h["price"].DropTenths != 999 {
		t.Errorf("a deep drop: %+v, want the price's drop of 99.9 %%", h)
	}
	h = PriceInput{SKU: "A", OrigPrice: "1000.00", OrigSale: "900.00", Price: "1000.00"}.Hints()
	if len(h) != 1 || h["sale"].Sale != 900_00 {
		t.Errorf("a sale cleared: %+v, want the sale of 900.00 said to end", h)
	}
	h = PriceInput{SKU: "A", OrigPrice: "1000.00", OrigSale: "900.00", Price: "1000.00", Sale: "50.00"}.Hints()
	if len(h) != 1 || h["sale"].DropTenths != 950 {
		t.Errorf("a deep sale: %+v, want the sale's drop of 95 %%", h)
	}
	if h := (PriceInput{SKU: "A", OrigPrice: "1000.00", Price: "1000.00"}).Hints(); h != nil {
		t.Errorf("unchanged: %+v", h)
	}
	if h := (PriceInput{SKU: "A", OrigPrice: "x", Price: "1.00"}).Hints(); h != nil {
		t.Errorf("no baseline: %+v", h)
	}
}
