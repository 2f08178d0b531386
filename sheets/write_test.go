package sheets

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
)

// writeCSV writes a sheet as CSV, failing the test on an error.
func writeCSV(t *testing.T, s Sheet) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, CSV, s); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestCSVBytes: one BOM at the start, CRLF after every line, every
// non-empty field quoted with its quotes doubled, commas and line breaks
// kept inside a cell, text defused and number columns written as they are,
// whatever their index. Exact bytes.
func TestCSVBytes(t *testing.T) {
	tests := []struct {
		name string
		cols []Column
		rows [][]string
		want string
	}{
		{"header only", Columns("A", "B"), nil, "\ufeff\"A\",\"B\"\r\n"},
		{"quoting", Columns("Name"), [][]string{{`say "hi", then go`}, {"multi\nline\r\nend"}},
			"\ufeff\"Name\"\r\n\"say \"\"hi\"\", then go\"\r\n\"multi line  end\"\r\n"},
		{"short rows are padded", Columns("A", "B", "C"), [][]string{{"x"}}, "\ufeff\"A\",\"B\",\"C\"\r\n\"x\",,\r\n"},
		{"defusing by kind, not index", []Column{{Name: "Qty", Kind: Number}, {Name: "Note"}, {Name: "Price", Kind: Money}},
			[][]string{{"-1", "-1+1", "-3.50"}, {"=1+2", "=1+2", "@SUM(A1)"}, {"12", "12", "1299.50"}},
			"\ufeff\"Qty\",\"Note\",\"Price\"\r\n\"-1\",\"'-1+1\",\"-3.50\"\r\n\"'=1+2\",\"'=1+2\",\"'@SUM(A1)\"\r\n\"12\",\"12\",\"1299.50\"\r\n"},
		{"formula leads in text", Columns("Text"), [][]string{{"+cmd"}, {"\t=1"}, {"\r=1"}, {"x;=1+2;y"}, {"a, @b"}, {"plain"}},
			"\ufeff\"Text\"\r\n\"'+cmd\"\r\n\" '=1\"\r\n\" '=1\"\r\n\"x;'=1+2;y\"\r\n\"a, '@b\"\r\n\"plain\"\r\n"},
		{"the header is text", []Column{{Name: "-Qty", Kind: Number}}, nil, "\ufeff\"'-Qty\"\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeCSV(t, Sheet{Columns: tt.cols, Rows: tt.rows})
			if got != tt.want {
				t.Errorf("CSV:\n%q\nwant:\n%q", got, tt.want)
			}
			if n := strings.Count(got, "\ufeff"); n != 1 {
				t.Errorf("%d byte order marks", n)
			}
			if strings.Count(got, "\n") != strings.Count(got, "\r\n") || strings.Count(got, "\r") != strings.Count(got, "\r\n") {
				t.Errorf("a line does not end in CRLF: %q", got)
			}
			// encoding/csv reads back what was written, one record per row.
			recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(got, "\ufeff"))).ReadAll()
			if err != nil || len(recs) != 1+len(tt.rows) {
				t.Errorf("read back: %v, %d records", err, len(recs))
			}
		})
	}
}

// TestCSVHostileText: control and bidi characters are dropped, tabs and
// line breaks become spaces. Exact bytes.
func TestCSVHostileText(t *testing.T) {
	got := writeCSV(t, Sheet{Columns: Columns("Name"), Rows: [][]string{{"tab\there\x00nul\x1besc\u202egnp.exe"}, {"=HYPERLINK(\"http://evil\")"}}})
	want := "\ufeff\"Name\"\r\n\"tab herenulescgnp.exe\"\r\n\"'=HYPERLINK(\"\"http://evil\"\")\"\r\n"
	if got != want {
		t.Errorf("CSV %q, want %q", got, want)
	}
}

// TestCellTextBounded: a 100,000-character value becomes at most
// MaxExportChars characters and says how long it was, in CSV and in XLSX
// (which refuses a longer cell).
func TestCellTextBounded(t *testing.T) {
	huge := strings.Repeat("я", 100_000)
	got := CellText(huge)
	if n := len([]rune(got)); n > MaxExportChars {
		t.Fatalf("%d characters, want at most %d", n, MaxExportChars)
	}
	if !strings.HasSuffix(got, "[truncated, 100000 characters]") {
		t.Errorf("no truncation note: …%s", got[len(got)-60:])
	}
	if CellText("short") != "short" {
		t.Error("a short value changed")
	}
	// A number column does not let a huge non-number through whole.
	csvOut := writeCSV(t, Sheet{Columns: []Column{{Name: "N", Kind: Number}}, Rows: [][]string{{strings.Repeat("9", 50) + "x" + huge}}})
	if len(csvOut) > 4*MaxExportChars {
		t.Errorf("CSV of a huge number cell: %d bytes", len(csvOut))
	}
	var buf bytes.Buffer
	if err := Write(&buf, XLSX, Sheet{Columns: Columns("Huge"), Rows: [][]string{{huge}}}); err != nil {
		t.Fatalf("XLSX of a huge cell: %v", err)
	}
}

// TestXLSXRoundTrip: an XLSX written here opens in excelize with the
// sheet's name, the header, text cells defused and number cells as numbers
// (money with two decimals); the import reader reads it back.
func TestXLSXRoundTrip(t *testing.T) {
	s := Sheet{Name: "Цены: [март]", Columns: []Column{{Name: "SKU"}, {Name: "Name"}, {Name: "Qty", Kind: Number}, {Name: "Price", Kind: Money}},
		Rows: [][]string{{"A1", "=HYPERLINK(\"x\")", "-1", "1299.5"}, {"B2", "Платье", "", "abc"}, {"C3", "-1+1", "7", "10"}}}
	var buf bytes.Buffer
	if err := Write(&buf, XLSX, s); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "Цены- -март-" {
		t.Errorf("sheets %q", got)
	}
	rows, err := f.GetRows(f.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"SKU", "Name", "Qty", "Price"}, {"A1", "'=HYPERLINK(\"x\")", "-1", "1299.50"}, {"B2", "Платье", "", "abc"}, {"C3", "'-1+1", "7", "10.00"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// Numbers are stored as numbers (no string type), the rest as strings.
	for cell, number := range map[string]bool{"C2": true, "D2": true, "D4": true, "B3": false, "D3": false, "B4": false} {
		typ, err := f.GetCellType(f.GetSheetList()[0], cell)
		isString := typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString
		if err != nil || isString == number {
			t.Errorf("%s: type %v %v, want a number: %v", cell, typ, err, number)
		}
	}
	tab, err := Read(context.Background(), buf.Bytes(), 0)
	if err != nil || len(tab.Rows) != 3 || tab.Rows[1][1] != "Платье" {
		t.Errorf("read back: %v %+v", err, tab)
	}
}

// TestWriterRefusesWideRows: a row wider than the header is an error, and
// the writer keeps it.
func TestWriterRefusesWideRows(t *testing.T) {
	for _, f := range []Format{CSV, XLSX} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, f, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Header(Columns("A")); err != nil {
			t.Fatal(err)
		}
		if err := w.Row("1", "2"); !errors.Is(err, ErrWidth) {
			t.Errorf("%s: a wide row: %v", f.Ext(), err)
		}
		if err := w.Close(); err != nil {
			t.Errorf("%s: close: %v", f.Ext(), err)
		}
	}
}

func TestIsDecimal(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "-3": true, "1299.50": true, "-0.5": true, "": false, "-": false, "1.": false, ".5": false,
		"1e3": false, "Inf": false, "0x10": false, "1 299": false, "-1+1": false, "=1": false, "+1": false, "1,5": false} {
		if got := IsDecimal(s); got != want {
			t.Errorf("IsDecimal(%q) = %v", s, got)
		}
	}
}

func TestFileName(t *testing.T) {
	if got := FileName("csv", "prices", "seller 1001", "page-2", "limit-100"); got != "prices_seller-1001_page-2_limit-100.csv" {
		t.Errorf("file name %q", got)
	}
	if got := FileName(XLSX.Ext(), "a/../b", `"x"`); got != "a-..-b_x.xlsx" {
		t.Errorf("file name %q", got)
	}
}

func TestDatedFileName(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	// 22:30 UTC on the 27th is already the 28th in Moscow: the day is the
	// one of the zone the time is in.
	day := time.Date(2026, 11, 27, 22, 30, 0, 0, time.UTC).In(msk)
	if got := DatedFileName("csv", day, "prices", "seller 1001", "page-2"); got != "prices_seller-1001_page-2_2026-11-28.csv" {
		t.Errorf("dated file name %q", got)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"2026-10-01", "2026-11-27", "history_2026-10-01--2026-11-27_2026-11-28.csv"},
		{"2026-10-01", "", "history_from-2026-10-01_2026-11-28.csv"},
		{"", "2026-11-27", "history_until-2026-11-27_2026-11-28.csv"},
		{"", "", "history_2026-11-28.csv"},
	} {
		if got := DatedFileName("csv", day, "history", DayRange(tc.from, tc.to)); got != tc.want {
			t.Errorf("range %q..%q: %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}
