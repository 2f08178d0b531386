package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSellersOption: Options.Sellers seeds that many sellers, each with
// data and credentials the token endpoints accept; the added sellers'
// data follows the seed, and the three seeded sellers' data and
// credentials are the same as without the option.
func TestSellersOption(t *testing.T) {
	many := New(Options{Sellers: 20})
	creds := many.Credentials()
	if len(creds) != 20 {
		t.Fatalf("%d credentials, want 20", len(creds))
	}
	if diff := cmp.Diff(SeededCredentials(), creds[:3]); diff != "" {
		t.Errorf("the seeded credentials changed (-want +got):\n%s", diff)
	}
	seen := map[int64]bool{}
	for _, c := range creds {
		if seen[c.SellerID] {
			t.Fatalf("seller %d twice", c.SellerID)
		}
		seen[c.SellerID] = true
		if len(many.Products(c.SellerID)) != productsPerSeller || len(many.OrderNumbers(c.SellerID, "")) == 0 {
			t.Errorf("seller %d: %d products, %d orders", c.SellerID, len(many.Products(c.SellerID)), len(many.OrderNumbers(c.SellerID, "")))
		}
		if c.SellerID > 1003 {
			b2bToken(t, many, "", c)
			sellerToken(t, many, c)
		}
	}
	last := creds[19]
	if last.ClientID != "demo-1020" || last.SellerID != 1020 {
		t.Errorf("the 20th credential is %+v", last)
	}
	again := New(Options{Sellers: 20})
	if diff := cmp.Diff(many.Products(1020), again.Products(1020)); diff != "" {
		t.Errorf("seller 1020's data is not the same from the same seed:\n%s", diff)
	}
	if cmp.Equal(many.Products(1020), New(Options{Sellers: 20, Seed: 7}).Products(1020)) {
		t.Errorf("seller 1020's data does not follow the seed")
	}
	three := New(Options{})
	if len(three.Credentials()) != 3 {
		t.Errorf("the default sandbox accepts %d credentials, want 3", len(three.Credentials()))
	}
	for _, id := range sellerIDs {
		if diff := cmp.Diff(three.Products(id), many.Products(id)); diff != "" {
			t.Errorf("seller %d's data changed with Sellers:\n%s", id, diff)
		}
	}
	if len(three.Products(1004)) != 0 {
		t.Errorf("the default sandbox has a seller 1004")
	}
	if n := len(New(Options{Sellers: MaxSellers + 10}).Credentials()); n != MaxSellers {
		t.Errorf("Sellers above MaxSellers gives %d sellers", n)
	}
	if _, e := three.checkCredentials("demo-1004", "sandbox-secret-1004", envSeller); e == credOK {
		t.Errorf("the default sandbox accepts an added seller's credentials")
	}
}
