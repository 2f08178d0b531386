// Package bulkjobs is the engine behind bulk price and stock changes: it
// reads and writes the spreadsheets sellers exchange with the dashboard
// (CSV and XLSX), keeps every job and its rows in the dashboard's database,
// and runs submitted jobs in the background, one chunk at a time, so that a
// job survives a page reload and a restart of the dashboard.
//
// The package knows nothing about the marketplace's API: the dashboard
// hands the runner an Executor that sends a chunk and reads rows back.
package bulkjobs

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// MaxImportRows bounds the data rows of one imported file.
const MaxImportRows = 10_000

// Table is a spreadsheet as read: the header row and the data rows, each
// with its row number in the file (1-based, the header is row 1 in most
// files), so problems can name the row the seller sees.
type Table struct {
	Header []string
	Rows   [][]string
	Lines  []int

	lines, emptyRun, empties int // records read, empty ones in a row and in all (limits)
}

// Problem is something wrong with one cell or row of an imported file.
type Problem struct {
	Row    int    // row number in the file; 0 for the file as a whole
	Column string // header as written in the file; "" for the whole row
	Text   string
}

// Error is the problem in English. Text is a catalogue key and its
// arguments (i18n.Encode) or, from an old caller, plain words.
func (p Problem) Error() string { return p.In(i18n.EN) }

// In is the problem in language l.
func (p Problem) In(l i18n.Lang) string {
	text := i18n.TextIn(l, p.Text, nil)
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

// ReadTable reads a CSV or XLSX file. XLSX is recognised by its content
// (a ZIP archive), not by its name; anything else is read as CSV. The
// limits in limits.go apply (see ReadTableContext for a deadline).
func ReadTable(data []byte) (*Table, error) {
	return ReadTableContext(context.Background(), data)
}

// bom is the UTF-8 byte order mark Excel writes at the start of CSV files.
var bom = []byte{0xEF, 0xBB, 0xBF}

func readCSV(ctx context.Context, data []byte) (*Table, error) {
	data = bytes.TrimPrefix(data, bom)
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffSeparator(data)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	t := &Table{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, Problem{Row: pe.Line, Text: i18n.Encode(i18n.M("import.err_csv_row", map[string]any{"Error": pe.Err.Error()}))}
			}
			return nil, err
		}
		line, _ := r.FieldPos(0)
		if err := t.add(ctx, rec, line); err != nil {
			return nil, err
		}
	}
	return t.finish()
}

// sniffSeparator picks ';' or ',' by which occurs more often, outside
// quotes, in the first line: Excel in many locales writes ';'.
func sniffSeparator(data []byte) rune {
	semi, comma, tab := 0, 0, 0
	quoted := false
	for _, b := range data {
		if b == '"' {
			quoted = !quoted
		}
		if quoted {
			continue
		}
		if b == '\n' {
			break
		}
		switch b {
		case ';':
			semi++
		case ',':
			comma++
		case '\t':
			tab++
		}
	}
	switch {
	case tab > semi && tab > comma:
		return '\t'
	case semi > comma:
		return ';'
	}
	return ','
}

func readXLSX(ctx context.Context, data []byte) (*Table, error) {
	if err := checkZip(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), xlsxOptions)
	if err != nil {
		return nil, fileErr(i18n.K("import.err_xlsx_open"))
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, fileErr(i18n.K("import.err_no_sheet"))
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, fileErr(i18n.K("import.err_sheet_read"))
	}
	defer rows.Close()
	t := &Table{}
	line := 0
	for rows.Next() {
		line++
		rec, err := rows.Columns()
		if err != nil {
			return nil, Problem{Row: line, Text: i18n.Encode(i18n.M("import.err_row_read", nil))}
		}
		if err := t.add(ctx, rec, line); err != nil {
			return nil, err
		}
	}
	if err := rows.Error(); err != nil {
		return nil, fileErr(i18n.K("import.err_sheet_read"))
	}
	return t.finish()
}

// add appends a record: the first non-empty one is the header; empty rows
// are skipped, up to MaxEmptyRows in a row and MaxEmptyRowsTotal in all. Every 256 lines it looks at
// ctx, so a deadline ends a long parse.
func (t *Table) add(ctx context.Context, rec []string, line int) error {
	t.lines++
	if t.lines%256 == 0 && ctx.Err() != nil {
		return limitf(i18n.K("import.err_too_long"), nil)
	}
	if err := checkRecord(rec, line); err != nil {
		return err
	}
	empty := true
	for i, c := range rec {
		rec[i] = strings.TrimSpace(c)
		if rec[i] != "" {
			empty = false
		}
	}
	if empty {
		if t.emptyRun++; t.emptyRun > MaxEmptyRows {
			return limitf(i18n.K("import.err_empty_run"), map[string]any{"Max": MaxEmptyRows, "Row": line - MaxEmptyRows})
		}
		if t.empties++; t.empties > MaxEmptyRowsTotal {
			return limitf(i18n.K("import.err_empties"), map[string]any{"Max": MaxEmptyRowsTotal, "Row": line})
		}
		return nil
	}
	t.emptyRun = 0
	if t.Header == nil {
		t.Header = rec
		return nil
	}
	if len(t.Rows) >= MaxImportRows {
		return Problem{Text: i18n.Encode(i18n.M("import.err_rows", map[string]any{"Max": MaxImportRows}))}
	}
	t.Rows = append(t.Rows, rec)
	t.Lines = append(t.Lines, line)
	return nil
}

func (t *Table) finish() (*Table, error) {
	if t.Header == nil {
		return nil, fileErr(i18n.K("import.err_empty"))
	}
	return t, nil
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
				probs = append(probs, Problem{Row: 1, Column: h, Text: i18n.Encode(i18n.M("import.err_column_twice", map[string]any{"Column": strconv.Quote(h)}))})
			} else {
				m[c.Field] = i
			}
			break
		}
	}
	for _, c := range cols {
		if c.Required && m[c.Field] < 0 {
			probs = append(probs, Problem{Row: 1, Text: i18n.Encode(i18n.M("import.err_no_column", map[string]any{"Column": strconv.Quote(c.Names[0]),
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
