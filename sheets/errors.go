package sheets

import (
	"fmt"
	"strconv"
)

// Limit names one of the bounds Read holds a file to (see limits.go).
type Limit int

// The limits a file can go past. Each LimitError says which, with the
// limit's value in Max and, where it applies, the row or the cell.
const (
	LimitUnpacked    Limit = iota + 1 // the XLSX unpacks to more than Max bytes
	LimitZipEntries                   // the XLSX holds more than Max parts
	LimitRatio                        // a part is packed more than Max times
	LimitPartLies                     // a part unpacks to more than it declares
	LimitCellChars                    // a cell (Cell, when known) is longer than Max characters
	LimitTagBytes                     // an XML element is longer than Max bytes
	LimitWholePart                    // more than Max elements outside the worksheets
	LimitRowElements                  // a worksheet row holds more than Max elements
	LimitColumns                      // row Row has more than Max columns
	LimitEmptyRun                     // more than Max empty rows in a row, from row Row
	LimitEmptyRows                    // more than Max empty rows in all, the last at row Row
	LimitRows                         // more than Max data rows
	LimitDeadline                     // the context ended before the file was read
)

var limitNames = map[Limit]string{
	LimitUnpacked: "unpacked size", LimitZipEntries: "parts", LimitRatio: "compression ratio", LimitPartLies: "part larger than declared",
	LimitCellChars: "cell characters", LimitTagBytes: "element bytes", LimitWholePart: "elements outside the sheets",
	LimitRowElements: "elements in a row", LimitColumns: "columns", LimitEmptyRun: "empty rows in a row", LimitEmptyRows: "empty rows",
	LimitRows: "rows", LimitDeadline: "deadline",
}

// String is the limit's name, for logs.
func (l Limit) String() string {
	if n, ok := limitNames[l]; ok {
		return n
	}
	return "limit " + strconv.Itoa(int(l))
}

// LimitError is a file refused for going past a limit, before the work the
// limit guards was done. It carries data, not words: the caller says it in
// the reader's language.
type LimitError struct {
	Limit Limit
	Max   int    // the limit's value (bytes, characters, elements, rows, …)
	Row   int    // the row concerned, 0 when the limit is not one of a row
	Cell  string // the cell concerned ("B2"), "" when not known
}

func (e *LimitError) Error() string {
	s := fmt.Sprintf("sheets: over the limit of %s (%d)", e.Limit, e.Max)
	if e.Cell != "" {
		s += " at cell " + e.Cell
	} else if e.Row > 0 {
		s += " at row " + strconv.Itoa(e.Row)
	}
	return s
}

// Reason names why a file could not be read, other than a limit.
type Reason int

// The reasons a file cannot be read.
const (
	ReasonNotUTF8     Reason = iota + 1 // not XLSX, and not UTF-8 text
	ReasonXLSXOpen                      // the XLSX cannot be opened
	ReasonXLSXDamaged                   // a part of the XLSX cannot be unpacked
	ReasonNoSheet                       // the XLSX has no sheet
	ReasonSheetRead                     // its first sheet cannot be read
	ReasonRowRead                       // row Row of the XLSX cannot be read
	ReasonCSVRow                        // row Row is not CSV (Detail says why)
	ReasonEmpty                         // the file has no header row
)

var reasonNames = map[Reason]string{
	ReasonNotUTF8: "not UTF-8 text", ReasonXLSXOpen: "XLSX cannot be opened", ReasonXLSXDamaged: "XLSX damaged",
	ReasonNoSheet: "XLSX has no sheet", ReasonSheetRead: "first sheet unreadable", ReasonRowRead: "row unreadable",
	ReasonCSVRow: "row is not CSV", ReasonEmpty: "empty",
}

// String is the reason's name, for logs.
func (r Reason) String() string {
	if n, ok := reasonNames[r]; ok {
		return n
	}
	return "reason " + strconv.Itoa(int(r))
}

// ReadError is a file that cannot be read for a Reason.
type ReadError struct {
	Reason Reason
	Row    int    // the row concerned, 0 for the file as a whole
	Detail string // the parser's words, for ReasonCSVRow
}

func (e *ReadError) Error() string {
	s := "sheets: " + e.Reason.String()
	if e.Row > 0 {
		s += " at row " + strconv.Itoa(e.Row)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
