package massupdate

import (
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// Previewer turns file rows into checked job rows.
type Previewer struct {
	Guard   int // percent of change beyond which a row needs confirmation; 0: none
	Catalog *Catalog
}

// fieldLabels are the catalogue keys of the fields a row's problems name.
var fieldLabels = map[string]string{
	"price": i18n.K("mass.field_price"), "sale": i18n.K("mass.field_sale"), "start": i18n.K("mass.field_start"),
	"end": i18n.K("mass.field_end"), "quantity": i18n.K("mass.field_quantity"), "status": i18n.K("mass.field_status"),
}

// problemText joins a row's field problems, each labelled with its field,
// as one message.
func problemText(errs map[string]i18n.Msgs, order ...string) i18n.Msgs {
	var parts []i18n.Msg
	for _, k := range order {
		for i, m := range errs[k] {
			if i == 0 {
				m.Label = fieldLabels[k]
			}
			parts = append(parts, m)
		}
	}
	return i18n.Of(parts...)
}

// WantRows names the records the rows of t concern, read as PriceItems
// (kind "prices") or StockItems (kind "stock") read them.
func WantRows(kind string, t *bulkjobs.Table, m bulkjobs.Mapping) Want {
	w := Want{SKUs: map[string]bool{}, Keys: map[string]bool{}}
	for _, row := range t.Rows {
		if kind == Stock.Name {
			if bc := strings.TrimSpace(m.Cell(row, "barcode")); bc != "" {
				w.Keys[StockKey(strings.TrimSpace(m.Cell(row, "warehouse")), bc)] = true
			}
			continue
		}
		if sku := strings.TrimSpace(m.Cell(row, "sku")); sku != "" {
			w.SKUs[sku] = true
		}
	}
	return w
}

// PriceItems checks the rows of a price file against the catalogue: each
// becomes a job item flagged ok, unchanged, invalid or needing confirmation.
func (p Previewer) PriceItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	first := map[string]map[string]string{} // a SKU's first row's cells
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
		it = p.checkPrice(it, typed, seen)
		if f, dup := first[typed["sku"]]; dup && samePriceCells(f, typed) {
			// A repeat saying the same (a file with a row per warehouse,
			// as the stock exports): nothing more to do.
			it.Flag, it.Message = bulkjobs.FlagUnchanged, i18n.Of(i18n.M("mass.same_row", map[string]any{"Row": strconv.Itoa(seen[typed["sku"]])}))
		}
		items = append(items, it)
		if typed["sku"] != "" {
			if _, dup := seen[typed["sku"]]; !dup {
				seen[typed["sku"]] = t.Lines[i]
				first[typed["sku"]] = typed
			}
		}
	}
	return items
}

func newPriceText(typed map[string]string) i18n.Msgs {
	var parts []i18n.Msg
	if typed["price"] != "" {
		parts = append(parts, i18n.Msg{Text: typed["price"]})
	}
	if typed["sale"] != "" {
		parts = append(parts, i18n.M("mass.sale_of", map[string]any{"Sale": typed["sale"]}))
	}
	if typed["start"] != "" || typed["end"] != "" {
		parts = append(parts, i18n.Msg{Text: typed["start"] + "…" + typed["end"]})
	}
	if len(parts) == 0 {
		return i18n.Plain("—")
	}
	return i18n.Of(parts...)
}

func (p Previewer) checkPrice(it bulkjobs.Item, typed map[string]string, seen map[string]int) bulkjobs.Item {
	sku := typed["sku"]
	switch {
	case sku == "":
		it.Message = i18n.Of(i18n.M("mass.no_sku", nil))
		return it
	case seen[sku] > 0:
		it.Message = i18n.Of(i18n.M("mass.dup_sku", map[string]any{"Row": strconv.Itoa(seen[sku])}))
		return it
	}
	rec, ok := p.Catalog.BySKU[sku]
	if !ok {
		it.Message = i18n.Of(i18n.M("mass.unknown_sku", nil))
		return it
	}
	cur := CurrentPrice(rec)
	it.Current, it.OldText = mustJSON(cur), cur.Text()
	if typed["price"] == "" && typed["sale"] == "" && typed["start"] == "" && typed["end"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, i18n.Of(i18n.M("mass.no_new_value", nil))
		return it
	}
	// Blank cells keep the current value.
	in := PriceInput{SKU: sku, Price: typed["price"], Sale: typed["sale"], Start: typed["start"], End: typed["end"]}
	if in.Price == "" {
		in.Price = apiclient.Money(cur.Price).Decimal()
	}
	in.Sale = fileSale(in.Sale, in.Price, cur) // what "no sale" means: sale.go
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
		it.Flag, it.Message = bulkjobs.FlagUnchanged, i18n.Of(i18n.M("mass.same_price", nil))
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
	if _, beyond := PriceBeyondGuard(p.Guard, cur, upd); beyond {
		it.Flag = bulkjobs.FlagGuard
		it.Message = i18n.Of(i18n.M("mass.beyond_guard", map[string]any{"Guard": strconv.Itoa(p.Guard)}))
	}
	it.Message = i18n.Join(it.Message, SaleEndsNote(cur, upd))
	if why := RefusedPrice(cur, upd); len(why) > 0 {
		// The marketplace's known rule refuses it; it is
		// sent only when this row is confirmed on its own.
		it.Flag = bulkjobs.FlagGuard
		it.Message = i18n.Join(why, i18n.Of(i18n.M("mass.confirm_itself", nil)), SaleEndsNote(cur, upd))
	}
	file := CurrentPrice(apiclient.Nomenclature{Price: upd.Price, SalePrice: apiclient.Money(newSale)})
	if mw := p.meanwhilePrice(rec, cur, file); mw != nil {
		// It would undo a change made after the file was exported: sent
		// only when this row is confirmed on its own.
		it.Flag = bulkjobs.FlagGuard
		it.Message = i18n.Join(mw, RefusedPrice(cur, upd), i18n.Of(i18n.M("mass.confirm_itself", nil)), SaleEndsNote(cur, upd))
	}
	return it
}

// StockItems checks the rows of a stock file against the catalogue.
func (p Previewer) StockItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	return p.stockItems(t, m, false)
}

// stockItems is StockItems; noWarehouse keys rows by barcode alone (the
// warehouse cell may be empty), for records without a warehouse.
func (p Previewer) stockItems(t *bulkjobs.Table, m bulkjobs.Mapping, noWarehouse bool) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	for i, row := range t.Rows {
		typed := map[string]string{
			"warehouse": strings.TrimSpace(m.Cell(row, "warehouse")),
			"barcode":   strings.TrimSpace(m.Cell(row, "barcode")),
			"quantity":  bulkjobs.NormalizeDecimal(m.Cell(row, "quantity")),
			"status":    i18n.StatusCode(m.Cell(row, "status"), Statuses), // a code, or its label as the exports write it
		}
		key := StockKey(typed["warehouse"], typed["barcode"])
		if noWarehouse {
			key = StockKey("", typed["barcode"]) // the marketplace keeps no warehouse: the cell is not read
		}
		it := bulkjobs.Item{Seq: i + 1, Line: t.Lines[i], Key: key, Chunk: -1, Typed: mustJSON(typed), Flag: bulkjobs.FlagInvalid}
		it.NewText = newStockText(typed["quantity"], typed["status"])
		items = append(items, p.checkStock(it, typed, seen, noWarehouse))
		if _, dup := seen[key]; !dup && (typed["warehouse"] != "" || noWarehouse) && typed["barcode"] != "" {
			seen[key] = t.Lines[i]
		}
	}
	return items
}

// newStockText is the stock a row asks for, as typed: "5 pcs, online".
func newStockText(qty, status string) i18n.Msgs {
	var parts []i18n.Msg
	switch {
	case qty != "" && status != "":
		parts = append(parts, i18n.M("mass.pieces_and", map[string]any{"Qty": qty}))
	case qty != "":
		parts = append(parts, i18n.M("mass.pieces", map[string]any{"Qty": qty}))
	}
	if status != "" {
		parts = append(parts, i18n.Msg{Status: status})
	}
	if len(parts) == 0 {
		return nil
	}
	return i18n.Of(parts...)
}

func (p Previewer) checkStock(it bulkjobs.Item, typed map[string]string, seen map[string]int, noWarehouse bool) bulkjobs.Item {
	switch {
	case (typed["warehouse"] == "" && !noWarehouse) || typed["barcode"] == "":
		it.Message = i18n.Of(i18n.M("mass.no_stock_key", nil))
		return it
	case seen[it.Key] > 0:
		it.Message = i18n.Of(i18n.M("mass.dup_stock", map[string]any{"Row": strconv.Itoa(seen[it.Key])}))
		return it
	}
	rec, ok := p.Catalog.ByKey[it.Key]
	if !ok && noWarehouse {
		it.Message = i18n.Of(i18n.M("mass.unknown_barcode", nil)) // no warehouse to name
		return it
	}
	if !ok {
		it.Message = i18n.Of(i18n.M("mass.unknown_stock", nil))
		return it
	}
	cur := StockNow{Quantity: rec.Quantity, Status: rec.Status}
	it.Current, it.OldText = mustJSON(cur), cur.Text()
	if typed["quantity"] == "" && typed["status"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, i18n.Of(i18n.M("mass.no_new_value", nil))
		return it
	}
	wh := typed["warehouse"]
	if noWarehouse {
		wh = ""
	}
	in := StockInput{Warehouse: wh, Barcode: typed["barcode"], OrigQty: strconv.Itoa(cur.Quantity), OrigStatus: cur.Status,
		Qty: typed["quantity"], Status: typed["status"], noWarehouse: noWarehouse}
	if in.Qty == "" {
		in.Qty = in.OrigQty
	}
	if in.Status == "" {
		in.Status = in.OrigStatus
	}
	if !in.Changed() {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, i18n.Of(i18n.M("mass.same_stock", nil))
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
		if BeyondGuard(p.Guard, it.OldNum, it.NewNum) {
			it.Flag = bulkjobs.FlagGuard
			it.Message = i18n.Of(i18n.M("mass.beyond_guard", map[string]any{"Guard": strconv.Itoa(p.Guard)}))
		}
	}
	var qty *int
	if typed["quantity"] != "" {
		qty = item.Quantity
	}
	if mw := p.meanwhileStock(it.Key, cur, qty, typed["status"]); mw != nil {
		// It would undo a change made after the file was exported: sent
		// only when this row is confirmed on its own.
		it.Flag = bulkjobs.FlagGuard
		it.Message = i18n.Join(mw, i18n.Of(i18n.M("mass.confirm_itself", nil)))
	}
	return it
}
