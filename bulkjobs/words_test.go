package bulkjobs

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/views/i18n"
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
	le := limitf(i18n.K("import.err_columns"), map[string]any{"Row": 7, "Max": MaxColumns})
	if got := Words(i18n.RU, le); !strings.HasPrefix(got, "в строке 7 больше ") {
		t.Errorf("ru %q", got)
	}
}
