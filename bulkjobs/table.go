// Package bulkjobs is the engine behind bulk price and stock changes: it
// reads the spreadsheets sellers import (through package sheets) into
// rows it understands, keeps every job and its rows in the dashboard's database,
// and runs submitted jobs in the background, one chunk at a time, so that a
// job survives a page reload and a restart of the dashboard.
//
// The package knows nothing about the marketplace's API: the dashboard
// hands the runner an Executor that sends a chunk and reads rows back.
package bulkjobs

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// MaxImportRows bounds the data rows of one imported file.
const MaxImportRows = 10_000

// Table is an imported file as read: the header row and the data rows,
// each with its row number in the file (1-based, the header is row 1 in
// most files), so problems can name the row the seller sees.
type Table struct {
	Header []string
	Rows   [][]string
	Lines  []int
}

// Problem is something wrong with one cell or row of an imported file.
type Problem struct {
	Row    int    // row number in the file; 0 for the file as a whole
	Column string // header as written in the file; "" for the whole row
	Text   i18n.Msgs
}

// Error is the problem in English.
func (p Problem) Error() string { return p.In(i18n.EN) }

// In is the problem in language l.
func (p Problem) In(l i18n.Lang) string {
	text := p.Text.In(l, nil)
	switch {
	case p.Row == 0:
		return text
	case p.Column == "":
		return i18n.In(l, "import.problem_row", map[string]any{"Row": p.Row, "Text": text}, nil)
	}
	return i18n.In(l, "import.problem_cell", map[string]any{"Row": p.Row, "Column": strconv.Quote(p.Column), "Text": text}, nil)
}

// ErrUnknownFormat means a file is neither CSV nor XLSX.
var ErrUnknownFormat = fileErr(i18n.K("import.err_format"))

// ReadTable reads an imported CSV or XLSX file (see ReadTableContext).
func ReadTable(data []byte) (*Table, error) {
	return ReadTableContext(context.Background(), data)
}

// ReadTableContext reads an imported CSV or XLSX file within the limits
// of sheets.Read and at most MaxImportRows data rows; parsing stops when
// ctx ends. A refusal reads in the seller's language through Words.
func ReadTableContext(ctx context.Context, data []byte) (*Table, error) {
	t, err := sheets.Read(ctx, data, MaxImportRows)
	if err != nil {
		return nil, refusal(err)
	}
	return &Table{Header: t.Header, Rows: t.Rows, Lines: t.Lines}, nil
}

// Column is a field an import understands, with the header names it is
// known by (compared without case, spaces, dots, dashes and underscores).
type Column struct {
	Field    string
	Required bool
	Names    []string
}

// Columns of a price import.
var PriceColumns = []Column{
	{Field: "sku", Required: true, Names: []string{"marketplace sku", "marketplacesku", "mp sku", "sku", "lamoda sku", "артикул маркетплейса", "артикул"}},
	{Field: "price", Names: []string{"price", "new price", "regular price", "цена", "новая цена"}},
	{Field: "sale", Names: []string{"sale price", "saleprice", "sale", "new sale price", "discount price", "цена со скидкой", "цена продажи"}},
	{Field: "start", Names: []string{"sale start", "sale start date", "salestartdate", "sale from", "start", "from", "начало скидки"}},
	{Field: "end", Names: []string{"sale end", "sale end date", "saleenddate", "sale until", "sale to", "end", "until", "конец скидки"}},
}

// Columns of a stock import.
var StockColumns = []Column{
	{Field: "warehouse", Required: true, Names: []string{"warehouse", "warehouse code", "warehouse_code", "wh", "склад", "код склада"}},
	{Field: "barcode", Required: true, Names: []string{"barcode", "ean", "ean13", "gtin", "штрихкод", "баркод"}},
	{Field: "quantity", Names: []string{"quantity", "qty", "stock", "new quantity", "количество", "остаток"}},
	{Field: "status", Names: []string{"status", "new status", "статус"}},
}

// StockColumnsNoWarehouse are StockColumns for a marketplace that keeps no
// warehouse (the lamoda profile): the warehouse column may be left out,
// and its cells are not read.
func StockColumnsNoWarehouse() []Column {
	cols := slices.Clone(StockColumns)
	for i := range cols {
		if cols[i].Field == "warehouse" {
			cols[i].Required = false
		}
	}
	return cols
}

// localName is the first Russian name of a column (the one the Russian
// export writes), or its first name.
func localName(names []string) string {
	for _, n := range names {
		if strings.ContainsFunc(n, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
			return n
		}
	}
	return names[0]
}

func normHeader(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '_' || r == '-' || r == '.' || r == '\ufeff' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// Mapping says which file column holds each field (-1 = absent).
type Mapping map[string]int

// MapColumns finds the columns by header. Unknown headers are ignored; a
// missing required column, or a field given twice, is a problem.
func MapColumns(header []string, cols []Column) (Mapping, []Problem) {
	m := Mapping{}
	var probs []Problem
	for _, c := range cols {
		m[c.Field] = -1
	}
	for i, h := range header {
		n := normHeader(h)
		for _, c := range cols {
			if !slices.ContainsFunc(c.Names, func(name string) bool { return normHeader(name) == n }) {
				continue
			}
			if m[c.Field] >= 0 {
				probs = append(probs, Problem{Row: 1, Column: h, Text: i18n.Of(i18n.M("import.err_column_twice", map[string]any{"Column": strconv.Quote(h)}))})
			} else {
				m[c.Field] = i
			}
			break
		}
	}
	for _, c := range cols {
		if c.Required && m[c.Field] < 0 {
			probs = append(probs, Problem{Row: 1, Text: i18n.Of(i18n.M("import.err_no_column", map[string]any{"Column": strconv.Quote(c.Names[0]),
				"Also": strings.Join(c.Names[1:], ", "), "Local": strconv.Quote(localName(c.Names))}))})
		}
	}
	return m, probs
}

// Cell returns a field's value of a row ("" when the column is absent or
// the row is short).
func (m Mapping) Cell(row []string, field string) string {
	i, ok := m[field]
	if !ok || i < 0 || i >= len(row) {
		return ""
	}
	return row[i]
}

// Has reports whether the file has the field's column.
func (m Mapping) Has(field string) bool { return m[field] >= 0 }

// NormalizeDecimal turns a number as spreadsheets in many locales write it
// ("1 299,50", "1299,5", "1\u00a0299.50 ₽") into a plain decimal
// ("1299.50", "1299.5"). It leaves anything else as it found it, for the
// validator to refuse with a proper message.
func NormalizeDecimal(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "₽"), "руб.")
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\'' {
			return -1
		}
		return r
	}, s)
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	} else if strings.Contains(s, ",") && strings.Contains(s, ".") && strings.LastIndex(s, ".") > strings.LastIndex(s, ",") {
		s = strings.ReplaceAll(s, ",", "") // 1,299.50
	}
	return s
}

// NormalizeDate accepts YYYY-MM-DD, DD.MM.YYYY and MM/DD/YY-style dates as
// spreadsheets format them, returning YYYY-MM-DD, or the input unchanged.
func NormalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		return s[:10] // also "2026-11-05 00:00:00"
	}
	var d, m, y int
	if n, _ := fmt.Sscanf(s, "%d.%d.%d", &d, &m, &y); n == 3 && y > 999 {
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	}
	if n, _ := fmt.Sscanf(s, "%d/%d/%d", &m, &d, &y); n == 3 {
		if y < 100 {
			y += 2000
		}
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	}
	return s
}
