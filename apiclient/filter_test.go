package apiclient_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// The filtered writes send exactly the published params: update-stock
// {filter, stock}, update-activation {country (the configured one),
// filter, active}, the list its filter; item errors {code, lamodaSku,
// messages} come back by marketplace SKU. A filter that would select more
// than meant is never sent; the contract profile sends none of them.
func TestLamodaFilterWrites(t *testing.T) {
	errs := `{"errors":[{"code":400,"lamodaSku":"MP002XW1CJV9R360","messages":["Validation error"]}]}`
	ws := &wireServer{answers: map[string]string{
		"POST /jsonrpc/v1/tokens.create":                   lamodaTokensCreateExample,
		"POST /jsonrpc/v1/nomenclatures.list":              lamodaListExample,
		"POST /jsonrpc/v1/nomenclatures.update-stock":      errs,
		"POST /jsonrpc/v1/nomenclatures.update-activation": `{"errors":[]}`,
	}}
	srv := httptest.NewServer(ws)
	t.Cleanup(srv.Close)
	c, err := apiclient.New(apiclient.Options{B2BBaseURL: srv.URL, SellerBaseURL: srv.URL, Profile: apiclient.ProfileLamoda, Country: "KZ", RetryBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	acct := c.Account(apiclient.Credentials{ClientID: "client-1", ClientSecret: "x"}, nil)
	ctx := context.Background()
	filter := []apiclient.FilterItem{{Key: "supplierSku", Operator: apiclient.FilterIn, Value: []string{"A-1", "A-2"}}}

	res, err := acct.Seller.UpdateStock(ctx, &apiclient.UpdateStockRequest{Filter: filter, Stock: 0})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ws.last("/jsonrpc/v1/nomenclatures.update-stock").body, `{"filter":[{"key":"supplierSku","operator":"IN","value":["A-1","A-2"]}],"stock":0}`; got != want {
		t.Errorf("update-stock params %s, want %s", got, want)
	}
	if len(res.Errors) != 1 || res.Errors[0].MarketplaceSKU != "MP002XW1CJV9R360" || res.Errors[0].Code != 400 || res.Errors[0].Messages[0] != "Validation error" {
		t.Errorf("item errors: %+v", res.Errors)
	}
	if _, err := acct.Seller.UpdateActivation(ctx, &apiclient.UpdateActivationRequest{Filter: filter, Active: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := ws.last("/jsonrpc/v1/nomenclatures.update-activation").body, `{"country":"KZ","filter":[{"key":"supplierSku","operator":"IN","value":["A-1","A-2"]}],"active":true}`; got != want {
		t.Errorf("update-activation params %s, want %s", got, want)
	}
	if _, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{Filter: filter, Page: 1, Limit: 100}); err != nil {
		t.Fatal(err)
	}
	if got, want := ws.last("/jsonrpc/v1/nomenclatures.list").body, `{"country":"KZ","filter":[{"key":"supplierSku","operator":"IN","value":["A-1","A-2"]}],"page":1,"limit":100}`; got != want {
		t.Errorf("list params %s, want %s", got, want)
	}

	before := len(ws.seen)
	for name, f := range map[string][]apiclient.FilterItem{
		"no filter":            nil,
		"no key":               {{Operator: "IN", Value: []string{"A-1"}}},
		"no values":            {{Key: "supplierSku", Operator: "IN"}},
		"unpublished operator": {{Key: "supplierSku", Operator: "CONTAINS", Value: []string{"A-1"}}},
	} {
		if _, err := acct.Seller.UpdateStock(ctx, &apiclient.UpdateStockRequest{Filter: f, Stock: 1}); !errors.Is(err, apiclient.ErrValidation) {
			t.Errorf("%s: %v, want ErrValidation", name, err)
		}
	}
	if len(ws.seen) != before {
		t.Errorf("a refused filter was sent")
	}

	contract, err := apiclient.New(apiclient.Options{B2BBaseURL: srv.URL, SellerBaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ca := contract.Account(apiclient.Credentials{ClientID: "client-1", ClientSecret: "x"}, nil)
	if _, err := ca.Seller.UpdateStock(ctx, &apiclient.UpdateStockRequest{Filter: filter}); !errors.Is(err, apiclient.ErrNotSupported) {
		t.Errorf("contract update-stock: %v", err)
	}
	if _, err := ca.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{Filter: filter}); !errors.Is(err, apiclient.ErrNotSupported) {
		t.Errorf("contract filtered list: %v", err)
	}
	if contract.FilterWrites() || !c.FilterWrites() {
		t.Error("FilterWrites")
	}
}
