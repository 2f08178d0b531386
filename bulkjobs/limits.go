package bulkjobs

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Limits on what an imported file may make the dashboard read. An upload
// is at most a few megabytes, but a ZIP (an XLSX is one) can unpack to
// gigabytes and a spreadsheet can hold millions of empty rows or a cell of
// a hundred megabytes: each limit is hit by size or count, before the work
// it guards is done, and names itself to the seller.
const (
	// MaxUnpackedBytes bounds what an XLSX unpacks to, all entries
	// together. A 10,000-row price sheet unpacks to about 2 MB.
	MaxUnpackedBytes = 32 << 20
	// MaxZipEntries bounds the files inside an XLSX (a plain workbook has
	// about a dozen).
	MaxZipEntries = 200
	// MaxCellChars bounds one cell, in characters. A SKU, price or date
	// is a few dozen; nothing an import reads needs more.
	MaxCellChars = 1024
	// MaxColumns bounds the columns of a row.
	MaxColumns = 100
	// MaxEmptyRows bounds empty rows in a row: a sheet of a million blank
	// rows is refused at the thousand-and-first, not read to its end.
	MaxEmptyRows = 1000
)

// LimitError is a file refused for going past one of the limits above.
// Its text is meant for the seller.
type LimitError struct {
	Text string
}

func (e *LimitError) Error() string { return e.Text }

func limitf(format string, args ...any) error { return &LimitError{Text: fmt.Sprintf(format, args...)} }

// ReadTableContext is ReadTable with a deadline: parsing stops when ctx
// ends, so a file that is slow to read despite the size limits cannot hold
// a request or a core for long.
func ReadTableContext(ctx context.Context, data []byte) (*Table, error) {
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return readXLSX(ctx, data)
	}
	if !utf8.Valid(data) {
		return nil, errors.New("the file is not UTF-8 text: save it as \"CSV UTF-8\" or as XLSX")
	}
	return readCSV(ctx, data)
}

// checkZip looks inside an XLSX before excelize does: the number of
// entries, their declared sizes, and then their real sizes, read through a
// counting limit (a declared size can lie; the bytes cannot).
func checkZip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return errors.New("the XLSX file cannot be opened; save it again from your spreadsheet program")
	}
	if len(zr.File) > MaxZipEntries {
		return limitf("the XLSX file holds more than %d parts; save it again from your spreadsheet program", MaxZipEntries)
	}
	var declared uint64
	for _, f := range zr.File {
		declared += f.UncompressedSize64
		if declared > MaxUnpackedBytes {
			return limitf("the XLSX file unpacks to more than %d MB; split it into smaller files", MaxUnpackedBytes>>20)
		}
	}
	left := int64(MaxUnpackedBytes)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return errors.New("the XLSX file cannot be opened; save it again from your spreadsheet program")
		}
		n, err := io.Copy(io.Discard, io.LimitReader(rc, left+1))
		rc.Close()
		left -= n
		switch {
		case left < 0:
			return limitf("the XLSX file unpacks to more than %d MB; split it into smaller files", MaxUnpackedBytes>>20)
		case errors.Is(err, zip.ErrFormat):
			// archive/zip stops a part that unpacks past the size it
			// declares (or fails its checksum): a lying header.
			return limitf("a part of the XLSX file unpacks to more than it declares; save it again from your spreadsheet program")
		case err != nil:
			return errors.New("the XLSX file is damaged; save it again from your spreadsheet program")
		}
	}
	return nil
}

// xlsxOptions keep excelize within the same bounds: everything it unpacks
// stays in memory (no temporary files), and no more than checkZip allowed.
var xlsxOptions = excelize.Options{UnzipSizeLimit: MaxUnpackedBytes, UnzipXMLSizeLimit: MaxUnpackedBytes}

// cellName names a cell as spreadsheets do ("C7").
func cellName(col, row int) string {
	name, err := excelize.CoordinatesToCellName(col+1, row)
	if err != nil {
		return fmt.Sprintf("row %d, column %d", row, col+1)
	}
	return name
}

// checkRecord applies the per-row limits to a record read from line.
func checkRecord(rec []string, line int) error {
	if len(rec) > MaxColumns {
		return limitf("row %d has more than %d columns", line, MaxColumns)
	}
	for i, c := range rec {
		if len(c) > MaxCellChars && utf8.RuneCountInString(c) > MaxCellChars {
			return limitf("cell %s is longer than %d characters", cellName(i, line), MaxCellChars)
		}
	}
	return nil
}
