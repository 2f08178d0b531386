package copystore

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestLookupNomenclature: records found by SKU (more than a batch of
// them, unknown ones among them), by warehouse and barcode, and by card;
// never another seller's; not at all once the copy is revoked.
func TestLookupNomenclature(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		products := m.sb.Products(1001)
		collect := func(k Key, l Lookup) (map[string]int, error) {
			got := map[string]int{}
			err := s.LookupNomenclature(ctx, k, l, func(r *Record) error {
				got[r.Warehouse+"|"+r.Barcode+"|"+r.MarketplaceSKU]++
				return nil
			})
			return got, err
		}

		var l Lookup
		for _, p := range products {
			l.SKUs = append(l.SKUs, p.MarketplaceSKU)
		}
		for i := range lookupBatch {
			l.SKUs = append(l.SKUs, fmt.Sprintf("NOSUCHSKU%04d", i))
		}
		got, err := collect(k, l)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3*len(products) {
			t.Errorf("by SKU: %d records, want the %d of every product", len(got), 3*len(products))
		}

		p := products[5]
		got, err = collect(k, Lookup{Stock: []StockKey{{p.Warehouses[1], p.Barcode}, {p.Warehouses[1], "NOSUCHBARCODE"}, {"NOSUCHWAREHOUSE", p.Barcode}}})
		if key := p.Warehouses[1] + "|" + p.Barcode + "|" + p.MarketplaceSKU; err != nil || len(got) != 1 || got[key] != 1 {
			t.Errorf("by stock key: %v (%v), want only %s", got, err, key)
		}

		if got, err := collect(Key{SellerID: 1002, Env: k.Env}, Lookup{SKUs: []string{p.MarketplaceSKU}}); err != nil || len(got) != 0 {
			t.Errorf("another seller's copy: %v (%v)", got, err)
		}
		if err := s.Revoke(ctx, k); err != nil {
			t.Fatal(err)
		}
		if _, err := collect(k, Lookup{SKUs: []string{p.MarketplaceSKU}}); !errors.Is(err, ErrRevoked) {
			t.Errorf("a revoked copy: %v, want ErrRevoked", err)
		}
	})
}

// TestLookupNomenclatureByCard (lamoda profile, which lists each record's
// card): a card's lookup finds every size of it.
func TestLookupNomenclatureByCard(t *testing.T) {
	t.Parallel()
	sb := sandbox.New(sandbox.Options{ProductsPerSeller: productsInTests, Profile: sandbox.ProfileLamoda})
	dm, err := demo.Start(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dm.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: dm.B2BURL, B2BTestBaseURL: dm.B2BTestURL, SellerBaseURL: dm.SellerURL, Now: sb.Now,
		Profile: apiclient.ProfileLamoda})
	if err != nil {
		t.Fatal(err)
	}
	m := &market{sb: sb, api: api}
	eachBackend(t, func(t *testing.T, b backend) {
		s, k := synced(t, b, m, 1001)
		sizes := map[string][]string{}
		for _, p := range sb.Products(1001) {
			sizes[p.ParentSKU] = append(sizes[p.ParentSKU], p.MarketplaceSKU)
		}
		var card string
		for c, ss := range sizes {
			if len(ss) > 1 {
				card = c
				break
			}
		}
		if card == "" {
			t.Fatal("no card with several sizes")
		}
		got := map[string]bool{}
		err := s.LookupNomenclature(context.Background(), k, Lookup{Cards: []string{card, "NOSUCHCARD"}}, func(r *Record) error {
			if r.ParentSKU != card {
				t.Errorf("record %s of card %q", r.MarketplaceSKU, r.ParentSKU)
			}
			got[r.MarketplaceSKU] = true
			return nil
		})
		if err != nil || len(got) != len(sizes[card]) {
			t.Errorf("card %s: %v (%v), want its sizes %v", card, got, err, sizes[card])
		}
	})
}
