package browse

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestSortsKnown: every sort a list offers is a column of its list in
// the copy (an unknown one would fall back to the list order unnoticed),
// and each column of the price table the copy holds is offered both ways.
func TestSortsKnown(t *testing.T) {
	t.Parallel()
	for _, l := range []struct {
		name    string
		sorts   []Sort
		columns map[string]string
	}{
		{"nomenclature", NomenclatureSorts, copystore.NomenclatureSorts}, {"prices", PriceSorts, copystore.NomenclatureSorts},
		{"orders", OrderSorts, copystore.OrderSorts}, {"boxes", BoxSorts, copystore.BoxSorts},
	} {
		for _, o := range l.sorts {
			if _, ok := l.columns[strings.TrimPrefix(o.Value, "-")]; o.Value != "" && !ok {
				t.Errorf("%s: sort %q is not a column of the copy", l.name, o.Value)
			}
		}
	}
	offered := map[string]bool{}
	for _, o := range PriceSorts {
		offered[o.Value] = true
	}
	for _, col := range []string{"sku", "name", "price", "sale_price", "price_status"} {
		if !offered[col] || !offered["-"+col] {
			t.Errorf("the price table's column %s is not offered both ways", col)
		}
	}
}
