package sheets

import (
	"archive/zip"
	"bytes"
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
// it guards is done, and says which it is (LimitError).
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
	// MaxEmptyRowsTotal bounds empty rows in all, so that short runs of
	// blank rows between data rows cannot make a sheet of millions either.
	MaxEmptyRowsTotal = 10_000
	// MaxCompressionRatio bounds how many times a part of an XLSX may
	// unpack its packed size, once it unpacks to more than
	// ratioFloorBytes. Spreadsheet XML packs 5 to 50 times; a run of zeros
	// packs a thousand times.
	MaxCompressionRatio = 200
	// MaxTextBytes bounds a run of text between two XML tags (a cell's
	// text or a shared string as stored): MaxCellChars characters of up to
	// four bytes each, with room for entities. A longer one is a cell over
	// the limit, refused before excelize copies it.
	MaxTextBytes = 16 << 10
	// MaxTagBytes bounds one XML tag with its attributes.
	MaxTagBytes = 64 << 10
	// MaxWholePartElements bounds the XML elements of the parts excelize
	// reads whole into memory (shared strings, styles, calculation chain,
	// workbook, theme: everything but worksheets, which are streamed).
	// Each costs excelize about 700 bytes; a 10,000-row sheet with two
	// text columns has about 40,000 elements in its shared strings.
	MaxWholePartElements = 50_000
	// MaxRowElements bounds the XML elements of one worksheet row: Excel's
	// 16,384 columns of a cell with a value and an inline string each.
	MaxRowElements = 4 * 16_384
)

// ratioFloorBytes is the unpacked size below which the compression ratio
// of a part is not looked at (a small part cannot be a bomb).
const ratioFloorBytes = 1 << 20

// checkZip looks inside an XLSX before excelize does: the number of
// entries, their declared sizes, and then their real sizes, read through a
// counting limit (a declared size can lie; the bytes cannot).
func checkZip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return &ReadError{Reason: ReasonXLSXOpen}
	}
	if len(zr.File) > MaxZipEntries {
		return &LimitError{Limit: LimitZipEntries, Max: MaxZipEntries}
	}
	var declared uint64
	for _, f := range zr.File {
		declared += f.UncompressedSize64
		if declared > MaxUnpackedBytes {
			return errUnpacked
		}
	}
	for _, f := range zr.File {
		if tooPacked(f.UncompressedSize64, f.CompressedSize64) {
			return errTooPacked
		}
	}
	left := int64(MaxUnpackedBytes)
	budget := &xmlBudget{wholeElements: MaxWholePartElements}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return &ReadError{Reason: ReasonXLSXOpen}
		}
		scan := &xmlScan{budget: budget}
		n, err := io.Copy(scan, io.LimitReader(rc, left+1))
		rc.Close()
		left -= n
		var le *LimitError
		switch {
		case errors.As(err, &le):
			return err
		case left < 0:
			return errUnpacked
		case errors.Is(err, zip.ErrFormat):
			// archive/zip stops a part that unpacks past the size it
			// declares (or fails its checksum): a lying header.
			return &LimitError{Limit: LimitPartLies}
		case err != nil:
			return &ReadError{Reason: ReasonXLSXDamaged}
		case tooPacked(uint64(n), f.CompressedSize64):
			return errTooPacked
		}
	}
	return nil
}

// tooPacked reports whether a part unpacks to more than
// MaxCompressionRatio times its packed size (past ratioFloorBytes).
func tooPacked(unpacked, packed uint64) bool {
	return unpacked > ratioFloorBytes && unpacked/MaxCompressionRatio > packed
}

var (
	errTooPacked = &LimitError{Limit: LimitRatio, Max: MaxCompressionRatio}
	errUnpacked  = &LimitError{Limit: LimitUnpacked, Max: MaxUnpackedBytes}
)

// xmlBudget is what the parts of one file share of the limits.
type xmlBudget struct {
	wholeElements int // elements left for the parts excelize reads whole
}

// xmlScan looks at the bytes of one part as they are unpacked, without
// parsing or keeping them, and stops at the first limit they pass: a
// text or a tag too long, too many elements in a part excelize reads
// whole, or in one row of a worksheet. Which is which it tells by the
// root element, not by the part's name (excelize finds parts through
// the workbook's relationships, so a name proves nothing, while a part
// is only ever read as what its root element says). A part that is not
// XML (an image) is left alone: excelize does not parse it.
type xmlScan struct {
	budget *xmlBudget

	started, notXML bool // first byte seen; not XML, skip
	inTag           bool
	tagLen, textLen int
	name            []byte // name of the tag being read, until its end
	naming          bool
	root            string // local name of the root element; "" until read
	rowElements     int    // in a worksheet: elements since <row>
	head            []byte // the first bytes of the tag being read
	cell            string // in a worksheet: the reference of the last <c>
}

func (s *xmlScan) Write(p []byte) (int, error) {
	if !s.started && len(p) > 0 {
		s.started = true
		b := bytes.TrimLeft(bytes.TrimPrefix(p, bom), " \t\r\n")
		s.notXML = len(b) > 0 && b[0] != '<'
	}
	if s.notXML {
		return len(p), nil
	}
	for _, c := range p {
		if !s.inTag {
			if c == '<' {
				s.inTag, s.tagLen, s.textLen, s.naming, s.name, s.head = true, 0, 0, true, s.name[:0], s.head[:0]
				continue
			}
			if s.textLen++; s.textLen > MaxTextBytes {
				if s.root == "worksheet" && s.cell != "" {
					return 0, &LimitError{Limit: LimitCellChars, Max: MaxCellChars, Cell: s.cell}
				}
				return 0, &LimitError{Limit: LimitCellChars, Max: MaxCellChars}
			}
			continue
		}
		if s.tagLen++; s.tagLen > MaxTagBytes {
			return 0, &LimitError{Limit: LimitTagBytes, Max: MaxTagBytes}
		}
		if s.naming {
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' && len(s.name) > 0 || c == '>' {
				s.naming = false
				if err := s.element(); err != nil {
					return 0, err
				}
			} else if len(s.name) < 32 {
				s.name = append(s.name, c)
			}
		}
		if len(s.head) < 64 {
			s.head = append(s.head, c)
		}
		if c == '>' {
			s.inTag = false
			if s.root == "worksheet" {
				s.noteCell()
			}
		}
	}
	return len(p), nil
}

// noteCell keeps the reference of a worksheet's <c r="C7"> tag that has
// just ended, so that a text too long can name its cell.
func (s *xmlScan) noteCell() {
	h := s.head
	if i := bytes.IndexAny(h, " \t\r\n/>"); i < 0 || !bytes.Equal(h[:i], []byte("c")) && !bytes.HasSuffix(h[:i], []byte(":c")) {
		return
	}
	s.cell = ""
	if _, after, ok := bytes.Cut(h, []byte(` r="`)); ok {
		if ref, _, ok := bytes.Cut(after, []byte(`"`)); ok && len(ref) <= 10 {
			s.cell = string(ref)
		}
	}
}

// element counts a tag whose name has just been read.
func (s *xmlScan) element() error {
	if len(s.name) == 0 || s.name[0] == '/' || s.name[0] == '?' || s.name[0] == '!' {
		return nil // an end tag, a declaration, a comment
	}
	local := s.name
	if i := bytes.LastIndexByte(local, ':'); i >= 0 {
		local = local[i+1:]
	}
	if s.root == "" {
		s.root = string(local)
	}
	if s.root != "worksheet" {
		if s.budget.wholeElements--; s.budget.wholeElements < 0 {
			return &LimitError{Limit: LimitWholePart, Max: MaxWholePartElements}
		}
		return nil
	}
	if string(local) == "row" {
		s.rowElements = 0
	}
	if s.rowElements++; s.rowElements > MaxRowElements {
		return &LimitError{Limit: LimitRowElements, Max: MaxRowElements}
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
		return &LimitError{Limit: LimitColumns, Max: MaxColumns, Row: line}
	}
	for i, c := range rec {
		if len(c) > MaxCellChars && utf8.RuneCountInString(c) > MaxCellChars {
			return &LimitError{Limit: LimitCellChars, Max: MaxCellChars, Row: line, Cell: cellName(i, line)}
		}
	}
	return nil
}
