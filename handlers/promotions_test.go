package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestPromotionsPage: in the lamoda profile the "Promotions" page shows
// the seller's running and upcoming promotions from the local copy, each
// with its windows, discount and floor, and the cards of the one chosen,
// searchable; the contract profile shows no such section.
func TestPromotionsPage(t *testing.T) {
	t.Parallel()
	// A live sandbox: its promotions' windows are around the wall clock the
	// copy reads them by.
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Sandbox: sandbox.Options{Live: true}})
	b := app.Browser(t)
	b.LoginDemo()
	want := app.Sandbox.Promotions(1001)
	var p *testapp.Page
	waitUntil(t, "the promotions in the copy", func() bool {
		p = b.Get("/promotions")
		return p.Status == http.StatusOK && p.Has("#promotions-table")
	})
	if !p.Has(`nav a[href$="/promotions"]`) {
		t.Error("no link to the promotions in the navigation")
	}
	for i, w := range want {
		row := p.Doc.Find("[data-testid=promotion-" + strconv.FormatInt(w.ID, 10) + "]")
		if row.Length() != 1 {
			h, _ := p.Doc.Find("#promotions-table").Html()
			t.Fatalf("promotion %s (%d) not listed: %s", w.Name, w.ID, h)
		}
		if !strings.Contains(row.Text(), w.Name) || row.Find("[data-testid=add-until]").Text() == "—" ||
			row.Find("[data-testid=remove-until]").Text() == "—" || strings.TrimSpace(row.Find("[data-testid=floor]").Text()) == "" {
			t.Errorf("promotion %d row: %q", i, row.Text())
		}
		if got := row.Find("[data-testid=upcoming]").Length() == 1; got != (i == 1) {
			t.Errorf("promotion %s upcoming: %t", w.Name, got)
		}
	}
	running := want[0]
	cards := p.Doc.Find("[data-testid=cards-of-" + strconv.FormatInt(running.ID, 10) + "] tbody tr")
	if cards.Length() != len(running.Cards) {
		t.Errorf("%d cards shown, want %d", cards.Length(), len(running.Cards))
	}
	q := b.Get("/promotions?promo=" + strconv.FormatInt(running.ID, 10) + "&q=" + running.Cards[1])
	if got := q.Doc.Find("#promotion-cards-table tbody tr"); got.Length() != 1 || got.AttrOr("data-testid", "") != "promo-card-"+running.Cards[1] {
		t.Errorf("search for %s: %d rows", running.Cards[1], got.Length())
	}
	up := want[1]
	u := b.Get("/promotions?promo=" + strconv.FormatInt(up.ID, 10))
	if u.Doc.Find("#promotion-cards-table tbody tr").Length() != len(up.Cards) {
		t.Errorf("the upcoming promotion's cards: %d, want %d", u.Doc.Find("#promotion-cards-table tbody tr").Length(), len(up.Cards))
	}

	c := testapp.New(t, testapp.Options{Catalog: true})
	cb := c.Browser(t)
	cb.LoginDemo()
	o := cb.Get("/")
	if o.Has(`nav a[href$="/promotions"]`) {
		t.Error("the contract profile links to promotions")
	}
	if r := cb.Get("/promotions"); r.Status != http.StatusOK || r.Has("#promotions-table") || !r.Has("[data-testid=empty]") {
		t.Errorf("contract profile: %d, table %t", r.Status, r.Has("#promotions-table"))
	}
}
