package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFixturesScale: a large seller is generated deterministically, its
// barcodes and SKUs stay unique, and the default sandbox's products are the
// first products of a large one (the regular generator is only run longer).
func TestFixturesScale(t *testing.T) {
	const n = 5_000
	big := New(Options{ProductsPerSeller: n})
	again := New(Options{ProductsPerSeller: n})
	def := New(Options{})
	barcodes := map[string]bool{}
	for _, id := range sellerIDs {
		ps := big.Products(id)
		if len(ps) != n || len(ps)*len(big.Warehouses(id)) != 3*n {
			t.Fatalf("seller %d: %d products", id, len(ps))
		}
		if diff := cmp.Diff(ps, again.Products(id)); diff != "" {
			t.Fatalf("seller %d: not deterministic:\n%s", id, diff[:min(len(diff), 2000)])
		}
		for _, p := range ps {
			if barcodes[p.Barcode] || !validEAN13(p.Barcode) {
				t.Fatalf("duplicate or invalid barcode %q", p.Barcode)
			}
			barcodes[p.Barcode] = true
		}
		d := def.Products(id)
		if diff := cmp.Diff(d[:50], ps[:50], cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".ParentSKU" }, cmp.Ignore())); diff != "" {
			t.Errorf("seller %d: the default products are not the first of a large seller:\n%s", id, diff)
		}
	}
}

// TestFixturesScaleCap: ProductsPerSeller above the cap is capped, so
// barcodes never collide between sellers.
func TestFixturesScaleCap(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 300,000 products")
	}
	s := New(Options{ProductsPerSeller: MaxProductsPerSeller + 5})
	if got := len(s.Products(1001)); got != MaxProductsPerSeller {
		t.Fatalf("%d products, want the cap %d", got, MaxProductsPerSeller)
	}
}
