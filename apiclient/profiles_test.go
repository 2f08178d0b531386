package apiclient_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// profiles pairs each client wire profile with the sandbox profile that
// serves it.
var profiles = []struct {
	client  apiclient.Profile
	sandbox string
}{
	{apiclient.ProfileContract, sandbox.ProfileContract},
	{apiclient.ProfileLamoda, sandbox.ProfileLamoda},
}

// newProfileSandbox is newSandbox in the given profile pair.
func newProfileSandbox(t *testing.T, cp apiclient.Profile, sp string) *sb {
	t.Helper()
	s := sandbox.New(sandbox.Options{Profile: sp})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return newSandboxClient(t, s, srv.URL, nil, func(o *apiclient.Options) { o.Profile = cp; o.RetryBudget = -1 })
}

// TestSandboxProfiles runs the client's flows against the sandbox in both
// wire profiles: the same state behind two sets of shapes.
func TestSandboxProfiles(t *testing.T) {
	for _, p := range profiles {
		t.Run(string(p.client), func(t *testing.T) {
			e := newProfileSandbox(t, p.client, p.sandbox)
			ctx := context.Background()
			seller := e.cred.SellerID
			if err := e.acct.Login(ctx); err != nil {
				t.Fatalf("Login: %v", err)
			}
			bad := e.client.Account(apiclient.Credentials{ClientID: e.cred.ClientID, ClientSecret: "wrong"}, nil)
			if err := bad.Login(ctx); !errors.Is(err, apiclient.ErrUnauthorized) {
				t.Errorf("wrong secret: %v, want ErrUnauthorized", err)
			}

			t.Run("orders", func(t *testing.T) {
				page, err := e.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 5, Status: "new"})
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Orders) != 5 || page.Total < 5 {
					t.Fatalf("page = %+v", page)
				}
				for _, o := range page.Orders {
					if o.ID == "" || o.Status != "new" || o.CreatedAt.IsZero() || o.FullSum <= 0 || len(o.Items) == 0 || o.Items[0].ID == "" {
						t.Errorf("order not fully read: %+v", o)
					}
				}
				n := 0
				for _, err := range e.acct.B2B.AllOrders(ctx, &apiclient.ListOrdersOptions{Limit: 100, Status: "new"}) {
					if err != nil {
						t.Fatal(err)
					}
					n++
				}
				if n != page.Total {
					t.Errorf("AllOrders yielded %d, want %d", n, page.Total)
				}
				nr := page.Orders[0].OrderNr
				res, err := e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{nr}})
				if err != nil || res.Queued == 0 {
					t.Fatalf("resend: %+v, %v", res, err)
				}
				var rl *apiclient.RateLimitError
				if _, err := e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{nr}}); !errors.As(err, &rl) {
					t.Errorf("second resend: %v, want a *RateLimitError", err)
				}
			})

			t.Run("nomenclature and prices with mixed item results", func(t *testing.T) {
				list, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if len(list.Nomenclatures) != 10 {
					t.Fatalf("list = %+v", list)
				}
				n := list.Nomenclatures[0]
				if n.MarketplaceSKU == "" || n.Barcode == "" || n.Price <= 0 || n.UpdatedAt.IsZero() || (e.client.PricesByCard() != (n.ParentSKU != "")) {
					t.Errorf("record not fully read: %+v", n)
				}
				newPrice := n.Price + 100
				upd := apiclient.PriceUpdate{MarketplaceSKU: n.MarketplaceSKU, ParentSKU: n.ParentSKU, Price: newPrice}
				unknown := apiclient.PriceUpdate{MarketplaceSKU: "MP000NOSUCHSKU00", ParentSKU: "MP000NOSUCHS", Price: 10000}
				res, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{SellerID: seller, Prices: []apiclient.PriceUpdate{upd, unknown}})
				if err != nil {
					t.Fatal(err)
				}
				if res.Updated != 1 || res.ErrorCount != 1 || len(res.Errors) != 1 || res.Errors[0].Code != 404 {
					t.Fatalf("result = %+v", res)
				}
				// Each item error is matched to its row: by card where
				// prices go by card, else by SKU.
				if got := res.Errors[0]; (e.client.PricesByCard() && got.ParentSKU != unknown.ParentSKU) ||
					(!e.client.PricesByCard() && got.MarketplaceSKU != unknown.MarketplaceSKU) {
					t.Errorf("item error %+v does not name its row", got)
				}
				again, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if again.Nomenclatures[0].Price != newPrice {
					t.Errorf("price %v after the update, want %v", again.Nomenclatures[0].Price, newPrice)
				}
			})

			t.Run("stock updates", func(t *testing.T) {
				list, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 1})
				if err != nil {
					t.Fatal(err)
				}
				q := 7
				n := list.Nomenclatures[0]
				res, err := e.acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: seller, Items: []apiclient.StoreItem{
					{WarehouseCode: n.WarehouseCode, Barcode: n.Barcode, Quantity: &q},
					{WarehouseCode: n.WarehouseCode, Barcode: "0000000000000", Quantity: &q},
				}})
				if !e.client.StockUpdates() {
					if !errors.Is(err, apiclient.ErrNotSupported) {
						t.Errorf("err = %v, want ErrNotSupported", err)
					}
					return
				}
				if err != nil || res.Updated != 1 || res.ErrorCount != 1 {
					t.Errorf("store: %+v, %v", res, err)
				}
			})

			t.Run("return boxes", func(t *testing.T) {
				page, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: seller, Limit: 5, Status: "shipped"})
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Boxes) == 0 || page.Total == 0 {
					t.Fatalf("page = %+v", page)
				}
				for _, b := range page.Boxes {
					if b.Code == "" || b.Status != "shipped" || b.CreatedAt.IsZero() || b.ShippedAt == nil {
						t.Errorf("box not fully read: %+v", b)
					}
				}
				if _, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: seller + 1}); !errors.Is(err, apiclient.ErrForbidden) {
					t.Errorf("another seller: %v, want ErrForbidden", err)
				}
			})

			t.Run("a record that cannot be read is left out", func(t *testing.T) {
				e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultWildRecords})
				list, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 3})
				if err != nil || len(list.Nomenclatures) != 3 || list.Skipped != 1 {
					t.Errorf("list = %+v, %v; want 3 records and 1 skipped", list, err)
				}
			})

			t.Run("token expiry and revocation", func(t *testing.T) {
				before := e.s.Counters().TokensIssued["seller"]
				e.s.Advance(16 * time.Minute)
				if _, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: 1}); err != nil {
					t.Fatalf("after expiry: %v", err)
				}
				if got := e.s.Counters().TokensIssued["seller"]; got != before+1 {
					t.Errorf("%d seller tokens issued at expiry, want 1", got-before)
				}
				e.s.RevokeCredentials(e.cred.ClientID)
				if _, err := e.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Limit: 1}); !errors.Is(err, apiclient.ErrUnauthorized) {
					t.Errorf("after revocation: %v, want ErrUnauthorized", err)
				}
			})
		})
	}
}
