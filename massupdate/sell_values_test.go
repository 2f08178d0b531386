package massupdate

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestV2PricesChunkedAndReadBack: with the Seller API v2 writing prices,
// a send of more cards than one v2 write takes goes in requests of at
// most 100, and the read-back reads the sell values: a card the price
// check held reads back as quarantined, the others as confirmed.
func TestV2PricesChunkedAndReadBack(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda, ProductsPerSeller: 400}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL,
		Now: m.Sandbox.Now, Profile: apiclient.ProfileLamoda, PriceAPI: apiclient.PriceAPIV2})
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := api.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	seller := cred.SellerID
	order, sizes := cardsOf(m.Sandbox, seller)
	if len(order) <= apiclient.MaxV2PricesPerRequest {
		t.Fatalf("%d cards: the test needs more than one v2 write's worth", len(order))
	}
	var cards []CardPrice
	for i, parent := range order {
		price := max(sizes[parent][0].Price+100, 200000) // above every promotion's floor
		if i == 1 {
			price = sizes[parent][0].Price / 3 // held by the price check
		}
		cards = append(cards, CardPrice{PriceUpdate: apiclient.PriceUpdate{Price: apiclient.Money(price)}, Parent: parent})
	}
	e := &Engine{Locker: &fakeLocker{}, ChunkSize: 500}
	rep, err := Send(context.Background(), e, acct, seller, Cards, cards, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != len(cards)-1 || rep.Rejected != 1 || rep.Outcomes[order[1]].State != Rejected || len(rep.Fraud[order[1]]) != 1 {
		t.Fatalf("report: %d accepted, %d rejected, held card %+v", rep.Accepted, rep.Rejected, rep.Outcomes[order[1]])
	}
	want := (len(cards) + apiclient.MaxV2PricesPerRequest - 1) / apiclient.MaxV2PricesPerRequest
	if got := m.Sandbox.Counters().Requests[sandbox.RouteV2SetPrices]; got != want {
		t.Errorf("%d v2 writes for %d cards, want %d", got, len(cards), want)
	}

	cat, err := FetchCatalog(context.Background(), acct, seller)
	if err != nil {
		t.Fatal(err)
	}
	item := func(i int) bulkjobs.Item {
		p, _ := json.Marshal(cards[i].PriceUpdate)
		return bulkjobs.Item{Seq: i, Key: sizes[order[i]][0].MarketplaceSKU, Payload: string(p)}
	}
	if got := readBackOne("prices", item(0), cat); got.State != bulkjobs.ReadConfirmed {
		t.Errorf("the applied card reads back %q, want confirmed", got.State)
	}
	if got := readBackOne("prices", item(1), cat); got.State != bulkjobs.ReadQuarantine {
		t.Errorf("the held card reads back %q, want quarantine", got.State)
	}
}
