package handlers

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestPriceSortsKnown: every sort the prices toolbar offers is a column of
// the copy (an unknown one would fall back to the list order unnoticed),
// and each column of the price table the copy holds is offered both ways.
func TestPriceSortsKnown(t *testing.T) {
	t.Parallel()
	offered := map[string]bool{}
	for _, o := range priceSorts {
		offered[o.Value] = true
		if o.Value == "" {
			continue
		}
		if _, ok := copystore.NomenclatureSorts[strings.TrimPrefix(o.Value, "-")]; !ok {
			t.Errorf("sort %q is not a column of the copy", o.Value)
		}
	}
	for _, col := range []string{"sku", "name", "price", "sale_price", "price_status"} {
		if !offered[col] || !offered["-"+col] {
			t.Errorf("the price table's column %s is not offered both ways", col)
		}
	}
}
