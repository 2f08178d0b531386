package massupdate

// Bulk import where the marketplace keys prices by product card (the
// lamoda wire profile): a file's rows name sizes (marketplace SKUs); the
// rows of one card collapse to one item for the card, and rows that set
// different prices for one card are a preview error naming the rows. Stock
// rows are keyed by barcode and carry the seller SKU the filtered writes
// select by.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// maxCardSizes bounds the sizes kept in a card item's payload.
const maxCardSizes = 200

// CardPriceItems checks the file's price rows as PriceItems does, then
// collapses each card's rows to the first, whose payload becomes the
// card's CardPrice: the others are skipped as part of it when they say the
// same, and every row of the card is invalid when they do not.
func (p Previewer) CardPriceItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := p.PriceItems(t, m)
	sizes := map[string][]string{}
	for sku, n := range p.Catalog.BySKU {
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
		rec, ok := p.Catalog.BySKU[it.Key]
		if !ok {
			continue
		}
		if rec.ParentSKU == "" {
			items[i].Flag, items[i].Payload, items[i].HasNum = bulkjobs.FlagInvalid, "", false
			items[i].Message = i18n.Of(i18n.M("mass.no_card", nil))
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
		unchanged := true
		for _, r := range rows {
			unchanged = unchanged && items[r.i].Flag == bulkjobs.FlagUnchanged
		}
		if unchanged {
			// Each row repeats its own size's price (the marketplace
			// may list a card's sizes at different prices): the card
			// stays as it is, as an exported file imported unchanged.
			continue
		}
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
			msg := i18n.Of(i18n.M("mass.card_conflict", map[string]any{"Rows": strings.Join(lines, ", "), "Card": parent}))
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
			it.Payload = mustJSON(CardPrice{PriceUpdate: upd, Parent: parent, Sizes: s[:min(len(s), maxCardSizes)]})
			if it.Flag == bulkjobs.FlagOK || it.Flag == bulkjobs.FlagGuard {
				it.NewText = i18n.Join(it.NewText, i18n.Of(i18n.M("mass.card_of", map[string]any{"Card": parent})))
			}
		}
		for _, r := range rows[1:] {
			it := &items[r.i]
			if it.Flag == bulkjobs.FlagInvalid {
				continue // its own problem (a bad value) stays
			}
			it.Flag, it.Payload, it.HasNum = bulkjobs.FlagUnchanged, "", false
			it.Message = i18n.Of(i18n.M("mass.same_card", map[string]any{"Card": parent, "Row": strconv.Itoa(items[first.i].Line)}))
		}
	}
	return items
}

// samePriceCells compares two rows' typed price cells.
func samePriceCells(a, b map[string]string) bool {
	return SameMoney(a["price"], b["price"]) && SameMoney(a["sale"], b["sale"]) && a["start"] == b["start"] && a["end"] == b["end"]
}

// FilterStockItems checks the file's stock rows where records have no
// warehouse and are written by filter (the lamoda profile): rows keyed by
// barcode (the warehouse cell may be empty), each payload a SKUStock with
// the record's seller SKU, which the filtered writes select it by.
func (p Previewer) FilterStockItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := p.stockItems(t, m, true)
	for i := range items {
		it := &items[i]
		if it.Payload == "" {
			continue
		}
		rec := p.Catalog.ByKey[it.Key]
		if rec.SellerSKU == "" {
			it.Flag, it.Payload, it.HasNum = bulkjobs.FlagInvalid, "", false
			it.Message = i18n.Of(i18n.M("mass.filter_no_sku", nil))
			continue
		}
		var item apiclient.StoreItem
		_ = json.Unmarshal([]byte(it.Payload), &item)
		it.Payload = mustJSON(SKUStock{StoreItem: item, SellerSKU: rec.SellerSKU})
	}
	return items
}
