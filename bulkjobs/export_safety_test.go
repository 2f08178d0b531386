package bulkjobs

import (
	"bytes"
	"strings"
	"testing"
)

// TestCSVExportHostileText: every text field is quoted (Excel in the ru-RU
// locale splits on ';'), formula leads are defused at the start and after
// ';' or ',', control and bidi characters are dropped, and a huge value is
// cut to Excel's cell limit with a note. Exact bytes.
func TestCSVExportHostileText(t *testing.T) {
	s := Sheet{Header: []string{"Name", "Price"}, Numeric: map[int]bool{1: true}, Rows: [][]string{
		{"x;=1+2;y", "10.50"},
		{"=HYPERLINK(\"http://evil\")", "-3"},
		{"a, +cmd|' /C calc'!A0", ""},
		{"tab\there\x00nul\x1besc\u202egnp.exe", "1"},
		{"@SUM(A1)", "2"},
		{"plain", "3"},
		{"multi\nline", "4"},
	}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	want := "\ufeff" + `"Name","Price"
"x;'=1+2;y","10.50"
"'=HYPERLINK(""http://evil"")","-3"
"a, '+cmd|' /C calc'!A0",
"tab herenulescgnp.exe","1"
"'@SUM(A1)","2"
"plain","3"
"multi line","4"
`
	if got := buf.String(); got != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", got, want)
	}
}

// TestExportTextBounded: a 100,000-character value becomes at most
// MaxExportChars characters and says how long it was.
func TestExportTextBounded(t *testing.T) {
	got := ExportText(strings.Repeat("я", 100_000))
	if n := len([]rune(got)); n > MaxExportChars {
		t.Fatalf("%d characters, want at most %d", n, MaxExportChars)
	}
	if !strings.HasSuffix(got, "[truncated, 100000 characters]") {
		t.Errorf("no truncation note: …%s", got[len(got)-60:])
	}
	if ExportText("short") != "short" {
		t.Error("a short value changed")
	}
}
