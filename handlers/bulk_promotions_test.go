package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestImportPreviewMarksPromotions (lamoda profile): a price file lowering
// a card in a promotion below the promotion's floor is previewed with the
// card marked, its promotion's name and floor and what the price check
// and "send anyway" will do, before anything is sent (no price write);
// a card in no promotion is not marked. Sent, the price check holds it;
// the retry's preview marks it again.
func TestImportPreviewMarksPromotions(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Jobs: &bulkjobs.RunnerOptions{},
		Sandbox: sandbox.Options{Live: true}})
	b := app.Browser(t)
	b.LoginDemo()
	promo := app.Sandbox.Promotions(1001)[0]
	card := promo.Cards[0]
	inPromo := map[string]bool{}
	for _, p := range app.Sandbox.Promotions(1001) {
		for _, c := range p.Cards {
			inPromo[c] = true
		}
	}
	var promoted, plain sandbox.Product
	for _, p := range app.Sandbox.Products(1001) {
		switch {
		case p.ParentSKU == card && promoted.MarketplaceSKU == "":
			promoted = p
		case p.ParentSKU != "" && !inPromo[p.ParentSKU] && plain.MarketplaceSKU == "":
			plain = p
		}
	}
	if promoted.MarketplaceSKU == "" || plain.MarketplaceSKU == "" {
		t.Fatalf("no size of card %s, or no card outside the promotions", card)
	}
	waitUntil(t, "the promotions in the copy", func() bool { return b.Get("/promotions").Has("#promotions-table") })
	app.Sandbox.ResetCounters()
	// Below the floor (30 % off), above half: held by the promotion alone.
	csv := fmt.Sprintf("Marketplace SKU;Price\n%s;%s\n%s;%s\n", promoted.MarketplaceSKU, moneyIn(promoted.Price*6/10),
		plain.MarketplaceSKU, moneyIn(plain.Price*11/10))
	id := uploadAs(t, app, b, []byte(csv), "prices")
	preview := b.Get("/bulk/jobs/" + id)
	if preview.Status != http.StatusOK {
		t.Fatalf("preview: %d", preview.Status)
	}
	checkMarked := func(p *testapp.Page, what string) {
		t.Helper()
		row := "[data-testid=row-2] "
		if got := p.Text(row + "[data-testid=promotion]"); !strings.Contains(got, "“"+promo.Name+"”") || !strings.Contains(got, "price floor") {
			t.Errorf("%s: card %s marked %q, want its promotion %q and the floor", what, card, got, promo.Name)
		}
		if got := p.Text(row + "[data-testid=promo-below]"); !strings.Contains(got, "price check") || !strings.Contains(got, "out of the promotion") {
			t.Errorf("%s: the price below the floor is marked %q", what, got)
		}
	}
	checkMarked(preview, "preview")
	if preview.Has("[data-testid=row-3] [data-testid=promotion]") || preview.Has("[data-testid=row-3] [data-testid=promo-below]") {
		t.Errorf("card %s in no promotion is marked", plain.ParentSKU)
	}
	if c := app.Sandbox.Counters(); c.Requests[sandbox.RouteRPCSetPrices] != 0 || len(c.Forced) != 0 {
		t.Errorf("the preview wrote: %v, forced %v", c.Requests, c.Forced)
	}
	// The stored marks read in the reader's language.
	if r := b.Post("/settings/language", url.Values{"lang": {"ru"}}); r.Status >= 400 {
		t.Fatalf("language: %d", r.Status)
	}
	ru := b.Get("/bulk/jobs/" + id)
	if got := ru.Text("[data-testid=row-2] [data-testid=promotion]"); !strings.Contains(got, "акции «"+promo.Name+"»") || !strings.Contains(got, "Порог цены") {
		t.Errorf("in Russian the mark reads %q", got)
	}
	if r := b.Post("/settings/language", url.Values{"lang": {"en"}}); r.Status >= 400 {
		t.Fatalf("language: %d", r.Status)
	}

	b.Post("/bulk/jobs/"+id+"/submit", url.Values{"confirm_all": {"1"}})
	waitUntil(t, "the job to finish", func() bool {
		j, err := app.JobStore.Job(context.Background(), id)
		return err == nil && !j.Active() && j.State != bulkjobs.StatePreview
	})
	p := b.Post("/bulk/jobs/"+id+"/retry", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("retry: %d (the held card was not rejected?)", p.Status)
	}
	retry := b.Get(strings.TrimPrefix(p.Location, b.InAccount("")))
	checkMarked(retry, "retry")
	if f := app.Sandbox.Counters().Forced; len(f) != 0 {
		t.Errorf("a job forced %v", f)
	}
}
