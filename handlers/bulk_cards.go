package handlers

// Bulk import where the marketplace keys prices by product card (the
// lamoda wire profile): a file's rows name sizes (marketplace SKUs); the
// rows of one card collapse to one item for the card, and rows that set
// different prices for one card are a preview error naming the rows. Stock
// rows are refused in the preview where the profile cannot send stock.
//
// bulk_import.go (preview) and bulkjobs.go (send) dispatch here.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// cardPayload is a card item's stored payload: the price update (keyed,
// for the catalogue look-ups of submit and read-back, by the first size
// the file named) plus the card and its sizes, which PriceUpdate does not
// serialise.
type cardPayload struct {
	apiclient.PriceUpdate
	Parent string   `json:"parentSku"`
	Sizes  []string `json:"sizes,omitempty"`
}

// maxCardSizes bounds the sizes kept in a payload.
const maxCardSizes = 200

// cardPriceItems checks the file's price rows as priceItems does, then
// collapses each card's rows to the first: the others are skipped as part
// of it when they say the same, and every row of the card is invalid when
// they do not.
func (p previewer) cardPriceItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := p.priceItems(t, m)
	sizes := map[string][]string{}
	for sku, n := range p.catalog.bySKU {
		if n.ParentSKU != "" {
			sizes[n.ParentSKU] = append(sizes[n.ParentSKU], sku)
		}
	}
	type rowOf struct {
		i     int
		typed map[string]string
	}
	cards := map[string][]rowOf{}
	var order []string
	for i, it := range items {
		if it.Flag == bulkjobs.FlagInvalid && it.Payload == "" && it.Current == "" {
			continue // no such SKU, no SKU, or a repeated row: already explained
		}
		rec, ok := p.catalog.bySKU[it.Key]
		if !ok {
			continue
		}
		if rec.ParentSKU == "" {
			items[i].Flag, items[i].Payload, items[i].HasNum = bulkjobs.FlagInvalid, "", false
			items[i].Message = "The marketplace names no product card for this SKU, and prices are set per card."
			continue
		}
		var typed map[string]string
		_ = json.Unmarshal([]byte(it.Typed), &typed)
		if _, ok := cards[rec.ParentSKU]; !ok {
			order = append(order, rec.ParentSKU)
		}
		cards[rec.ParentSKU] = append(cards[rec.ParentSKU], rowOf{i: i, typed: typed})
	}
	for _, parent := range order {
		rows := cards[parent]
		first := rows[0]
		conflict := false
		for _, r := range rows[1:] {
			if !samePriceCells(first.typed, r.typed) {
				conflict = true
				break
			}
		}
		if conflict {
			lines := make([]string, len(rows))
			for j, r := range rows {
				lines[j] = fmt.Sprint(items[r.i].Line)
			}
			msg := fmt.Sprintf("Rows %s set different prices for product card %s, which has one price for all its sizes: make them agree.",
				strings.Join(lines, ", "), parent)
			for _, r := range rows {
				it := &items[r.i]
				it.Flag, it.Payload, it.HasNum, it.Message = bulkjobs.FlagInvalid, "", false, msg
			}
			continue
		}
		// The first row carries the card's item; the rest ride along.
		if it := &items[first.i]; it.Payload != "" {
			var upd apiclient.PriceUpdate
			_ = json.Unmarshal([]byte(it.Payload), &upd)
			s := sizes[parent]
			slices.Sort(s)
			it.Payload = mustJSON(cardPayload{PriceUpdate: upd, Parent: parent, Sizes: s[:min(len(s), maxCardSizes)]})
			if it.Flag == bulkjobs.FlagOK || it.Flag == bulkjobs.FlagGuard {
				it.NewText += " (card " + parent + ")"
			}
		}
		for _, r := range rows[1:] {
			it := &items[r.i]
			if it.Flag == bulkjobs.FlagInvalid {
				continue // its own problem (a bad value) stays
			}
			it.Flag, it.Payload, it.HasNum = bulkjobs.FlagUnchanged, "", false
			it.Message = fmt.Sprintf("Same product card (%s) as row %d: sent once, with it.", parent, items[first.i].Line)
		}
	}
	return items
}

// samePriceCells compares two rows' typed price cells.
func samePriceCells(a, b map[string]string) bool {
	return sameMoney(a["price"], b["price"]) && sameMoney(a["sale"], b["sale"]) && a["start"] == b["start"] && a["end"] == b["end"]
}

// refuseStockItems marks every stock row of a preview invalid with why:
// nothing of it can be sent in this profile.
func refuseStockItems(items []bulkjobs.Item, reason string) []bulkjobs.Item {
	for i := range items {
		items[i].Flag, items[i].Payload, items[i].HasNum, items[i].Message = bulkjobs.FlagInvalid, "", false, reason
	}
	return items
}

// cardPricesRequest builds a chunk's set-prices request from card items
// and the way back from an item error to the item's key: by card, else by
// any size of the card.
func cardPricesRequest(seller int64, items []bulkjobs.Item) (*apiclient.SetPricesRequest, func(apiclient.ItemError) string, error) {
	req := &apiclient.SetPricesRequest{SellerID: seller}
	byCard := map[string]string{}
	bySize := map[string]string{}
	for _, it := range items {
		var cp cardPayload
		if err := json.Unmarshal([]byte(it.Payload), &cp); err != nil || cp.Parent == "" {
			return nil, nil, fmt.Errorf("a stored row could not be read")
		}
		cp.PriceUpdate.ParentSKU = cp.Parent
		req.Prices = append(req.Prices, cp.PriceUpdate)
		byCard[cp.Parent] = it.Key
		bySize[cp.MarketplaceSKU] = it.Key
		for _, s := range cp.Sizes {
			bySize[s] = it.Key
		}
	}
	return req, func(e apiclient.ItemError) string {
		if k, ok := byCard[e.ParentSKU]; ok {
			return k
		}
		return bySize[e.MarketplaceSKU]
	}, nil
}
