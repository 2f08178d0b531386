package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestCardPricesShowQuarantine (Seller API v2): a card whose new price
// the marketplace holds for review (QUARANTINE in the v2 sell values, as
// a job's read-back finds it and keeps it in the local copy) shows on the
// card prices form as a state of its own: its label, in the tone of a
// change still waiting (neither applied nor refused), on the card and on
// its size.
func TestCardPricesShowQuarantine(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Catalog: true, Sandbox: sandbox.Options{Live: true},
		APIOptions: func(o *apiclient.Options) { o.PriceAPI = apiclient.PriceAPIV2 }})
	b := app.Browser(t)
	b.LoginDemo()
	held := cardsOf(app.Sandbox, 1001)[2]
	copyDone(t, app, 1) // no pass left to overwrite what the read-back keeps
	size := held.sizes[0]
	var rec apiclient.Nomenclature
	for _, n := range app.Sandbox.Products(1001) {
		if n.MarketplaceSKU == size.MarketplaceSKU {
			rec = apiclient.Nomenclature{MarketplaceSKU: n.MarketplaceSKU, ParentSKU: n.ParentSKU, Barcode: n.Barcode, // no warehouse in the lamoda profile
				Price: apiclient.Money(n.Price), SalePrice: apiclient.Money(n.Price), PriceUpdateStatus: apiclient.PriceStatusQuarantine}
		}
	}
	// Accepted through the dashboard, then read back held for review.
	k := copyKey1001
	lower := size.Price / 3
	ctx := context.Background()
	if err := app.Catalog.Store().Accept(ctx, k, []copystore.Change{{SKU: rec.MarketplaceSKU, Warehouse: rec.WarehouseCode, Barcode: rec.Barcode, Price: &lower}}); err != nil {
		t.Fatal(err)
	}
	if err := app.Catalog.Store().Confirm(ctx, k, time.Now().Add(time.Minute), []apiclient.Nomenclature{rec}); err != nil {
		t.Fatal(err)
	}
	p := b.Get("/prices?limit=100")
	for _, sel := range []string{"[data-testid=card-" + held.parent + "] tr[data-row]", "[data-testid=size-" + size.MarketplaceSKU + "]"} {
		badge := p.Doc.Find(sel + " .badge[data-status=QUARANTINE]")
		if badge.Length() != 1 {
			t.Errorf("%s shows no state held for review: %q", sel, p.Text(sel))
			continue
		}
		if got := strings.TrimSpace(badge.Text()); got != "held for review" {
			t.Errorf("%s: the state reads %q", sel, got)
		}
		if !badge.HasClass("warn") {
			t.Errorf("%s: the state's badge is %q, want the tone of a change still waiting (warn)", sel, badge.AttrOr("class", ""))
		}
	}
}
