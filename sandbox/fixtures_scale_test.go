package sandbox

import (
	"fmt"
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

// TestFixturesScaleCap: ProductsPerSeller above the cap is capped, none
// is the default, and a sandbox generates as many as asked.
func TestFixturesScaleCap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ask, want int }{
		{0, productsPerSeller}, {-1, productsPerSeller}, {7, 7},
		{MaxProductsPerSeller, MaxProductsPerSeller}, {MaxProductsPerSeller + 5, MaxProductsPerSeller},
	} {
		if got := productsOf(c.ask); got != c.want {
			t.Errorf("ProductsPerSeller %d: %d products, want %d", c.ask, got, c.want)
		}
	}
	if got := len(New(Options{ProductsPerSeller: 7}).Products(1001)); got != 7 {
		t.Errorf("a sandbox of 7 products per seller lists %d", got)
	}
}

// TestProductBarcodesUnique: up to the cap, no two products of any sellers
// share a barcode, and every one is a valid EAN-13; the first products keep
// the barcodes the fixtures always had.
func TestProductBarcodesUnique(t *testing.T) {
	t.Parallel()
	if got := productBarcode(1001, 0); got != "4601001000004" {
		t.Errorf("the first product's barcode is %s, want 4601001000004", got)
	}
	// Each seller's products near the ranges' ends (where two sellers'
	// ranges or the two ranges could meet) and a stride through the rest.
	var is []int
	for i := 0; i < MaxProductsPerSeller; i++ {
		if i < 3 || (i > firstBarcodes-3 && i < firstBarcodes+3) || i > MaxProductsPerSeller-4 || i%997 == 0 {
			is = append(is, i)
		}
	}
	seen := map[string]string{}
	for seller := int64(1001); seller <= 1000+MaxSellers; seller++ {
		for _, i := range is {
			b := productBarcode(seller, i)
			if !validEAN13(b) {
				t.Fatalf("seller %d product %d: invalid barcode %q", seller, i, b)
			}
			at := fmt.Sprintf("seller %d product %d", seller, i)
			if prev, dup := seen[b]; dup {
				t.Fatalf("%s and %s share barcode %s", prev, at, b)
			}
			seen[b] = at
		}
	}
}
