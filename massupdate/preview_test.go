package massupdate

import (
	"encoding/json"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// TestPreviewPriceBelowRunningSale: a blank sale cell keeps the running
// sale, except when the new price is below it: then the sale ends and the
// row is sent with the price alone (the preview no longer refuses it with
// advice to clear a cell that, in a file, means "keep").
func TestPreviewPriceBelowRunningSale(t *testing.T) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{
		"MP1": {MarketplaceSKU: "MP1", Price: 100_00, SalePrice: 80_00},
	}}
	p := Previewer{Guard: 50, Catalog: cat}
	check := func(typed map[string]string) (bulkjobs.Item, apiclient.PriceUpdate) {
		it := p.checkPrice(bulkjobs.Item{Seq: 1, Line: 2, Key: "MP1", Chunk: -1, Flag: bulkjobs.FlagInvalid}, typed, map[string]int{})
		var upd apiclient.PriceUpdate
		if it.Payload != "" {
			if err := json.Unmarshal([]byte(it.Payload), &upd); err != nil {
				t.Fatal(err)
			}
		}
		return it, upd
	}
	it, upd := check(map[string]string{"sku": "MP1", "price": "70.00"})
	if it.Flag != bulkjobs.FlagOK || upd.Price != 70_00 || upd.SalePrice != nil {
		t.Errorf("price below the sale: flag %s %q, sent %+v; want the price alone", it.Flag, it.Message, upd)
	}
	it, upd = check(map[string]string{"sku": "MP1", "price": "90.00"})
	if it.Flag != bulkjobs.FlagOK || upd.SalePrice == nil || *upd.SalePrice != 80_00 {
		t.Errorf("price above the sale: flag %s %q, sent %+v; want the sale kept", it.Flag, it.Message, upd)
	}
}
