package massupdate

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestReadBackReadsItsRows: reading back a chunk (after a job's sending,
// or when a run takes over a chunk a dead one left in flight) reads the
// catalogue only until the chunk's rows are found, each page under the
// seller's lock, instead of the whole catalogue.
func TestReadBackReadsItsRows(t *testing.T) {
	sb := sandbox.New(sandbox.Options{ProductsPerSeller: 1000}) // 3,000 records, 30 pages
	m, err := demo.Start(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: m.Sandbox.Now})
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := api.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	first, err := acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: cred.SellerID, Page: 1, Limit: catalogPageLimit})
	if err != nil || len(first.Nomenclatures) < 3 || first.Pages < 10 {
		t.Fatalf("first page: %v; want a catalogue of many pages", err)
	}
	var items []bulkjobs.Item
	for i, n := range first.Nomenclatures[:3] {
		q := n.Quantity
		items = append(items, item(t, i+1, StockKey(n.WarehouseCode, n.Barcode), apiclient.StoreItem{WarehouseCode: n.WarehouseCode, Barcode: n.Barcode, Quantity: &q}))
	}
	lk := &fakeLocker{}
	x := &Executor{Engine: &Engine{Locker: lk}, Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }}
	sb.ResetCounters()
	back, err := x.ReadBack(context.Background(), bulkjobs.Job{ID: "j1", Kind: Stock.Name, SellerID: cred.SellerID}, items)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range back {
		if r.State != bulkjobs.ReadConfirmed {
			t.Errorf("row %d read back %q, want confirmed", r.Seq, r.State)
		}
	}
	if n := sb.Counters().Requests[sandbox.RouteRPCList]; n != 1 {
		t.Errorf("the read-back made %d list calls, want 1: its rows are on the first page of %d", n, first.Pages)
	}
	if len(lk.sellers) == 0 || lk.held != 0 {
		t.Errorf("locks %v, %d held; want the seller's lock taken for each page and released", lk.sellers, lk.held)
	}
}
