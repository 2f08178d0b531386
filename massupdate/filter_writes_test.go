package massupdate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// lamodaSandbox is a seeded seller's account on an in-process sandbox
// serving the lamoda profile, with its sandbox and catalogue.
func lamodaSandbox(t *testing.T, products int) (*apiclient.Account, int64, *sandbox.Sandbox, *Catalog) {
	t.Helper()
	m, err := demo.Start(sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda, ProductsPerSeller: products}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL,
		Now: m.Sandbox.Now, Profile: apiclient.ProfileLamoda})
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := api.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	cat, err := FetchCatalog(context.Background(), acct, cred.SellerID)
	if err != nil {
		t.Fatal(err)
	}
	return acct, cred.SellerID, m.Sandbox, cat
}

// records are the first n records of the catalogue that moderation
// approved (online or disabled), in list order.
func records(t *testing.T, s *sandbox.Sandbox, seller int64, cat *Catalog, n int) []apiclient.Nomenclature {
	t.Helper()
	var out []apiclient.Nomenclature
	for _, p := range s.Products(seller) {
		rec := cat.BySKU[p.MarketplaceSKU]
		if rec.Status == "online" || rec.Status == "disabled" {
			out = append(out, rec)
		}
		if len(out) == n {
			return out
		}
	}
	t.Fatalf("fewer than %d approved records", n)
	return nil
}

func stockChange(rec apiclient.Nomenclature, qty int) SKUStock {
	return SKUStock{StoreItem: apiclient.StoreItem{WarehouseCode: rec.WarehouseCode, Barcode: rec.Barcode, Quantity: &qty}, SellerSKU: rec.SellerSKU}
}

func keyOf(rec apiclient.Nomenclature) string { return rec.WarehouseCode + "|" + rec.Barcode }

// Three quantities, two of them equal, and one status: two update-stock
// calls and one update-activation, each after its dry run; every row
// accepted, the values visible in the next list.
func TestSendFilteredGroupsByValue(t *testing.T) {
	acct, seller, s, cat := lamodaSandbox(t, 0)
	recs := records(t, s, seller, cat, 4)
	status := SKUStock{StoreItem: apiclient.StoreItem{Barcode: recs[3].Barcode, Status: "disabled"}, SellerSKU: recs[3].SellerSKU}
	if recs[3].Status == "disabled" {
		status.Status = "online"
	}
	items := []SKUStock{stockChange(recs[0], 5), stockChange(recs[1], 9), stockChange(recs[2], 5), status}
	s.ResetCounters()
	rep, err := SendFiltered(context.Background(), &Engine{Locker: &fakeLocker{}}, acct, seller, items)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 4 || !rep.Complete() {
		t.Fatalf("report: %+v", rep)
	}
	c := s.Counters()
	if c.Requests[sandbox.RouteRPCUpdateStock] != 2 || c.Requests[sandbox.RouteRPCUpdateActivation] != 1 || c.Requests[sandbox.RouteRPCList] != 3 {
		t.Errorf("calls: %v; want 2 update-stock, 1 update-activation, 3 dry runs", c.Requests)
	}
	if c.Written[sandbox.WrittenStock] != 3 || c.Written[sandbox.WrittenActivation] != 1 {
		t.Errorf("written: %v", c.Written)
	}
	after, err := FetchCatalog(context.Background(), acct, seller)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{5, 9, 5} {
		if got := after.ByKey[keyOf(recs[i])].Quantity; got != want {
			t.Errorf("record %d: quantity %d, want %d", i, got, want)
		}
	}
	if got := after.ByKey[keyOf(recs[3])].Status; got != status.Status {
		t.Errorf("status %q, want %q", got, status.Status)
	}
}

// A filter key the marketplace ignores selects every record: the dry run
// sees more than meant, and nothing is written; every row says why.
func TestSendFilteredWrongKeyWritesNothing(t *testing.T) {
	acct, seller, s, cat := lamodaSandbox(t, 0)
	recs := records(t, s, seller, cat, 2)
	s.ResetCounters()
	rep, err := SendFiltered(context.Background(), &Engine{Locker: &fakeLocker{}, FilterKey: "article"}, acct, seller,
		[]SKUStock{stockChange(recs[0], 1), stockChange(recs[1], 1)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != 2 {
		t.Fatalf("report: %+v", rep)
	}
	for _, r := range recs {
		if msg := en(rep.Outcomes[keyOf(r)].Messages[:1]); !strings.Contains(msg, "instead of the 2 meant") || !strings.Contains(msg, "article") {
			t.Errorf("reason: %q", msg)
		}
	}
	c := s.Counters()
	if c.Requests[sandbox.RouteRPCUpdateStock] != 0 || len(c.Written) != 0 {
		t.Errorf("written with a wrong key: requests %v, written %v", c.Requests, c.Written)
	}
}

// One unknown SKU: the others are written, that one refused with a
// reason; a marketplace refusal names the row by its lamodaSku.
func TestSendFilteredUnknownSKUAndItemErrors(t *testing.T) {
	acct, seller, s, cat := lamodaSandbox(t, 0)
	recs := records(t, s, seller, cat, 4)
	ghost := stockChange(recs[2], 4)
	ghost.SellerSKU = "NO-SUCH-SKU"
	s.ResetCounters()
	rep, err := SendFiltered(context.Background(), &Engine{Locker: &fakeLocker{}}, acct, seller,
		[]SKUStock{stockChange(recs[0], 4), ghost, stockChange(recs[1], 4), stockChange(recs[3], 100_000)})
	if err != nil {
		t.Fatal(err)
	}
	got := states(rep)
	if got[keyOf(recs[0])].State != Accepted || got[keyOf(recs[1])].State != Accepted {
		t.Errorf("the known SKUs: %+v", got)
	}
	if o := got[keyOf(recs[2])]; o.State != Rejected || !strings.Contains(en(o.Messages[:1]), "NO-SUCH-SKU") {
		t.Errorf("the unknown SKU: %+v", o)
	}
	if o := got[keyOf(recs[3])]; o.State != Rejected || !strings.Contains(en(o.Messages), "above the limit") {
		t.Errorf("the refused stock: %+v", o)
	}
	if w := s.Counters().Written[sandbox.WrittenStock]; w != 2 {
		t.Errorf("written %d; want the two known", w)
	}
}

// A stock import of 1,000 rows in the lamoda profile: the job's chunks go
// through the same grouping, one update-stock per distinct quantity per
// chunk (at most MaxFilterSKUs SKUs each), never one call per row.
func TestFilterStockJobGroups(t *testing.T) {
	acct, seller, s, cat := lamodaSandbox(t, 1000)
	x := &Executor{Engine: &Engine{Locker: &fakeLocker{}}, FilterWrites: true,
		Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }}
	job := bulkjobs.Job{ID: "j", Kind: "stock", SellerID: seller}
	var items []bulkjobs.Item
	for i, p := range s.Products(seller)[:1000] {
		rec := cat.BySKU[p.MarketplaceSKU]
		items = append(items, item(t, i+1, keyOf(rec), stockChange(rec, []int{3, 7, 11}[i%3])))
	}
	s.ResetCounters()
	wantCalls := 0
	for lo := 0; lo < len(items); lo += DefaultChunkSize {
		chunk := items[lo:min(lo+DefaultChunkSize, len(items))]
		for g := range 3 {
			n := (len(chunk) - g + 2) / 3 // rows of the chunk with quantity g
			wantCalls += (n + MaxFilterSKUs - 1) / MaxFilterSKUs
		}
		res, err := x.Send(context.Background(), job, chunk, func(time.Time, int) {})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.State != bulkjobs.ItemAccepted {
				t.Fatalf("row %d: %s %s", r.Seq, r.State, r.Message)
			}
		}
	}
	c := s.Counters()
	if got := c.Requests[sandbox.RouteRPCUpdateStock]; got != wantCalls || got > 20 {
		t.Errorf("update-stock calls: %d, want %d", got, wantCalls)
	}
	if c.Written[sandbox.WrittenStock] != 1000 {
		t.Errorf("written %d", c.Written[sandbox.WrittenStock])
	}
	fmt.Println("1,000-row stock job in the lamoda profile:", c.Requests[sandbox.RouteRPCUpdateStock], "update-stock calls,", c.Requests[sandbox.RouteRPCList], "dry-run lists")
}
