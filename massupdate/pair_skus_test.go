package massupdate

import (
	"maps"
	"slices"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestPairSellerSKUs: a record on the page gives its seller SKU; only the
// records off it are read, by key; one found nowhere keeps an empty SKU.
func TestPairSellerSKUs(t *testing.T) {
	items := []apiclient.StoreItem{{WarehouseCode: "W", Barcode: "B1"}, {WarehouseCode: "W", Barcode: "B2"}, {WarehouseCode: "W", Barcode: "B3"}}
	page := []apiclient.Nomenclature{{WarehouseCode: "W", Barcode: "B1", SellerSKU: "S1"}}
	var asked []string
	current := func(want Want) (*Catalog, error) {
		asked = slices.Sorted(maps.Keys(want.Keys))
		return &Catalog{ByKey: map[string]apiclient.Nomenclature{"W|B2": {SellerSKU: "S2"}}}, nil
	}
	got, err := PairSellerSKUs(items, page, current)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []string{"W|B2", "W|B3"}) {
		t.Errorf("read by key %v; want W|B2, W|B3", asked)
	}
	var skus []string
	for _, s := range got {
		skus = append(skus, s.SellerSKU)
	}
	if !slices.Equal(skus, []string{"S1", "S2", ""}) {
		t.Errorf("seller SKUs %q", skus)
	}
	asked = nil
	if _, err := PairSellerSKUs(items[:1], page, current); err != nil || asked != nil {
		t.Errorf("all on the page: read %v, err %v", asked, err)
	}
}
