package massupdate

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// lamodaAccount is a seeded seller's account on an in-process sandbox of
// the lamoda profile, with the sandbox to look at.
func lamodaAccount(t *testing.T) (*apiclient.Account, int64, *sandbox.Sandbox) {
	t.Helper()
	m, err := demo.Start(sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda}))
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
	return acct, cred.SellerID, m.Sandbox
}

// cardsOf groups the sandbox's products of a seller by card.
func cardsOf(sb *sandbox.Sandbox, seller int64) (order []string, sizes map[string][]sandbox.Product) {
	sizes = map[string][]sandbox.Product{}
	for _, p := range sb.Products(seller) {
		if _, ok := sizes[p.ParentSKU]; !ok {
			order = append(order, p.ParentSKU)
		}
		sizes[p.ParentSKU] = append(sizes[p.ParentSKU], p)
	}
	return order, sizes
}

// The engine matches a card's item errors once: by the card, else by a
// size the row names (its aliases), and keeps a size it cannot place for
// the caller; cards with Force never share a request with the others; the
// price-check findings come back in the report, bounded per card.
func TestSendCardsMatchesGroupsAndKeepsFindings(t *testing.T) {
	type sentChunk struct {
		cards []string
		force bool
	}
	var sent []sentChunk
	kind := Cards
	kind.Send = func(_ context.Context, _ *apiclient.Account, _ int64, chunk []CardPrice) (*apiclient.UpdateResult, error) {
		sc := sentChunk{force: chunk[0].Force}
		for _, c := range chunk {
			sc.cards = append(sc.cards, c.Parent)
		}
		sent = append(sent, sc)
		res := &apiclient.UpdateResult{}
		if chunk[0].Parent == "A" {
			res.Errors = []apiclient.ItemError{
				{ParentSKU: "A", Messages: []string{"by card"}},
				{MarketplaceSKU: "b2", Messages: []string{"by size"}},
				{MarketplaceSKU: "zz", Code: 5},
			}
			for range 12 {
				res.FraudValidations = append(res.FraudValidations, apiclient.FraudValidation{ParentSKU: "A", Status: "warning"})
			}
		}
		return res, nil
	}
	lk := &fakeLocker{}
	e := &Engine{Locker: lk, ChunkSize: 2}
	items := []CardPrice{
		{Parent: "A", Sizes: []string{"a1"}},
		{Parent: "B", Sizes: []string{"b1", "b2"}},
		{Parent: "C"},
		{Parent: "D", Force: true},
		{Parent: "E", Force: true},
	}
	rep, err := Send(context.Background(), e, nil, 7, kind, items, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []sentChunk{{[]string{"A", "B"}, false}, {[]string{"C"}, false}, {[]string{"D", "E"}, true}}
	if diff := cmp.Diff(want, sent, cmp.AllowUnexported(sentChunk{})); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if len(lk.sellers) != 1 || lk.held != 0 {
		t.Errorf("locks %v, %d held; want one, released", lk.sellers, lk.held)
	}
	wantOut := map[string]Outcome{
		"A": {State: Rejected, Messages: i18n.Plain("by card")},
		"B": {State: Rejected, Messages: i18n.Plain("by size")},
		"C": {State: Accepted}, "D": {State: Accepted}, "E": {State: Accepted},
	}
	if diff := cmp.Diff(wantOut, rep.Outcomes); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{SizeKey("zz"): {"Rejected by the marketplace (code 5)."}}, unmatchedShown(rep.Unmatched)); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	if len(rep.Fraud) != 1 || len(rep.Fraud["A"]) != maxFindings {
		t.Errorf("findings %v; want %d for A", rep.Fraud, maxFindings)
	}
}

// CheckCards sends one update per card, keyed by the card and not by a
// size, the confirmed cards last and with Force; a card edited twice is
// refused (the form then sends nothing).
func TestCheckCards(t *testing.T) {
	rows := []PriceInput{
		{SKU: "P1", OrigPrice: "100.00", Price: "120.00"},
		{SKU: "P2", OrigPrice: "100.00", Price: "40.00"},
		{SKU: "P3", OrigPrice: "100.00", Price: "100.00"}, // unchanged
		{SKU: "P4", OrigPrice: "100.00", Price: "90.00"},
		{SKU: "P4", OrigPrice: "100.00", Price: "80.00"},
	}
	c := CheckCards(rows, map[string]bool{"P2": true})
	var got []string
	for _, cp := range c.Send {
		if cp.MarketplaceSKU != "" {
			t.Errorf("card %s sent with size %q", cp.Parent, cp.MarketplaceSKU)
		}
		s := cp.Parent
		if cp.Force {
			s += "!"
		}
		got = append(got, s)
	}
	if diff := cmp.Diff([]string{"P1", "P4", "P2!"}, got); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
	if _, ok := c.Invalid["P4"]; !ok || len(c.Invalid) != 1 {
		t.Errorf("invalid %v; want P4 (twice)", c.Invalid)
	}
}

// On the lamoda sandbox, Cards sends a card's price to all its sizes; a
// sharp drop is held with a warning finding until the caller passes Force,
// and an unknown card is rejected by card.
func TestSendCardsLamodaSandbox(t *testing.T) {
	acct, seller, sb := lamodaAccount(t)
	order, sizes := cardsOf(sb, seller)
	if len(order) < 2 {
		t.Fatalf("%d cards", len(order))
	}
	up, drop := order[0], order[1]
	upPrice := apiclient.Money(sizes[up][0].Price + 100_00)
	dropPrice := apiclient.Money(sizes[drop][0].Price * 4 / 10) // more than half off: needs force
	e := &Engine{Locker: &fakeLocker{}}
	items := []CardPrice{
		{PriceUpdate: apiclient.PriceUpdate{Price: upPrice}, Parent: up},
		{PriceUpdate: apiclient.PriceUpdate{Price: dropPrice}, Parent: drop},
		{PriceUpdate: apiclient.PriceUpdate{Price: 1000_00}, Parent: "NO-SUCH-CARD"},
	}
	rep, err := Send(context.Background(), e, acct, seller, Cards, items, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcomes[up].State != Accepted || rep.Outcomes[drop].State != Rejected || rep.Outcomes["NO-SUCH-CARD"].State != Rejected {
		t.Fatalf("outcomes %+v; want %s accepted, %s held, the unknown card rejected", rep.Outcomes, up, drop)
	}
	if !slices.ContainsFunc(rep.Fraud[drop], func(f apiclient.FraudValidation) bool { return f.Status == "warning" }) {
		t.Errorf("findings %+v; want a warning for %s", rep.Fraud, drop)
	}
	_, now := cardsOf(sb, seller)
	for _, p := range now[up] {
		if p.Price != int64(upPrice) {
			t.Errorf("size %s of %s: price %d, want %d", p.MarketplaceSKU, up, p.Price, upPrice)
		}
	}
	if now[drop][0].Price == int64(dropPrice) {
		t.Fatalf("%s dropped without force", drop)
	}

	rep, err = Send(context.Background(), e, acct, seller, Cards, []CardPrice{{PriceUpdate: apiclient.PriceUpdate{Price: dropPrice}, Parent: drop, Force: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcomes[drop].State != Accepted {
		t.Fatalf("forced: %+v", rep.Outcomes)
	}
	if _, now = cardsOf(sb, seller); now[drop][0].Price != int64(dropPrice) {
		t.Errorf("%s after force: %d, want %d", drop, now[drop][0].Price, dropPrice)
	}
}

// The executor sends a card job's rows as Cards (one item per card,
// results by Seq), never with force, and stops on a stored row that is
// not a card.
func TestExecutorCards(t *testing.T) {
	acct, seller, sb := lamodaAccount(t)
	order, sizes := cardsOf(sb, seller)
	card := order[0]
	first := sizes[card][0]
	x := &Executor{Engine: &Engine{Locker: &fakeLocker{}}, PricesByCard: true,
		Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }}
	job := bulkjobs.Job{ID: "j1", Kind: "prices", SellerID: seller}
	newPrice := apiclient.Money(first.Price + 50_00)
	var skus []string
	for _, p := range sizes[card] {
		skus = append(skus, p.MarketplaceSKU)
	}
	items := []bulkjobs.Item{
		item(t, 1, first.MarketplaceSKU, CardPrice{PriceUpdate: apiclient.PriceUpdate{MarketplaceSKU: first.MarketplaceSKU, Price: newPrice}, Parent: card, Sizes: skus}),
		item(t, 2, "X1", CardPrice{PriceUpdate: apiclient.PriceUpdate{MarketplaceSKU: "X1", Price: 100_00}, Parent: "NO-SUCH-CARD"}),
		// Force is never stored: a job cannot send it.
		item(t, 3, sizes[order[1]][0].MarketplaceSKU, CardPrice{PriceUpdate: apiclient.PriceUpdate{Price: apiclient.Money(sizes[order[1]][0].Price * 4 / 10)},
			Parent: order[1], Force: true}),
	}
	res, err := x.Send(context.Background(), job, items, func(time.Time, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].State != bulkjobs.ItemAccepted || res[1].State != bulkjobs.ItemRejected || len(res[1].Message) == 0 ||
		res[2].State != bulkjobs.ItemRejected {
		t.Fatalf("results %+v; want row 1 accepted, rows 2 (unknown card) and 3 (held, no force) rejected", res)
	}
	_, now := cardsOf(sb, seller)
	for _, p := range now[card] {
		if p.Price != int64(newPrice) {
			t.Errorf("size %s: %d, want %d", p.MarketplaceSKU, p.Price, newPrice)
		}
	}
	_, err = x.Send(context.Background(), job, []bulkjobs.Item{item(t, 1, first.MarketplaceSKU, apiclient.PriceUpdate{MarketplaceSKU: first.MarketplaceSKU, Price: newPrice})},
		func(time.Time, int) {})
	var stop *bulkjobs.StopError
	if !errors.As(err, &stop) {
		t.Errorf("a per-SKU row in a card job: %v, want *bulkjobs.StopError", err)
	}
}
