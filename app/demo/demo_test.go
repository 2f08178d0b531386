package demo

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

func TestParseProducts(t *testing.T) {
	for v, want := range map[string]int{"": 0, "0": 0, "1": 1, "33334": 33334, "333334": sandbox.MaxProductsPerSeller} {
		if n, err := ParseProducts(v); err != nil || n != want {
			t.Errorf("%q: %d, %v", v, n, err)
		}
	}
	for _, v := range []string{"-1", "333335", "1e5", "many", " 5"} {
		if _, err := ParseProducts(v); err == nil || !strings.Contains(err.Error(), "from 0 (the default) to 333334") {
			t.Errorf("%q: %v", v, err)
		}
	}
}

// TestOptionsProducts: the variable sizes the sellers; unset keeps the
// default fixtures exactly.
func TestOptionsProducts(t *testing.T) {
	big := sandbox.New(Options(false, 2000, nil))
	if n := len(big.Products(1001)) * len(big.Warehouses(1001)); n != 6000 {
		t.Fatalf("%d records, want 6000", n)
	}
	opts := Options(false, 0, nil)
	opts.Live, opts.Start = false, sandbox.DefaultStart
	def := sandbox.New(opts)
	plain := sandbox.New(sandbox.Options{})
	for _, id := range []int64{1001, 1002, 1003} {
		if diff := cmp.Diff(plain.Products(id), def.Products(id)); diff != "" {
			t.Errorf("seller %d: default fixtures changed:\n%s", id, diff)
		}
		if diff := cmp.Diff(plain.OrderNumbers(id, ""), def.OrderNumbers(id, "")); diff != "" {
			t.Errorf("seller %d: default orders changed:\n%s", id, diff)
		}
	}
}
