package bulkjobs

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"regexp"
	"strings"

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
// opens Cyrillic text correctly) and ',' separators. Cells that a
// spreadsheet would run as a formula are defused.
func WriteCSV(w io.Writer, s Sheet) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(bom); err != nil {
		return err
	}
	cw := csv.NewWriter(bw)
	if err := cw.Write(s.Header); err != nil {
		return err
	}
	rec := make([]string, len(s.Header))
	for _, row := range s.Rows {
		for i := range rec {
			rec[i] = ""
			if i < len(row) {
				rec[i] = row[i]
				if !s.Numeric[i] {
					rec[i] = DefuseFormula(row[i])
				}
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// DefuseFormula keeps marketplace text from running as a spreadsheet
// formula ("CSV injection"): a cell starting with = + - @ or a control
// character gets a leading apostrophe.
func DefuseFormula(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\n':
		return "'" + s
	}
	return s
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
			cells[i] = v
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
