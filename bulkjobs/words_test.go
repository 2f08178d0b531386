package bulkjobs

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// TestRefusalsInBothLanguages: why a file is refused is kept as a
// catalogue key; Error stays English (logs), Words reads it in the
// seller's language.
func TestRefusalsInBothLanguages(t *testing.T) {
	_, err := ReadTable(nil)
	if err == nil || err.Error() != "the file is empty" {
		t.Fatalf("empty file: %v", err)
	}
	if got := Words(i18n.RU, err); got != "файл пуст" {
		t.Errorf("ru %q", got)
	}
	_, probs := MapColumns([]string{"price", "Price"}, PriceColumns)
	if len(probs) != 2 {
		t.Fatalf("problems %v", probs)
	}
	if got := probs[0].In(i18n.RU); got != `строка 1, столбец "Price": столбец "Price" встречается дважды` {
		t.Errorf("ru %q", got)
	}
	if got := probs[0].Error(); got != `row 1, column "Price": the column "Price" appears twice` {
		t.Errorf("en %q", got)
	}
	le := limitf(i18n.K("import.err_columns"), map[string]any{"Row": 7, "Max": sheets.MaxColumns})
	if got := Words(i18n.RU, le); !strings.HasPrefix(got, "в строке 7 больше ") {
		t.Errorf("ru %q", got)
	}
}

// TestEveryRefusalInBothLanguages: every limit and reason sheets.Read can
// refuse a file for reads as a sentence in English and in Russian, with
// its figures, never as a catalogue key or the sheets package's own text.
func TestEveryRefusalInBothLanguages(t *testing.T) {
	var errs []error
	for l := sheets.LimitUnpacked; l <= sheets.LimitDeadline; l++ {
		errs = append(errs, &sheets.LimitError{Limit: l, Max: 1 << 20, Row: 7, Cell: "B7"})
	}
	for r := sheets.ReasonNotUTF8; r <= sheets.ReasonEmpty; r++ {
		errs = append(errs, &sheets.ReadError{Reason: r, Row: 7, Detail: "bare quote"})
	}
	for _, err := range errs {
		got := refusal(err)
		en, ru := Words(i18n.EN, got), Words(i18n.RU, got)
		if en == err.Error() || strings.Contains(en, "import.") || strings.Contains(ru, "import.") || en == ru || strings.Contains(en, "<no value>") {
			t.Errorf("%v: en %q, ru %q", err, en, ru)
		}
	}
	if got := Words(i18n.EN, refusal(&sheets.LimitError{Limit: sheets.LimitUnpacked, Max: sheets.MaxUnpackedBytes})); !strings.Contains(got, "more than 32 MB") {
		t.Errorf("unpacked: %q", got)
	}
	if got := Words(i18n.EN, refusal(&sheets.LimitError{Limit: sheets.LimitCellChars, Max: 1024, Row: 2, Cell: "B2"})); got != "cell B2 is longer than 1024 characters" {
		t.Errorf("cell: %q", got)
	}
}

// TestImportRowLimit: an import of more than MaxImportRows rows is refused
// in words that say the limit.
func TestImportRowLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("sku;price\n")
	for range MaxImportRows + 1 {
		b.WriteString("a;1\n")
	}
	_, err := ReadTable([]byte(b.String()))
	if err == nil || Words(i18n.EN, err) != "the file has more than 10000 rows; split it into smaller files" {
		t.Fatalf("%d rows: %v", MaxImportRows+1, err)
	}
}
