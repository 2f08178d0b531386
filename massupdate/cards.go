package massupdate

import (
	"context"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// CardPrice is one product card's price update, where the marketplace keys
// prices by card (the lamoda wire profile, apiclient.Client.PricesByCard).
// It is also a card job item's stored payload: the price update (whose
// MarketplaceSKU, in a job, is the first size the file named, for the
// catalogue look-ups of submit and read-back) plus the card and its sizes,
// which PriceUpdate does not serialise.
type CardPrice struct {
	apiclient.PriceUpdate
	Parent string   `json:"parentSku"`
	Sizes  []string `json:"sizes,omitempty"`
	// Force sends the card with the marketplace's "send anyway" past its
	// price check. Only the caller sets it (the prices form, for the cards
	// the user confirmed); it is never stored, so a bulk job never sends
	// it.
	Force bool `json:"-"`
}

// SizeKey is the error key of an item error that names a size
// (lamodaSku) instead of its card: Cards' alias for the size, and, when
// the card's sizes are not known (the prices form), Report.Unmatched's key
// for the caller to map to its card (see Report.Reject).
func SizeKey(sku string) string { return "sku:" + sku }

// Cards sends card price updates through set-prices, one item per card,
// keyed by the card (lamodaParentSku). An item error is matched by the
// card it names, else by the size it names (one of the card's Sizes or its
// MarketplaceSKU). Cards confirmed with Force travel in requests of their
// own, after the others when the caller lists them so.
var Cards = Kind[CardPrice]{
	Name: "prices",
	Key:  func(c CardPrice) string { return c.Parent },
	ErrorKey: func(e apiclient.ItemError) string {
		if e.ParentSKU != "" {
			return e.ParentSKU
		}
		return SizeKey(e.MarketplaceSKU)
	},
	Aliases: func(c CardPrice) []string {
		out := make([]string, 0, len(c.Sizes)+1)
		if c.MarketplaceSKU != "" {
			out = append(out, SizeKey(c.MarketplaceSKU))
		}
		for _, s := range c.Sizes {
			out = append(out, SizeKey(s))
		}
		return out
	},
	Group: func(c CardPrice) string {
		if c.Force {
			return "force"
		}
		return ""
	},
	Send: func(ctx context.Context, acct *apiclient.Account, seller int64, chunk []CardPrice) (*apiclient.UpdateResult, error) {
		req := &apiclient.SetPricesRequest{SellerID: seller, Force: len(chunk) > 0 && chunk[0].Force}
		req.Prices = make([]apiclient.PriceUpdate, len(chunk))
		for i, c := range chunk {
			req.Prices[i] = c.PriceUpdate
			req.Prices[i].ParentSKU = c.Parent
		}
		return acct.Seller.SetPrices(ctx, req)
	},
	// every size of an accepted card
	Change: func(c CardPrice) copystore.Change { return priceChange(c.Parent, c.PriceUpdate) },
}

// CheckCards checks the edited rows of the prices form by card (a row's
// SKU is its card); a card edited twice is refused. The cards in force
// (those the user confirmed past a price-check warning) are sent with
// Force, after the others; no other card is.
func CheckCards(rows []PriceInput, force map[string]bool) Checked[PriceInput, CardPrice] {
	c := check[PriceInput, apiclient.PriceUpdate](rows, "price", i18n.Of(i18n.M("mass.form_dup_card", nil)))
	out := Checked[PriceInput, CardPrice]{Inputs: c.Inputs, Invalid: c.Invalid, Send: make([]CardPrice, 0, len(c.Send))}
	var forced []CardPrice
	for _, u := range c.Send {
		cp := CardPrice{PriceUpdate: u, Parent: u.MarketplaceSKU}
		cp.MarketplaceSKU = ""
		if force[cp.Parent] {
			cp.Force = true
			forced = append(forced, cp)
			continue
		}
		out.Send = append(out.Send, cp)
	}
	out.Send = append(out.Send, forced...)
	return out
}
