// Package sheets reads and writes the spreadsheets sellers exchange with
// the dashboard, CSV and XLSX. Reading is bounded (limits.go): an upload
// cannot make the dashboard unpack, parse or keep more than a few
// megabytes, whatever it claims. Writing has one policy for every export:
//
//   - CSV is UTF-8 with one byte order mark, so Excel opens Cyrillic text
//     correctly;
//   - ',' separates fields and every non-empty field is quoted, so a
//     spreadsheet that splits on ';' (Excel in the ru-RU locale) still sees
//     one cell;
//   - lines end in CRLF, as RFC 4180 and the text/csv media type define
//     them; every spreadsheet and encoding/csv read it;
//   - what a cell may hold is decided by its column's Kind: numbers are
//     written as numbers (XLSX cells a seller can sum), text is cleaned,
//     bounded to a spreadsheet's cell and defused, so an untrusted value
//     cannot run as a formula;
//   - XLSX is streamed through excelize's StreamWriter, which keeps a
//     bounded part of the sheet in memory.
package sheets

import (
	"archive/zip"
	"bufio"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Format is a file format a Writer writes.
type Format int

// The formats.
const (
	CSV Format = iota
	XLSX
)

// FormatOf is the format of a file name's extension ("xlsx" or "csv");
// anything but "xlsx" is CSV.
func FormatOf(ext string) Format {
	if strings.EqualFold(strings.TrimPrefix(ext, "."), "xlsx") {
		return XLSX
	}
	return CSV
}

// Ext is the format's file name extension, without the dot.
func (f Format) Ext() string {
	if f == XLSX {
		return "xlsx"
	}
	return "csv"
}

// ContentType is the format's media type, for a download's header.
func (f Format) ContentType() string {
	if f == XLSX {
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "text/csv; charset=utf-8"
}

// Kind is what a column holds; it decides how its cells are written.
type Kind int

// The kinds of column.
const (
	// Text cells are cleaned (control characters dropped, line breaks and
	// tabs made spaces), cut to MaxCellChars and defused.
	Text Kind = iota
	// Number cells holding a plain decimal ("-3", "1299.5") are written as
	// numbers, never defused; any other value is written as Text.
	Number
	// Money is a Number shown with two decimals in XLSX.
	Money
)

// Column is a column of a sheet: its header and what it holds.
type Column struct {
	Name string
	Kind Kind
}

// Columns is a column of kind Text for each name, a shorthand for sheets
// of text whose few number columns are set after.
func Columns(names ...string) []Column {
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n}
	}
	return cols
}

// bom is the UTF-8 byte order mark: written once at the start of a CSV
// file, skipped at the start of one read.
var bom = []byte{0xEF, 0xBB, 0xBF}

// crlf ends every CSV line.
const crlf = "\r\n"

// ErrWidth is a row with more cells than the sheet has columns.
var ErrWidth = errors.New("sheets: a row has more cells than the header")

// Writer writes one sheet, a header then rows, as CSV or XLSX. Rows are
// streamed: a CSV row goes out once 32 KB are buffered; an XLSX sheet is
// kept by excelize within its own memory bound and written at Close. A
// Writer is not safe for concurrent use.
type Writer struct {
	format Format
	cols   []Column
	err    error // the first error, returned by every later call

	bw   *bufio.Writer // CSV
	line []byte        // CSV: the line being built

	out   io.Writer // XLSX
	file  *excelize.File
	sw    *excelize.StreamWriter
	row   int   // XLSX: rows written
	cells []any // XLSX: the row being built
	money int   // XLSX: the style of Money cells
}

// NewCSV starts a CSV sheet on w.
func NewCSV(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.Write(bom) // kept in the buffer: an error shows at the first flush
	return &Writer{format: CSV, bw: bw}
}

// NewWriter starts a sheet of format f on w; sheet names the XLSX sheet
// (cut to what Excel allows; "Sheet1" when empty) and is not used by CSV.
func NewWriter(w io.Writer, f Format, sheet string) (*Writer, error) {
	if f != XLSX {
		return NewCSV(w), nil
	}
	file := excelize.NewFile()
	name := sheetName(sheet)
	if err := file.SetSheetName("Sheet1", name); err != nil {
		file.Close()
		return nil, err
	}
	sw, err := file.NewStreamWriter(name)
	if err != nil {
		file.Close()
		return nil, err
	}
	money, err := file.NewStyle(&excelize.Style{NumFmt: 2}) // built-in "0.00"
	if err != nil {
		file.Close()
		return nil, err
	}
	return &Writer{format: XLSX, out: w, file: file, sw: sw, money: money}, nil
}

// Header writes the header row and fixes the sheet's columns: every later
// row has at most len(cols) cells.
func (w *Writer) Header(cols []Column) error {
	w.cols = cols
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return w.write(names, true)
}

// Row writes one row; cells past the end are empty, and a row wider than
// the header is refused (ErrWidth).
func (w *Writer) Row(cells ...string) error {
	if len(cells) > len(w.cols) {
		return ErrWidth
	}
	return w.write(cells, false)
}

func (w *Writer) write(cells []string, header bool) error {
	if w.err != nil {
		return w.err
	}
	if w.format == XLSX {
		w.err = w.xlsxRow(cells, header)
		return w.err
	}
	w.line = w.line[:0]
	for i := range w.cols {
		if i > 0 {
			w.line = append(w.line, ',')
		}
		if i >= len(cells) {
			continue
		}
		v := cells[i]
		if header || !w.isNumber(i, v) {
			v = CellText(v)
		}
		if v == "" {
			continue
		}
		w.line = append(w.line, '"')
		w.line = append(w.line, strings.ReplaceAll(v, `"`, `""`)...)
		w.line = append(w.line, '"')
	}
	w.line = append(w.line, crlf...)
	_, w.err = w.bw.Write(w.line)
	return w.err
}

// isNumber reports whether v is written as a number: a plain decimal in a
// Number or Money column.
func (w *Writer) isNumber(i int, v string) bool {
	return w.cols[i].Kind != Text && IsDecimal(v)
}

func (w *Writer) xlsxRow(cells []string, header bool) error {
	w.cells = w.cells[:0]
	for i := range w.cols {
		v := ""
		if i < len(cells) {
			v = cells[i]
		}
		switch {
		case v == "":
			w.cells = append(w.cells, nil)
		case !header && w.isNumber(i, v):
			n, _ := strconv.ParseFloat(v, 64)
			if w.cols[i].Kind == Money {
				w.cells = append(w.cells, excelize.Cell{StyleID: w.money, Value: n})
			} else {
				w.cells = append(w.cells, n)
			}
		default:
			w.cells = append(w.cells, CellText(v))
		}
	}
	w.row++
	cell, err := excelize.CoordinatesToCellName(1, w.row)
	if err != nil {
		return err
	}
	return w.sw.SetRow(cell, w.cells)
}

// Flush sends what a CSV has buffered to the underlying writer. An XLSX
// is only complete at Close, so Flush does nothing for it.
func (w *Writer) Flush() error {
	if w.err != nil || w.format == XLSX {
		return w.err
	}
	w.err = w.bw.Flush()
	return w.err
}

// Close ends the sheet: a CSV is flushed, an XLSX workbook written whole.
// It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.format != XLSX {
		return w.Flush()
	}
	defer w.file.Close()
	if w.err != nil {
		return w.err
	}
	if w.err = w.sw.Flush(); w.err != nil {
		return w.err
	}
	// The archive goes to the output as it is zipped: excelize's own
	// WriteTo would build the whole file in memory first.
	w.file.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(w.out) })
	_, w.err = w.file.WriteToBuffer()
	return w.err
}

// Sheet is a whole sheet held in memory, for exports of a page or a job's
// rows; larger ones are streamed through a Writer.
type Sheet struct {
	Name    string
	Columns []Column
	Rows    [][]string
}

// Write writes a whole sheet as format f.
func Write(out io.Writer, f Format, s Sheet) error {
	w, err := NewWriter(out, f, s.Name)
	if err != nil {
		return err
	}
	if err := w.Header(s.Columns); err != nil {
		w.Close()
		return err
	}
	for _, r := range s.Rows {
		if err := w.Row(r...); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

// sheetName is name as Excel accepts a sheet's name: without the
// characters it refuses, at most 31 characters, not empty.
func sheetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '-'
		}
		return r
	}, CellText(name))
	name = strings.Trim(name, "' ")
	if r := []rune(name); len(r) > 31 {
		name = string(r[:31])
	}
	if name == "" {
		return "Sheet1"
	}
	return name
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName builds a download name from its parts ("prices", "page-2",
// "limit-100") and an extension, safe for a Content-Disposition header.
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

// DatedFileName is FileName with the day of day last ("prices_…_2026-11-27.csv"):
// every download says when it was taken. day is in the zone the name
// speaks (the dashboard's).
func DatedFileName(ext string, day time.Time, parts ...string) string {
	return FileName(ext, append(parts, Day(day))...)
}

// Day is a date as download names write it: 2026-11-27.
func Day(t time.Time) string { return t.Format(time.DateOnly) }

// DayRange is a range of days (2006-01-02, either may be empty: open) as
// download names write it: "2026-10-01--2026-11-27", "from-2026-10-01",
// "until-2026-11-27", or "" when both are open.
func DayRange(from, to string) string {
	switch {
	case from != "" && to != "":
		return from + "--" + to
	case from != "":
		return "from-" + from
	case to != "":
		return "until-" + to
	}
	return ""
}
