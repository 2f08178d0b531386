package sheets

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// zeros64MB is a deflate stream of 64 MB of zeros (about 64 KB packed),
// made once: the body of the bombs below.
var zeros64MB = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	chunk := make([]byte, 1<<20)
	for range 64 {
		w.Write(chunk)
	}
	w.Close()
	return buf.Bytes()
})

// zipWith builds an XLSX-looking ZIP: a minimal workbook plus extra, an
// entry whose packed bytes are deflated and whose header declares size.
func zipWith(t *testing.T, declared uint64, deflated []byte, extraEntries int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range extraEntries {
		w, _ := zw.Create(fmt.Sprintf("xl/media/part%d.xml", i))
		w.Write([]byte("<x/>"))
	}
	if deflated != nil {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
			CompressedSize64: uint64(len(deflated)), UncompressedSize64: declared, CRC32: crc32.ChecksumIEEE(nil)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(deflated)
	}
	zw.Close()
	return buf.Bytes()
}

// withSheetXML replaces the rows of the first sheet of an XLSX.
func withSheetXML(t *testing.T, xlsx []byte, rows string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		w, _ := zw.Create(f.Name)
		if f.Name == "xl/worksheets/sheet1.xml" {
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>%s</sheetData></worksheet>`, rows)
			continue
		}
		rc, _ := f.Open()
		b := new(bytes.Buffer)
		b.ReadFrom(rc)
		rc.Close()
		w.Write(b.Bytes())
	}
	zw.Close()
	return buf.Bytes()
}

// withParts rewrites an XLSX with some parts replaced or added, every part
// stored unpacked: the bombs built with it are caught by what their XML
// holds, not by how well they pack.
func withParts(t *testing.T, xlsx []byte, parts map[string]string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	store := func(name string, b []byte) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	done := map[string]bool{}
	for _, f := range zr.File {
		if p, ok := parts[f.Name]; ok {
			store(f.Name, []byte(p))
			done[f.Name] = true
			continue
		}
		rc, _ := f.Open()
		b := new(bytes.Buffer)
		b.ReadFrom(rc)
		rc.Close()
		store(f.Name, b.Bytes())
	}
	for name, p := range parts {
		if !done[name] {
			store(name, []byte(p))
		}
	}
	zw.Close()
	return buf.Bytes()
}

// worksheetXML and partXML wrap XML in a worksheet and in another root.
func worksheetXML(rows string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows + `</sheetData></worksheet>`
}

func partXML(root, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><` + root + ` xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + body + `</` + root + `>`
}

const headerRow = `<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>price</t></is></c></row>`

// sheet builds a real XLSX with excelize.
func sheet(t *testing.T, cells map[string]string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for ref, v := range cells {
		if err := f.SetCellValue("Sheet1", ref, v); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadBombs: every bomb is refused by size or count with a message
// that names the limit, allocating far less than it would unpack to (the
// issue's bound: at most 64 MB more memory) and well before the deadline
// given to the parse (the deadline is a backstop; no bomb reaches it).
func TestReadBombs(t *testing.T) {
	tests := []struct {
		name string
		file func(t *testing.T) []byte
		want LimitError
	}{
		{"one 64 MB entry, declared honestly", func(t *testing.T) []byte { return zipWith(t, 64<<20, zeros64MB(), 0) }, LimitError{Limit: LimitUnpacked, Max: MaxUnpackedBytes}},
		{"one 64 MB entry declared as 1 KB", func(t *testing.T) []byte { return zipWith(t, 1024, zeros64MB(), 0) }, LimitError{Limit: LimitPartLies}},
		{"too many entries", func(t *testing.T) []byte { return zipWith(t, 0, nil, MaxZipEntries+1) }, LimitError{Limit: LimitZipEntries, Max: MaxZipEntries}},
		{"a 2,000-character cell", func(t *testing.T) []byte {
			return sheet(t, map[string]string{"A1": "sku", "B1": "price", "A2": "x", "B2": strings.Repeat("9", 2000)})
		}, LimitError{Limit: LimitCellChars, Max: MaxCellChars, Row: 2, Cell: "B2"}},
		{"a million empty rows", func(t *testing.T) []byte {
			var rows strings.Builder
			rows.WriteString(`<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>price</t></is></c></row>`)
			for r := 2; r <= 1_000_000; r++ {
				fmt.Fprintf(&rows, `<row r="%d"/>`, r)
			}
			return withSheetXML(t, sheet(t, map[string]string{"A1": "x"}), rows.String())
		}, LimitError{Limit: LimitEmptyRun, Max: MaxEmptyRows, Row: 2}},
		{"one 20 MB entry of zeros (within the total, packed 1,000 times)", func(t *testing.T) []byte {
			var packed bytes.Buffer
			w, _ := flate.NewWriter(&packed, flate.BestSpeed)
			w.Write(make([]byte, 20<<20))
			w.Close()
			return zipWith(t, 20<<20, packed.Bytes(), 0)
		}, LimitError{Limit: LimitRatio, Max: MaxCompressionRatio}},
		{"shared strings: 2 million tiny texts in 6 MB (unpacked)", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "sku", "B1": "price", "A2": "x", "B2": "1"})
			return withParts(t, base, map[string]string{"xl/sharedStrings.xml": partXML("sst", strings.Repeat("<si><t/></si>", 2_000_000/4))})
		}, LimitError{Limit: LimitWholePart, Max: MaxWholePartElements}},
		{"calculation chain of 500,000 cells", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "sku", "B1": "price", "A2": "x", "B2": "1"})
			return withParts(t, base, map[string]string{"xl/calcChain.xml": partXML("calcChain", strings.Repeat(`<c r="A1"/>`, 500_000))})
		}, LimitError{Limit: LimitWholePart, Max: MaxWholePartElements}},
		{"styles named like a worksheet", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "sku", "B1": "price", "A2": "x", "B2": "1"})
			return withParts(t, base, map[string]string{"xl/worksheets/sheet9.xml": partXML("styleSheet", "<cellXfs>"+strings.Repeat(`<xf/>`, 200_000)+"</cellXfs>")})
		}, LimitError{Limit: LimitWholePart, Max: MaxWholePartElements}},
		{"one 5 MB inline cell", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "x"})
			return withParts(t, base, map[string]string{"xl/worksheets/sheet1.xml": worksheetXML(headerRow +
				`<row r="2"><c r="A2" t="inlineStr"><is><t>` + strings.Repeat("x", 5<<20) + `</t></is></c></row>`)})
		}, LimitError{Limit: LimitCellChars, Max: MaxCellChars, Cell: "A2"}},
		{"one 5 MB shared string", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "sku", "B1": "price", "A2": "x", "B2": "1"})
			return withParts(t, base, map[string]string{"xl/sharedStrings.xml": partXML("sst", "<si><t>"+strings.Repeat("x", 5<<20)+"</t></si>")})
		}, LimitError{Limit: LimitCellChars, Max: MaxCellChars}},
		{"one 5 MB attribute", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "x"})
			return withParts(t, base, map[string]string{"xl/worksheets/sheet1.xml": worksheetXML(headerRow +
				`<row r="2"><c r="A2" t="` + strings.Repeat("x", 5<<20) + `"><v>1</v></c></row>`)})
		}, LimitError{Limit: LimitTagBytes, Max: MaxTagBytes}},
		{"one row of a million rich-text runs", func(t *testing.T) []byte {
			base := sheet(t, map[string]string{"A1": "x"})
			return withParts(t, base, map[string]string{"xl/worksheets/sheet1.xml": worksheetXML(headerRow +
				`<row r="2"><c r="A2" t="inlineStr"><is>` + strings.Repeat("<r><t>x</t></r>", 1_000_000) + `</is></c></row>`)})
		}, LimitError{Limit: LimitRowElements, Max: MaxRowElements}},
		{"empty rows between data rows, 999 at a time", func(t *testing.T) []byte {
			var rows strings.Builder
			rows.WriteString(headerRow)
			r := 2
			for range 20 {
				fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>s%d</t></is></c></row>`, r, r, r)
				r += MaxEmptyRows // the rows between are missing: empty
			}
			return withParts(t, sheet(t, map[string]string{"A1": "x"}), map[string]string{"xl/worksheets/sheet1.xml": worksheetXML(rows.String())})
		}, LimitError{Limit: LimitEmptyRows, Max: MaxEmptyRowsTotal, Row: 10013}},
		{"CSV: a 5,000-character cell", func(t *testing.T) []byte {
			return []byte("sku;price\nabc;" + strings.Repeat("1", 5000) + "\n")
		}, LimitError{Limit: LimitCellChars, Max: MaxCellChars, Row: 2, Cell: "B2"}},
		{"CSV: two million rows of empty cells", func(t *testing.T) []byte {
			return []byte("sku;price\n" + strings.Repeat(";\n", 2_000_000) + "abc;1\n")
		}, LimitError{Limit: LimitEmptyRun, Max: MaxEmptyRows, Row: 2}},
		{"CSV: 150 columns", func(t *testing.T) []byte {
			return []byte(strings.Repeat("a;", 150) + "\n")
		}, LimitError{Limit: LimitColumns, Max: MaxColumns, Row: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.file(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Read(ctx, data, 10_000)
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("reading it allocated %d MB, want at most 64 MB", grew>>20)
			}
			var le *LimitError
			if !errors.As(err, &le) || *le != tt.want {
				t.Fatalf("error %v, want %+v", err, tt.want)
			}
			if ctx.Err() != nil {
				t.Error("refused by the deadline, not by the limit")
			}
		})
	}
}

// TestReadDeadline: a parse stops when its context ends.
func TestReadDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b strings.Builder
	b.WriteString("sku;price\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "s%d;1\n", i)
	}
	var le *LimitError
	if _, err := Read(ctx, []byte(b.String()), 0); !errors.As(err, &le) || le.Limit != LimitDeadline {
		t.Fatalf("a cancelled parse: %v", err)
	}
}

// TestReadWithinLimits: a normal 10,000-row XLSX still reads, and one row
// more is refused by the row limit.
func TestReadWithinLimits(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	sw.SetRow("A1", []any{"Marketplace SKU", "Price", "Sale price"})
	const rows = 10_000
	for i := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		sw.SetRow(cell, []any{fmt.Sprintf("MP%08d", i), "1299,50", ""})
	}
	sw.Flush()
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Read(context.Background(), buf.Bytes(), rows)
	if err != nil || len(tab.Rows) != rows {
		t.Fatalf("rows %v, err %v", tab, err)
	}
	var le *LimitError
	if _, err := Read(context.Background(), buf.Bytes(), rows-1); !errors.As(err, &le) || *le != (LimitError{Limit: LimitRows, Max: rows - 1}) {
		t.Fatalf("one row over: %v", err)
	}
}
