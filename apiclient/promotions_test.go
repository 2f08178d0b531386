package apiclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestPromotionsAgainstSandbox: the lamoda profile reads a seller's
// promotions with their windows and floor, and the cards taking part page
// by page; the price check's finding about a card in a promotion names
// it, on either price path; the contract profile sends nothing.
func TestPromotionsAgainstSandbox(t *testing.T) {
	sbx := sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda})
	srv := httptest.NewServer(sbx)
	t.Cleanup(srv.Close)
	e := newSandboxClient(t, sbx, srv.URL, nil, func(o *apiclient.Options) { o.Profile, o.RetryBudget = apiclient.ProfileLamoda, -1 })
	ctx := context.Background()
	seller := e.cred.SellerID
	l, err := e.acct.Seller.ListPromotions(ctx, seller)
	if err != nil {
		t.Fatal(err)
	}
	want := e.s.Promotions(seller)
	if len(l.Promotions) != len(want) || len(want) == 0 || l.Skipped != 0 {
		t.Fatalf("%d promotions (%d skipped), want %d", len(l.Promotions), l.Skipped, len(want))
	}
	for i, p := range l.Promotions {
		w := want[i]
		if p.ID != w.ID || p.Name != w.Name || !p.ActiveFrom.Equal(w.ActiveFrom) || !p.ActiveTo.Equal(w.ActiveTo) ||
			!p.AddTo.Equal(w.AddTo) || !p.DeleteTo.Equal(w.DeleteTo) || int64(p.ProductMinPrice) != w.ProductMinPrice ||
			p.DiscountPercent != float64(w.DiscountPercent) || p.ProductsCount != len(w.Cards) {
			t.Errorf("promotion %d read as %+v, want %+v", i, p, w)
		}
	}
	promo := want[0]
	var cards []string
	for off := 0; ; off += 3 {
		page, err := e.acct.Seller.ListPromotionProducts(ctx, &apiclient.PromotionProductsRequest{SellerID: seller, PromotionID: promo.ID, Offset: off, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != len(promo.Cards) {
			t.Errorf("total %d, want %d", page.Total, len(promo.Cards))
		}
		for _, p := range page.Products {
			if p.Price <= 0 || p.RecommendedPrice <= 0 || p.SellerSKU == "" {
				t.Errorf("product not fully read: %+v", p)
			}
			cards = append(cards, p.ParentSKU)
		}
		if len(page.Products) < 3 {
			break
		}
	}
	if len(cards) != len(promo.Cards) || cards[0] != promo.Cards[0] {
		t.Errorf("cards %v, want %v", cards, promo.Cards)
	}

	for _, api := range []apiclient.PriceAPI{apiclient.PriceAPIV1, apiclient.PriceAPIV2} {
		c, err := apiclient.New(apiclient.Options{B2BBaseURL: srv.URL, SellerBaseURL: srv.URL, Now: e.s.Now, Profile: apiclient.ProfileLamoda, PriceAPI: api})
		if err != nil {
			t.Fatal(err)
		}
		acct := c.Account(apiclient.Credentials{ClientID: e.cred.ClientID, ClientSecret: e.cred.ClientSecret}, nil)
		card := promo.Cards[0]
		var current apiclient.Money
		for _, p := range e.s.Products(seller) {
			if p.ParentSKU == card {
				current = apiclient.Money(p.Price)
				break
			}
		}
		res, err := acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller, Prices: []apiclient.PriceUpdate{{ParentSKU: card, Price: current / 3}}})
		if err != nil {
			t.Fatal(err)
		}
		var names []struct{ Name string }
		if len(res.FraudValidations) != 1 || json.Unmarshal(res.FraudValidations[0].Promotions, &names) != nil || len(names) == 0 || names[0].Name != promo.Name {
			t.Errorf("%s: the finding does not name %q: %+v", api, promo.Name, res.FraudValidations)
		}
	}

	if _, err := e.acct.Seller.ListPromotions(ctx, seller+1); !errors.Is(err, apiclient.ErrForbidden) {
		t.Errorf("another seller: %v, want ErrForbidden", err)
	}
	if _, err := e.acct.Seller.ListPromotionProducts(ctx, &apiclient.PromotionProductsRequest{SellerID: seller, PromotionID: promo.ID, Limit: 101}); !errors.Is(err, apiclient.ErrValidation) {
		t.Errorf("a page of 101: %v, want ErrValidation", err)
	}
	c := newProfileSandbox(t, apiclient.ProfileContract, sandbox.ProfileContract)
	if _, err := c.acct.Seller.ListPromotions(ctx, seller); !errors.Is(err, apiclient.ErrNotSupported) {
		t.Errorf("contract profile: %v, want ErrNotSupported", err)
	}
}
