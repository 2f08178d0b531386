package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// startSandbox serves a fresh sandbox in process and returns a client for
// it and the first seeded credential pair.
func startSandbox() (*apiclient.Client, *sandbox.Sandbox, sandbox.Credential, func()) {
	sb := sandbox.New(sandbox.Options{})
	srv := httptest.NewServer(sb)
	client, err := apiclient.New(apiclient.Options{
		B2BBaseURL:     srv.URL,           // B2B production
		B2BTestBaseURL: srv.URL + "/test", // B2B test environment
		SellerBaseURL:  srv.URL,           // seller JSON-RPC and REST
		Now:            sb.Now,            // token expiry follows the sandbox clock
	})
	if err != nil {
		log.Fatal(err)
	}
	return client, sb, sandbox.SeededCredentials()[0], srv.Close
}

// Example logs in, lists products and updates a price.
func Example() {
	client, _, cred, stop := startSandbox()
	defer stop()
	ctx := context.Background()

	acct := client.Account(apiclient.Credentials{
		ClientID:     cred.ClientID,
		ClientSecret: cred.ClientSecret,
		Environment:  apiclient.Production,
	}, nil)
	if err := acct.Login(ctx); err != nil {
		log.Fatal(err)
	}

	list, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: cred.SellerID, Limit: 1})
	if err != nil {
		log.Fatal(err)
	}
	item := list.Nomenclatures[0]

	res, err := acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{
		{MarketplaceSKU: item.MarketplaceSKU, Price: item.Price + apiclient.MustParseMoney("100")},
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("updated:", res.Updated, "item errors:", res.ErrorCount)
	// Output:
	// updated: 1 item errors: 0
}

// ExampleAccount_Token shows the timing of a freshly issued token: the
// sandbox states 900 s, and the client refreshes 80 % into the lifetime.
func ExampleAccount_Token() {
	client, _, cred, stop := startSandbox()
	defer stop()
	acct := client.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret}, nil)

	tok, err := acct.Token(context.Background(), apiclient.KindSeller)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("lifetime:", tok.ExpiresAt.Sub(tok.IssuedAt))
	fmt.Println("refresh after:", tok.RefreshAt().Sub(tok.IssuedAt))
	fmt.Println(tok) // never prints the token itself
	// Output:
	// lifetime: 15m0s
	// refresh after: 12m0s
	// Token{AccessToken: [REDACTED], RefreshToken: "", IssuedAt: 2026-11-02T09:00:00Z, ExpiresAt: 2026-11-02T09:15:00Z}
}

// ExampleB2BService_ListOrders lists the first page of orders.
func ExampleB2BService_ListOrders() {
	client, sb, cred, stop := startSandbox()
	defer stop()
	acct := client.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret}, nil)

	page, err := acct.B2B.ListOrders(context.Background(), &apiclient.ListOrdersOptions{Page: 1, Limit: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("orders on page:", len(page.Orders))
	fmt.Println("total matches the sandbox:", page.Total == len(sb.OrderNumbers(cred.SellerID, "")))
	fmt.Println("first is the newest:", page.Orders[0].OrderNr == sb.OrderNumbers(cred.SellerID, "")[0])
	// Output:
	// orders on page: 3
	// total matches the sandbox: true
	// first is the newest: true
}

// ExampleSellerService_SetPrices shows item-level failures, which are data,
// not errors.
func ExampleSellerService_SetPrices() {
	client, sb, cred, stop := startSandbox()
	defer stop()
	acct := client.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret}, nil)
	prod := sb.Products(cred.SellerID)[0]

	raise, err := apiclient.ParseMoney("1 200,50") // as typed into a form
	if err != nil {
		log.Fatal(err)
	}
	price := apiclient.Money(prod.Price) + raise
	res, err := acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{
		{MarketplaceSKU: prod.MarketplaceSKU, Price: price},
		{MarketplaceSKU: "MP000UNKNOWN0000", Price: price},
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("updated:", res.Updated)
	for _, e := range res.Errors {
		fmt.Println("failed:", e.MarketplaceSKU, e.Code)
	}
	fmt.Println("raised by:", apiclient.Money(sb.Products(cred.SellerID)[0].Price)-apiclient.Money(prod.Price))
	// Output:
	// updated: 1
	// failed: MP000UNKNOWN0000 404
	// raised by: 1 200.50
}

// ExampleParseMoney validates an amount typed into a form.
func ExampleParseMoney() {
	for _, in := range []string{"1 299,5", "12.345", "abc", ""} {
		m, err := apiclient.ParseMoney(in)
		switch {
		case errors.Is(err, apiclient.ErrMoneyPrecision), errors.Is(err, apiclient.ErrMoneyFormat), errors.Is(err, apiclient.ErrMoneyEmpty):
			fmt.Printf("%q: %v\n", in, err)
		case err != nil:
			log.Fatal(err)
		default:
			fmt.Printf("%q: %s (%d kopecks)\n", in, m, m.Kopecks())
		}
	}
	// Output:
	// "1 299,5": 1 299.50 (129950 kopecks)
	// "12.345": at most 2 decimals
	// "abc": must be a number
	// "": must not be empty
}
