package apiclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// newV2Sandbox is the lamoda sandbox with a client writing prices through
// the Seller API v2.
func newV2Sandbox(t *testing.T) *sb {
	t.Helper()
	s := sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return newSandboxClient(t, s, srv.URL, nil, func(o *apiclient.Options) {
		o.Profile, o.PriceAPI, o.RetryBudget = apiclient.ProfileLamoda, apiclient.PriceAPIV2, -1
	})
}

// TestV2PricesAgainstSandbox: with PriceAPIV2, card prices go through
// POST /api/v2/nomenclatures-prices with the v2 token (never the v1
// method); a drop the price check holds comes back as a finding and a
// held card, is QUARANTINE in the sell values, and is applied once sent
// with force; the sell values read every card once although the pages
// repeat one.
func TestV2PricesAgainstSandbox(t *testing.T) {
	e := newV2Sandbox(t)
	ctx := context.Background()
	seller := e.cred.SellerID
	list, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	n := list.Nomenclatures[0]
	up := apiclient.PriceUpdate{ParentSKU: n.ParentSKU, Price: n.Price + 100}
	unknown := apiclient.PriceUpdate{ParentSKU: "MP000NOSUCHS", Price: 10000}
	res, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller, Prices: []apiclient.PriceUpdate{up, unknown}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 1 || res.ErrorCount != 1 || res.Errors[0].ParentSKU != unknown.ParentSKU || res.Errors[0].Name != "NOT_FOUND" {
		t.Fatalf("result = %+v", res)
	}
	c := e.s.Counters()
	if c.Requests[sandbox.RouteV2SetPrices] != 1 || c.Requests[sandbox.RouteRPCSetPrices] != 0 || c.TokensIssued["seller-v2"] != 1 {
		t.Errorf("counters %+v: want one v2 write, no v1 write, one v2 token", c)
	}
	sellValue := func(parent string) apiclient.CardSellValue {
		t.Helper()
		for page := 1; ; page++ {
			l, err := e.acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: seller, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			for _, cv := range l.Cards {
				if cv.ParentSKU == parent {
					return cv
				}
			}
			if page >= l.Pages {
				t.Fatalf("card %s not in the sell values", parent)
			}
		}
	}
	if got := sellValue(n.ParentSKU); got.Price != up.Price || got.PriceUpdateStatus != apiclient.PriceStatusOK {
		t.Errorf("sell value after the write: %+v, want %v OK", got, up.Price)
	}

	low := apiclient.PriceUpdate{ParentSKU: n.ParentSKU, Price: up.Price / 3}
	res, err = e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller, Prices: []apiclient.PriceUpdate{low}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 0 || len(res.Errors) != 1 || res.Errors[0].Name != apiclient.HeldByPriceCheck || res.Errors[0].ParentSKU != n.ParentSKU {
		t.Fatalf("held: result = %+v", res)
	}
	if len(res.FraudValidations) != 1 || res.FraudValidations[0].Status != "warning" || res.FraudValidations[0].ChangedValue != "black_price" {
		t.Fatalf("held: findings = %+v", res.FraudValidations)
	}
	if got := sellValue(n.ParentSKU); got.Price != up.Price || got.PriceUpdateStatus != apiclient.PriceStatusQuarantine {
		t.Errorf("sell value of the held card: %+v, want the old price, QUARANTINE", got)
	}
	res, err = e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller, Force: true, Prices: []apiclient.PriceUpdate{low}})
	if err != nil || res.Updated != 1 || len(res.Errors) != 0 {
		t.Fatalf("forced: %+v, %v", res, err)
	}
	if got := sellValue(n.ParentSKU); got.Price != low.Price || got.PriceUpdateStatus != apiclient.PriceStatusOK {
		t.Errorf("sell value after force: %+v, want %v OK", got, low.Price)
	}
	if f := e.s.Counters().Forced; f[n.ParentSKU] != 1 || len(f) != 1 {
		t.Errorf("forced writes %v, want one for %s", f, n.ParentSKU)
	}

	t.Run("sell values once each across repeating pages", func(t *testing.T) {
		seen := map[string]bool{}
		repeated, total := 0, 0
		for page := 1; ; page++ {
			l, err := e.acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: seller, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			total = l.Total
			for _, cv := range l.Cards {
				if seen[cv.ParentSKU] {
					repeated++
				}
				seen[cv.ParentSKU] = true
			}
			if page >= l.Pages {
				break
			}
		}
		if repeated == 0 || len(seen) != total {
			t.Errorf("%d cards read, %d repeated across pages; want %d cards and the sandbox's repeats", len(seen), repeated, total)
		}
	})
	t.Run("another seller", func(t *testing.T) {
		if _, err := e.acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: seller + 1}); !errors.Is(err, apiclient.ErrForbidden) {
			t.Errorf("sell values of another seller: %v, want ErrForbidden", err)
		}
		_, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller + 1, Prices: []apiclient.PriceUpdate{up}})
		if !errors.Is(err, apiclient.ErrForbidden) {
			t.Errorf("prices of another seller: %v, want ErrForbidden", err)
		}
	})
	t.Run("token expiry", func(t *testing.T) {
		before := e.s.Counters().TokensIssued["seller-v2"]
		e.s.Advance(16 * time.Minute)
		if _, err := e.acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: seller}); err != nil {
			t.Fatal(err)
		}
		if got := e.s.Counters().TokensIssued["seller-v2"] - before; got != 1 {
			t.Errorf("%d v2 tokens issued at expiry, want 1", got)
		}
	})
}

// TestV2PricesShapes: what the client puts on the wire (kopecks, the
// country's currency, sellerId, force only when asked), what it refuses
// to send, and how it reads an answer whose error names no card.
func TestV2PricesShapes(t *testing.T) {
	var bodies []map[string]any
	var paths []string
	answer := `{"successCount":1,"errorCount":0,"errors":[],"fraudValidationResults":[]}`
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path)
		raw, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/api/v2/auth-token":
			var tok map[string]string
			if json.Unmarshal(raw, &tok) != nil || tok["grant_type"] != "client_credentials" || tok["client_id"] != "client-1" || tok["client_secret"] != "secret-1" {
				writeJSON(w, 400, `{"error":{"code":"VALIDATION_FAILED","message":"bad token request"}}`)
				return
			}
			writeJSON(w, 201, `{"access_token":"v2-tok","expires_in":3600}`)
		case "/api/v2/nomenclatures-prices":
			if r.Header.Get("Authorization") != "Bearer v2-tok" {
				writeJSON(w, 401, `{"error":{"code":"UNAUTHORIZED","message":"no"}}`)
				return
			}
			var b map[string]any
			_ = json.Unmarshal(raw, &b)
			bodies = append(bodies, b)
			writeJSON(w, 200, answer)
		default:
			http.NotFound(w, r)
		}
	})
	acct, _ := serve(t, h, func(c *clientConfig) {
		c.opts.Profile, c.opts.PriceAPI = apiclient.ProfileLamoda, apiclient.PriceAPIV2
	})
	ctx := context.Background()
	sale := apiclient.MustParseMoney("999.90")
	_, err := acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: 1001, Prices: []apiclient.PriceUpdate{
		{ParentSKU: "MP1", Price: apiclient.MustParseMoney("1234.56"), SalePrice: &sale, SaleStartDate: "2026-12-01", SaleEndDate: "2026-12-31"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"country":"RU","force":false,"prices":[{"parentSku":"MP1","price":{"amount":123456,"currency":"RUB"},` +
		`"saleEnd":"2026-12-31T23:59:59+03:00","salePrice":{"amount":99990,"currency":"RUB"},"saleStart":"2026-12-01T00:00:00+03:00"}],"sellerId":"1001"}`
	if got, _ := json.Marshal(bodies[0]); string(got) != want {
		t.Errorf("body sent\n%s\nwant\n%s", got, want)
	}

	refused := map[string]*apiclient.SetPricesRequest{
		"no seller":  {Prices: []apiclient.PriceUpdate{{ParentSKU: "MP1", Price: 100}}},
		"no card":    {SellerID: 1, Prices: []apiclient.PriceUpdate{{Price: 100}}},
		"zero price": {SellerID: 1, Prices: []apiclient.PriceUpdate{{ParentSKU: "MP1"}}},
		"sale above": {SellerID: 1, Prices: []apiclient.PriceUpdate{{ParentSKU: "MP1", Price: 100, SalePrice: func() *apiclient.Money { m := apiclient.Money(200); return &m }()}}},
		"bad date":   {SellerID: 1, Prices: []apiclient.PriceUpdate{{ParentSKU: "MP1", Price: 100, SaleStartDate: "1.12.2026"}}},
		"101 cards":  {SellerID: 1, Prices: make([]apiclient.PriceUpdate, apiclient.MaxV2PricesPerRequest+1)},
	}
	for i := range refused["101 cards"].Prices {
		refused["101 cards"].Prices[i] = apiclient.PriceUpdate{ParentSKU: "MP" + strings.Repeat("1", i%5+1), Price: 100}
	}
	for name, req := range refused {
		before := len(bodies)
		if _, err := acct.Seller.SetPrices(ctx, req); !errors.Is(err, apiclient.ErrValidation) {
			t.Errorf("%s: %v, want ErrValidation", name, err)
		}
		if len(bodies) != before {
			t.Errorf("%s: sent", name)
		}
	}
	if _, err := acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: 1, Limit: apiclient.MaxV2SellValuesLimit + 1}); !errors.Is(err, apiclient.ErrValidation) {
		t.Errorf("sell values of 26: %v, want ErrValidation", err)
	}

	answer = `{"successCount":0,"errorCount":1,"errors":[{"sku":"","code":"VALIDATION_ERROR","messages":["not found"]}],"fraudValidationResults":[]}`
	res, err := acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: 1, Prices: []apiclient.PriceUpdate{{ParentSKU: "A", Price: 100}, {ParentSKU: "B", Price: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 0 || len(res.Errors) != 2 || res.Errors[0].ParentSKU != "A" || res.Errors[1].ParentSKU != "B" || res.Errors[1].Messages[0] != "not found" {
		t.Errorf("an error naming no card: %+v, want every card failed", res)
	}
	_, err = acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: 1, Force: true, Prices: []apiclient.PriceUpdate{{ParentSKU: "A", Price: 100}}})
	if err != nil || bodies[len(bodies)-1]["force"] != true {
		t.Errorf("force not sent: %v %v", bodies[len(bodies)-1], err)
	}
	for _, p := range paths {
		if strings.Contains(p, "jsonrpc") {
			t.Errorf("v1 called: %s", p)
		}
	}

	for _, bad := range []apiclient.Options{
		{Profile: apiclient.ProfileContract, PriceAPI: apiclient.PriceAPIV2},
		{Profile: apiclient.ProfileLamoda, PriceAPI: "v3"},
	} {
		bad.B2BBaseURL, bad.SellerBaseURL = "http://x", "http://x"
		if _, err := apiclient.New(bad); err == nil {
			t.Errorf("New(%s, %s) accepted", bad.Profile, bad.PriceAPI)
		}
	}
}
