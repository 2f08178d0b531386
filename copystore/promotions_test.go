package copystore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// fakePromotions is a PromotionSource of n cards in one running and one
// finished promotion, whose pages repeat the previous page's last card.
type fakePromotions struct {
	now   time.Time
	n     int
	reads int
}

func (f *fakePromotions) Promotions(context.Context) ([]apiclient.Promotion, error) {
	f.reads++
	return []apiclient.Promotion{
		{ID: 7, Name: "Весна", ActiveFrom: f.now.Add(-time.Hour), ActiveTo: f.now.Add(24 * time.Hour), AddTo: f.now.Add(time.Hour), ProductMinPrice: 150000, DiscountPercent: 25.5},
		{ID: 6, Name: "Осень", ActiveFrom: f.now.Add(-48 * time.Hour), ActiveTo: f.now.Add(-24 * time.Hour)},
	}, nil
}

func (f *fakePromotions) PromotionCards(_ context.Context, id int64, offset, limit int) ([]apiclient.PromotionProduct, int, error) {
	f.reads++
	var out []apiclient.PromotionProduct
	if offset > 0 {
		offset-- // the page repeats the previous page's last card
	}
	for i := offset; i < f.n && len(out) < limit; i++ {
		out = append(out, apiclient.PromotionProduct{ParentSKU: fmt.Sprintf("MP%04d", i), SellerSKU: fmt.Sprintf("ART-%d", i), Name: "Платье", Price: 200000})
	}
	return out, f.n, nil
}

// TestSyncPromotions: a sync keeps the running and upcoming promotions
// (not a finished one) with every card once, although the pages repeat
// cards; the cards are searchable and paged; a forget deletes them; a
// forgotten copy is not written.
func TestSyncPromotions(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
		s.SetClock(func() time.Time { return now })
		k := testKey(1001)
		if err := s.Grant(ctx, k, ""); err != nil {
			t.Fatal(err)
		}
		src := &fakePromotions{now: now, n: 250}
		if err := s.SyncPromotions(ctx, k, b.lock, src); err != nil {
			t.Fatal(err)
		}
		ps, err := s.Promotions(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || ps[0].ID != 7 || ps[0].Cards != 250 || ps[0].ProductMinPrice != 150000 || ps[0].DiscountPercent != 25.5 ||
			!ps[0].AddTo.Equal(now.Add(time.Hour)) {
			t.Fatalf("promotions %+v, want the running one with its 250 cards", ps)
		}
		cards, total, err := s.PromotionCards(ctx, k, 7, "", 240, 20)
		if err != nil || total != 250 || len(cards) != 10 || cards[9].ParentSKU != "MP0249" {
			t.Fatalf("last page: %d cards of %d (%v)", len(cards), total, err)
		}
		if cards, total, err := s.PromotionCards(ctx, k, 7, "art-12", 0, 20); err != nil || total != 11 || cards[0].ParentSKU != "MP0012" {
			t.Errorf("search art-12: %d (%v), want MP0012 and MP0120…MP0129", total, err)
		}
		if _, total, _ := s.PromotionCards(ctx, k, 7, "нет такого", 0, 20); total != 0 {
			t.Errorf("a search for nothing matched %d cards", total)
		}
		if err := s.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		if err := s.SyncPromotions(ctx, k, b.lock, src); err != nil {
			t.Fatal(err)
		}
		if ps, _ := s.Promotions(ctx, k); len(ps) != 0 {
			t.Errorf("a forgotten copy holds %d promotions", len(ps))
		}
	})
}

// TestSyncPromotionsFromSandbox: the manager's sync reads the lamoda
// sandbox's promotions through the client into the copy.
func TestSyncPromotionsFromSandbox(t *testing.T) {
	t.Parallel()
	sb := sandbox.New(sandbox.Options{Profile: sandbox.ProfileLamoda})
	m, err := demo.Start(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: sb.Now, Profile: apiclient.ProfileLamoda})
	if err != nil {
		t.Fatal(err)
	}
	c := sandbox.SeededCredentials()[0]
	src := AccountSource{SellerID: c.SellerID, Credential: CredentialOf(c.ClientID, "test", c.ClientSecret),
		Account: api.Account(apiclient.Credentials{ClientID: c.ClientID, ClientSecret: c.ClientSecret, Environment: apiclient.Test}, nil)}
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		s.SetClock(sb.Now)
		k := testKey(c.SellerID)
		y := &Syncer{Store: s, Lock: b.lock}
		if err := y.Run(ctx, k, src); err != nil {
			t.Fatal(err)
		}
		if err := s.SyncPromotions(ctx, k, b.lock, src); err != nil {
			t.Fatal(err)
		}
		got, err := s.Promotions(ctx, k)
		want := sb.Promotions(c.SellerID)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%d promotions (%v), want %d", len(got), err, len(want))
		}
		for i := range want {
			if got[i].Name != want[i].Name || got[i].Cards != len(want[i].Cards) || !got[i].DeleteTo.Equal(want[i].DeleteTo) {
				t.Errorf("promotion %+v, want %+v", got[i], want[i])
			}
		}
	})
}
