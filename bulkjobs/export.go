package bulkjobs

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Sheet is a table to export: a header and rows of cells. Numeric marks
// the columns that hold numbers (written as numbers in XLSX, so a seller
// can sum them; plain decimals in CSV).
type Sheet struct {
	Name    string
	Header  []string
	Rows    [][]string
	Numeric map[int]bool
}

// WriteCSV writes the sheet as UTF-8 CSV with a byte order mark (so Excel
// opens Cyrillic text correctly) and ',' separators. Every non-empty field
// is quoted, so a spreadsheet that splits on ';' (Excel in the ru-RU
// locale, this product's market) still sees one cell; text is cleaned,
// bounded and defused (see ExportText).
func WriteCSV(w io.Writer, s Sheet) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(bom); err != nil {
		return err
	}
	writeCSVRecord(bw, s.Header, len(s.Header), nil)
	for _, row := range s.Rows {
		writeCSVRecord(bw, row, len(s.Header), s.Numeric)
	}
	return bw.Flush()
}

// writeCSVRecord writes one line of width fields (missing ones empty),
// every non-empty field quoted; fields of numeric columns are written as
// they are, the rest through ExportText.
func writeCSVRecord(bw *bufio.Writer, fields []string, width int, numeric map[int]bool) {
	for i := range width {
		if i > 0 {
			bw.WriteByte(',')
		}
		if i >= len(fields) {
			continue
		}
		f := fields[i]
		if !numeric[i] {
			f = ExportText(f)
		}
		if f == "" {
			continue
		}
		bw.WriteByte('"')
		bw.WriteString(strings.ReplaceAll(f, `"`, `""`))
		bw.WriteByte('"')
	}
	bw.WriteByte('\n')
}

// MaxExportChars bounds one exported cell: Excel's own limit for a cell,
// so a value no page shows whole still fits a spreadsheet, and a hostile
// 100 MB value does not make a 100 MB export.
const MaxExportChars = 32767

// ExportText makes text safe to put in a spreadsheet cell: control and
// bidi-control characters are dropped (tabs and line breaks become
// spaces), the value is cut to MaxExportChars, and it is defused.
func ExportText(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			return ' '
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > MaxExportChars {
		n := 0
		for i := range s {
			if n == MaxExportChars-40 {
				s = s[:i] + fmt.Sprintf("… [truncated, %d characters]", utf8.RuneCountInString(s))
				break
			}
			n++
		}
	}
	return DefuseFormula(s)
}

// DefuseFormula keeps text from running as a spreadsheet formula ("CSV
// injection"): a leading = + - @ gets an apostrophe before it, and so does
// one after a ';' or ',' (a spreadsheet that splits the cell there would
// start a new cell with it).
func DefuseFormula(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	start := true // at the start of the value or of a piece after a separator
	for _, r := range s {
		if start && r != ' ' {
			if r == '=' || r == '+' || r == '-' || r == '@' {
				if b.Len() == 0 {
					b.Grow(len(s) + 4)
				}
				b.WriteByte('\'')
			}
			start = false
		}
		if r == ';' || r == ',' {
			start = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

// WriteXLSX writes the sheet as an XLSX workbook with one sheet, streamed
// row by row. Text cells are written as strings (never as formulas).
func WriteXLSX(w io.Writer, s Sheet) error {
	f := excelize.NewFile()
	defer f.Close()
	name := s.Name
	if name == "" {
		name = "Sheet1"
	}
	if err := f.SetSheetName("Sheet1", name); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	head := make([]any, len(s.Header))
	for i, h := range s.Header {
		head[i] = h
	}
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	for r, row := range s.Rows {
		cells := make([]any, len(s.Header))
		for i := range cells {
			v := ""
			if i < len(row) {
				v = row[i]
			}
			cells[i] = ExportText(v)
			if s.Numeric[i] && v != "" {
				var num float64
				if _, err := fmt.Sscan(v, &num); err == nil {
					cells[i] = num
				}
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, r+2)
		if err := sw.SetRow(cell, cells); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(w)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName builds a download name from its parts ("prices", "page-2",
// "limit-100"), safe for a Content-Disposition header.
func FileName(ext string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		p = strings.Trim(unsafeName.ReplaceAllString(p, "-"), "-")
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "_") + "." + ext
}
