package massupdate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// Previewer turns file rows into checked job rows.
type Previewer struct {
	Guard   int // percent of change beyond which a row needs confirmation; 0: none
	Catalog *Catalog
}

// beyondGuard reports whether a change from old to new exceeds the guard.
func (p Previewer) beyondGuard(old, new int64) bool {
	if old <= 0 || p.Guard <= 0 {
		return false
	}
	return math.Abs(float64(new-old))*100 > float64(p.Guard)*float64(old)
}

func problemText(errs map[string]string, order ...string) string {
	var parts []string
	for _, k := range order {
		if m := errs[k]; m != "" {
			parts = append(parts, k+": "+m)
		}
	}
	return strings.Join(parts, " ")
}

// PriceItems checks the rows of a price file against the catalogue: each
// becomes a job item flagged ok, unchanged, invalid or needing confirmation.
func (p Previewer) PriceItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	for i, row := range t.Rows {
		typed := map[string]string{
			"sku":   strings.TrimSpace(m.Cell(row, "sku")),
			"price": bulkjobs.NormalizeDecimal(m.Cell(row, "price")),
			"sale":  bulkjobs.NormalizeDecimal(m.Cell(row, "sale")),
			"start": bulkjobs.NormalizeDate(m.Cell(row, "start")),
			"end":   bulkjobs.NormalizeDate(m.Cell(row, "end")),
		}
		it := bulkjobs.Item{Seq: i + 1, Line: t.Lines[i], Key: typed["sku"], Chunk: -1, Typed: mustJSON(typed), Flag: bulkjobs.FlagInvalid}
		it.NewText = newPriceText(typed)
		items = append(items, p.checkPrice(it, typed, seen))
		if typed["sku"] != "" {
			if _, dup := seen[typed["sku"]]; !dup {
				seen[typed["sku"]] = t.Lines[i]
			}
		}
	}
	return items
}

func newPriceText(typed map[string]string) string {
	s := typed["price"]
	if typed["sale"] != "" {
		s = strings.TrimSpace(s + " (sale " + typed["sale"] + ")")
	}
	if typed["start"] != "" || typed["end"] != "" {
		s += " " + typed["start"] + "…" + typed["end"]
	}
	if s == "" {
		return "—"
	}
	return s
}

func (p Previewer) checkPrice(it bulkjobs.Item, typed map[string]string, seen map[string]int) bulkjobs.Item {
	sku := typed["sku"]
	switch {
	case sku == "":
		it.Message = "No marketplace SKU in this row."
		return it
	case seen[sku] > 0:
		it.Message = fmt.Sprintf("This SKU appears again (first in row %d); only the first row counts.", seen[sku])
		return it
	}
	rec, ok := p.Catalog.BySKU[sku]
	if !ok {
		it.Message = "Unknown SKU: it is not in this seller's catalogue."
		return it
	}
	cur := CurrentPrice(rec)
	it.Current, it.OldText = mustJSON(cur), cur.Text()
	if typed["price"] == "" && typed["sale"] == "" && typed["start"] == "" && typed["end"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "No new value in this row."
		return it
	}
	// Blank cells keep the current value.
	in := PriceInput{SKU: sku, Price: typed["price"], Sale: typed["sale"], Start: typed["start"], End: typed["end"]}
	if in.Price == "" {
		in.Price = format.MoneyInput(cur.Price)
	}
	if in.Sale == "" && cur.Sale > 0 {
		// A blank sale cell keeps the running sale, unless the new price
		// is below it: a price under the sale price ends the sale (it
		// would be refused otherwise, and no cell could say "no sale").
		if newPrice, err := apiclient.ParseMoney(in.Price); err != nil || int64(newPrice) >= cur.Sale {
			in.Sale = format.MoneyInput(cur.Sale)
		}
	}
	upd, errs := in.Validate()
	if errs != nil {
		it.Message = problemText(errs, "price", "sale", "start", "end")
		return it
	}
	newSale := int64(0)
	if upd.SalePrice != nil {
		newSale = int64(*upd.SalePrice)
	}
	it.Payload = mustJSON(upd)
	if int64(upd.Price) == cur.Price && newSale == cur.Sale && in.Start == "" && in.End == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "Same as the current price: skipped."
		return it
	}
	it.HasNum = true
	if int64(upd.Price) != cur.Price || newSale == 0 {
		it.OldNum, it.NewNum = cur.Price, int64(upd.Price)
	} else {
		old := cur.Sale
		if old == 0 {
			old = cur.Price
		}
		it.OldNum, it.NewNum = old, newSale
	}
	it.Flag = bulkjobs.FlagOK
	if p.beyondGuard(it.OldNum, it.NewNum) {
		it.Flag = bulkjobs.FlagGuard
		it.Message = fmt.Sprintf("A change beyond ±%d %%: confirm it to send it.", p.Guard)
	}
	if why := RefusedPrice(cur, upd); why != "" {
		// Issue 17 item 7: the marketplace's known rule refuses it; it is
		// sent only when this row is confirmed on its own.
		it.Flag = bulkjobs.FlagGuard
		it.Message = why + " Not sent unless you confirm this row itself."
	}
	return it
}

// StockItems checks the rows of a stock file against the catalogue.
func (p Previewer) StockItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	for i, row := range t.Rows {
		typed := map[string]string{
			"warehouse": strings.TrimSpace(m.Cell(row, "warehouse")),
			"barcode":   strings.TrimSpace(m.Cell(row, "barcode")),
			"quantity":  bulkjobs.NormalizeDecimal(m.Cell(row, "quantity")),
			"status":    strings.ToLower(strings.TrimSpace(m.Cell(row, "status"))),
		}
		key := typed["warehouse"] + "|" + typed["barcode"]
		it := bulkjobs.Item{Seq: i + 1, Line: t.Lines[i], Key: key, Chunk: -1, Typed: mustJSON(typed), Flag: bulkjobs.FlagInvalid}
		it.NewText = strings.Trim(typed["quantity"]+" pcs, "+typed["status"], " ,")
		if typed["quantity"] == "" {
			it.NewText = typed["status"]
		}
		items = append(items, p.checkStock(it, typed, seen))
		if _, dup := seen[key]; !dup && typed["warehouse"] != "" && typed["barcode"] != "" {
			seen[key] = t.Lines[i]
		}
	}
	return items
}

func (p Previewer) checkStock(it bulkjobs.Item, typed map[string]string, seen map[string]int) bulkjobs.Item {
	switch {
	case typed["warehouse"] == "" || typed["barcode"] == "":
		it.Message = "This row needs both a warehouse and a barcode."
		return it
	case seen[it.Key] > 0:
		it.Message = fmt.Sprintf("This warehouse and barcode appear again (first in row %d); only the first row counts.", seen[it.Key])
		return it
	}
	rec, ok := p.Catalog.ByKey[it.Key]
	if !ok {
		it.Message = "Unknown record: this barcode is not stocked at this warehouse for this seller."
		return it
	}
	cur := StockNow{Quantity: rec.Quantity, Status: rec.Status}
	it.Current, it.OldText = mustJSON(cur), cur.Text()
	if typed["quantity"] == "" && typed["status"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "No new value in this row."
		return it
	}
	in := StockInput{Warehouse: typed["warehouse"], Barcode: typed["barcode"], OrigQty: strconv.Itoa(cur.Quantity), OrigStatus: cur.Status,
		Qty: typed["quantity"], Status: typed["status"]}
	if in.Qty == "" {
		in.Qty = in.OrigQty
	}
	if in.Status == "" {
		in.Status = in.OrigStatus
	}
	if !in.Changed() {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "Same as the current stock: skipped."
		return it
	}
	item, errs := in.Validate()
	if errs != nil {
		it.Message = problemText(errs, "quantity", "status")
		return it
	}
	it.Payload = mustJSON(item)
	it.NewText = StockNow{Quantity: cur.Quantity, Status: in.Status}.Text()
	it.Flag = bulkjobs.FlagOK
	if item.Quantity != nil {
		it.NewText = StockNow{Quantity: *item.Quantity, Status: in.Status}.Text()
		it.HasNum, it.OldNum, it.NewNum = true, int64(cur.Quantity), int64(*item.Quantity)
		if p.beyondGuard(it.OldNum, it.NewNum) {
			it.Flag = bulkjobs.FlagGuard
			it.Message = fmt.Sprintf("A change beyond ±%d %%: confirm it to send it.", p.Guard)
		}
	}
	return it
}
