package sheets

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Table is a spreadsheet as read: the header row and the data rows, each
// with its row number in the file (1-based; the header is row 1 in most
// files), so problems can name the row the seller sees. Cells are trimmed.
type Table struct {
	Header []string
	Rows   [][]string
	Lines  []int

	maxRows                  int
	lines, emptyRun, empties int // records read, empty ones in a row and in all (limits)
}

// Read reads a CSV or XLSX file of at most maxRows data rows (0: no bound
// but the others). XLSX is recognised by its content (a ZIP archive), not
// by its name; anything else is read as CSV, its separator (',', ';' or a
// tab) guessed from the first line. The limits in limits.go apply, and
// parsing stops when ctx ends, so a file slow to read despite them cannot
// hold a request or a core for long. A refusal is a *LimitError or a
// *ReadError.
func Read(ctx context.Context, data []byte, maxRows int) (*Table, error) {
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return readXLSX(ctx, data, maxRows)
	}
	if !utf8.Valid(data) {
		return nil, &ReadError{Reason: ReasonNotUTF8}
	}
	return readCSV(ctx, data, maxRows)
}

func readCSV(ctx context.Context, data []byte, maxRows int) (*Table, error) {
	data = bytes.TrimPrefix(data, bom)
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffSeparator(data)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	t := &Table{maxRows: maxRows}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &ReadError{Reason: ReasonCSVRow, Row: pe.Line, Detail: pe.Err.Error()}
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

// sniffSeparator picks ';', ',' or a tab by which occurs most often,
// outside quotes, in the first line: Excel in many locales writes ';'.
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

func readXLSX(ctx context.Context, data []byte, maxRows int) (*Table, error) {
	if err := checkZip(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), xlsxOptions)
	if err != nil {
		return nil, &ReadError{Reason: ReasonXLSXOpen}
	}
	defer f.Close()
	list := f.GetSheetList()
	if len(list) == 0 {
		return nil, &ReadError{Reason: ReasonNoSheet}
	}
	rows, err := f.Rows(list[0])
	if err != nil {
		return nil, &ReadError{Reason: ReasonSheetRead}
	}
	defer rows.Close()
	t := &Table{maxRows: maxRows}
	line := 0
	for rows.Next() {
		line++
		rec, err := rows.Columns()
		if err != nil {
			return nil, &ReadError{Reason: ReasonRowRead, Row: line}
		}
		if err := t.add(ctx, rec, line); err != nil {
			return nil, err
		}
	}
	if err := rows.Error(); err != nil {
		return nil, &ReadError{Reason: ReasonSheetRead}
	}
	return t.finish()
}

// add appends a record: the first non-empty one is the header; empty rows
// are skipped, up to MaxEmptyRows in a row and MaxEmptyRowsTotal in all.
// Every 256 lines it looks at ctx, so a deadline ends a long parse.
func (t *Table) add(ctx context.Context, rec []string, line int) error {
	t.lines++
	if t.lines%256 == 0 && ctx.Err() != nil {
		return &LimitError{Limit: LimitDeadline}
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
			return &LimitError{Limit: LimitEmptyRun, Max: MaxEmptyRows, Row: line - MaxEmptyRows}
		}
		if t.empties++; t.empties > MaxEmptyRowsTotal {
			return &LimitError{Limit: LimitEmptyRows, Max: MaxEmptyRowsTotal, Row: line}
		}
		return nil
	}
	t.emptyRun = 0
	if t.Header == nil {
		t.Header = rec
		return nil
	}
	if t.maxRows > 0 && len(t.Rows) >= t.maxRows {
		return &LimitError{Limit: LimitRows, Max: t.maxRows}
	}
	t.Rows = append(t.Rows, rec)
	t.Lines = append(t.Lines, line)
	return nil
}

func (t *Table) finish() (*Table, error) {
	if t.Header == nil {
		return nil, &ReadError{Reason: ReasonEmpty}
	}
	return t, nil
}
