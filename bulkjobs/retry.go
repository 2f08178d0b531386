package bulkjobs

import "encoding/json"

// EditFields are the cells of a job of kind a retry's preview lets the
// user change.
func EditFields(kind string) []string {
	if kind == "stock" {
		return []string{"quantity", "status"}
	}
	return []string{"price", "sale"}
}

// RetryTable is a table of the rows of a job of kind that keep passes, as
// they were typed (Item.Typed), with edits (by row number, then field)
// replacing cells: what a retry or a revised retry previews again. Its
// header is the full one of kind (a stock table has a warehouse column),
// each row keeping its line in the file.
func RetryTable(kind string, items []Item, edits map[int]map[string]string, keep func(Item) bool) (*Table, Mapping) {
	t := &Table{}
	var m Mapping
	if kind == "stock" {
		t.Header = []string{"warehouse", "barcode", "quantity", "status"}
		m, _ = MapColumns(t.Header, StockColumns)
	} else {
		t.Header = []string{"sku", "price", "sale", "start", "end"}
		m, _ = MapColumns(t.Header, PriceColumns)
	}
	for _, it := range items {
		if !keep(it) {
			continue
		}
		var typed map[string]string
		_ = json.Unmarshal([]byte(it.Typed), &typed)
		for f, v := range edits[it.Seq] {
			if typed == nil {
				typed = map[string]string{}
			}
			typed[f] = v
		}
		row := make([]string, len(t.Header))
		for i, h := range t.Header {
			row[i] = typed[h]
		}
		t.Rows = append(t.Rows, row)
		t.Lines = append(t.Lines, it.Line)
	}
	return t, m
}
