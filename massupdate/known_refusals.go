package massupdate

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// MarketDropLimit is the marketplace's known price rule: a price or sale
// price more than this many percent below the current price is refused as
// a business error (field notes, "a price change above a marketplace
// guard (e.g. more than 90 % drop)"; the sandbox's setPriceOne). Such a
// row is flagged before it is sent, and sent only when the user confirms
// that row itself.
const MarketDropLimit = 90

// RefusedDrop reports whether the marketplace's known rule refuses
// newKop against the current price current (kopecks).
func RefusedDrop(current, newKop int64) bool {
	return current > 0 && newKop > 0 && newKop*100 < current*(100-MarketDropLimit)
}

// RefusedPrice says why the marketplace's known rule will refuse upd
// against the current price cur, or "" when it will not.
func RefusedPrice(cur PriceNow, upd apiclient.PriceUpdate) i18n.Msgs {
	price := RefusedDrop(cur.Price, int64(upd.Price))
	sale := upd.SalePrice != nil && RefusedDrop(cur.Price, int64(*upd.SalePrice))
	args := map[string]any{"Limit": strconv.Itoa(MarketDropLimit), "Current": apiclient.Money(cur.Price).Decimal(), "Price": apiclient.Money(int64(upd.Price)).Decimal()}
	if upd.SalePrice != nil {
		args["Sale"] = apiclient.Money(int64(*upd.SalePrice)).Decimal()
	}
	switch {
	case price && sale:
		return i18n.Of(i18n.M("mass.drop_both", args))
	case price:
		return i18n.Of(i18n.M("mass.drop_price", args))
	case sale:
		return i18n.Of(i18n.M("mass.drop_sale", args))
	}
	return nil
}

// Doomed reports whether a price job row is one the marketplace's known
// rule will refuse (from its payload and the price seen at preview). Such
// a row is sent only when confirmed on its own: "confirm all" does not
// cover it.
func Doomed(kind string, it bulkjobs.Item) bool {
	if kind == "stock" || it.Payload == "" || it.Current == "" {
		return false
	}
	var cur PriceNow
	var upd apiclient.PriceUpdate
	if json.Unmarshal([]byte(it.Current), &cur) != nil || json.Unmarshal([]byte(it.Payload), &upd) != nil {
		return false
	}
	return len(RefusedPrice(cur, upd)) > 0
}

// Named adds each known row's product name to its typed cells (key
// "name", bounded), so the grids can show it beside the SKU or the
// warehouse|barcode key.
func (p Previewer) Named(items []bulkjobs.Item) {
	if p.Catalog == nil {
		return
	}
	for i := range items {
		it := &items[i]
		rec, ok := p.Catalog.ByKey[it.Key]
		if !ok {
			rec, ok = p.Catalog.BySKU[it.Key]
		}
		if !ok || rec.Name == "" {
			continue
		}
		var typed map[string]string
		if json.Unmarshal([]byte(it.Typed), &typed) != nil || typed == nil {
			typed = map[string]string{}
		}
		typed["name"] = shortName(rec.Name)
		it.Typed = mustJSON(typed)
	}
}

// maxNameKept bounds the product name kept with a job row.
const maxNameKept = 200

// shortName is name cleaned of control characters and cut to maxNameKept
// characters, "…" marking a cut.
func shortName(name string) string {
	name = i18n.Clean(name)
	if utf8.RuneCountInString(name) <= maxNameKept {
		return name
	}
	return strings.TrimRightFunc(string([]rune(name)[:maxNameKept]), unicode.IsSpace) + "…"
}

// RowName is the product name Named kept with a row, or "".
func RowName(it bulkjobs.Item) string {
	if !strings.Contains(it.Typed, `"name"`) {
		return ""
	}
	var typed map[string]string
	_ = json.Unmarshal([]byte(it.Typed), &typed)
	return typed["name"]
}
