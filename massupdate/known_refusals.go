package massupdate

import (
	"encoding/json"
	"regexp"
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

// maxRefusalText bounds the marketplace text a known refusal is matched
// against: longer texts are shown as sent.
const maxRefusalText = 500

// amount is an amount as the marketplace writes it in its messages.
const amount = `-?\d{1,13}(?:\.\d{1,2})?`

// knownText is one refusal the marketplace words the same way each time:
// its pattern (anchored, matched against one message) and the catalogue key
// of the sentence said in its place; the pattern's named groups are the
// sentence's arguments.
type knownText struct {
	re  *regexp.Regexp
	key string
}

// knownTexts are the refusals the contract, the field notes and the lamoda
// Swagger name, in the words the marketplace sends them (one problem each;
// the store's shape joins several with "; ").
var knownTexts = []knownText{
	{regexp.MustCompile(`^(?P<Field>price|salePrice) (?P<Price>` + amount + `) is more than 90% below the current price (?P<Current>` + amount + `)$`), i18n.K("refusal.drop")},
	{regexp.MustCompile(`^the new price (?P<Price>` + amount + `) is less than half of the current (?P<Current>` + amount + `): confirm it \(force\) to apply$`), i18n.K("refusal.hold")},
	{regexp.MustCompile(`^stock (?P<Stock>\d{1,12}) is above the limit of (?P<Limit>\d{1,12})$`), i18n.K("refusal.stock_limit")},
	{regexp.MustCompile(`^moderation has not approved this product: it cannot be activated$`), i18n.K("refusal.moderation")},
	{regexp.MustCompile(`^status (?P<Status>in_moderation|rejected) is set by marketplace moderation, not by the seller$`), i18n.K("refusal.status_by_moderation")},
	{regexp.MustCompile(`^the product was rejected by moderation: correct its card before putting it online$`), i18n.K("refusal.moderation_rejected")},
	{regexp.MustCompile(`^the product is still in moderation and cannot go online yet$`), i18n.K("refusal.moderation_pending")},
	{regexp.MustCompile(`^warehouse (?P<Warehouse>\S{1,100}) does not belong to seller (?P<Seller>\d{1,20})$`), i18n.K("refusal.warehouse_foreign")},
	{regexp.MustCompile(`^nomenclature not found: warehouse (?P<Warehouse>\S{1,100}), barcode (?P<Barcode>\S{1,100})$`), i18n.K("refusal.record_not_found")},
	{regexp.MustCompile(`^product (?:card )?(?P<SKU>\S{1,100}) not found$`), i18n.K("refusal.product_not_found")},
	{regexp.MustCompile(`^quantity must be a non-negative integer$`), i18n.K("refusal.quantity_invalid")},
	{regexp.MustCompile(`^quantity must not exceed (?P<Max>\d{1,12})$`), i18n.K("refusal.quantity_max")},
	{regexp.MustCompile(`^status must be one of .{1,200}$`), i18n.K("refusal.status_invalid")},
	{regexp.MustCompile(`^nothing to update: give quantity or status$`), i18n.K("refusal.nothing")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) is required$`), i18n.K("refusal.required")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) must be a number$`), i18n.K("refusal.number")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) must be greater than 0$`), i18n.K("refusal.positive")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) must have at most 2 decimal places$`), i18n.K("refusal.decimals")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) must not exceed (?P<Max>` + amount + `)$`), i18n.K("refusal.max")},
	{regexp.MustCompile(`^(?P<Field>price|salePrice) is out of range(?: \(exponent\))?$`), i18n.K("refusal.range")},
	{regexp.MustCompile(`^salePrice must not exceed price$`), i18n.K("refusal.sale_above")},
	{regexp.MustCompile(`^(?P<Field>saleStartDate|saleEndDate) must be a date.{0,60}$`), i18n.K("refusal.date")},
	{regexp.MustCompile(`^saleEndDate must not be before saleStartDate$`), i18n.K("refusal.dates_order")},
}

// knownFields are the marketplace's field names the refusals name, each
// said by its catalogue label.
var knownFields = map[string]string{
	"price": i18n.K("refusal.field.price"), "salePrice": i18n.K("refusal.field.sale_price"),
	"saleStartDate": i18n.K("refusal.field.sale_start"), "saleEndDate": i18n.K("refusal.field.sale_end"),
}

// knownCodes are the item error codes the contract and the lamoda Swagger
// name, each with the sentence said for a refusal of that code whose text
// is not one of knownTexts.
var knownCodes = map[int]string{
	400: i18n.K("refusal.code_400"), 403: i18n.K("refusal.code_403"), 404: i18n.K("refusal.code_404"),
	409: i18n.K("refusal.code_409"), 422: i18n.K("refusal.code_422"),
}

// Refusal is what the marketplace said about one item, for the reader: a
// known refusal (its text, else its code) as a sentence in the reader's
// language with the marketplace's own words kept beside it, an unknown one
// exactly as sent. A text of several problems joined by "; " is read
// problem by problem; code 0 and an empty text are the code's sentence, or
// nothing.
func Refusal(code int, text string) i18n.Msgs {
	text = strings.TrimSpace(text)
	if text == "" {
		if key, ok := knownCodes[code]; ok {
			return i18n.Of(i18n.Msg{Key: key})
		}
		return nil
	}
	if len(text) > maxRefusalText {
		return i18n.Plain(text)
	}
	var out i18n.Msgs
	for _, part := range strings.Split(text, "; ") {
		m, ok := knownRefusal(strings.TrimSpace(part))
		if !ok {
			out = nil
			break
		}
		out = append(out, m)
	}
	if out == nil {
		key, ok := knownCodes[code]
		if !ok {
			return i18n.Plain(text)
		}
		out = i18n.Of(i18n.Msg{Key: key})
	}
	return i18n.Join(out, i18n.Of(i18n.M("refusal.said", map[string]any{"Text": i18n.Plain(text)})))
}

// knownRefusal is the sentence for one known problem text.
func knownRefusal(s string) (i18n.Msg, bool) {
	for _, k := range knownTexts {
		sub := k.re.FindStringSubmatch(s)
		if sub == nil {
			continue
		}
		args := map[string]any{}
		for i, name := range k.re.SubexpNames() {
			if name == "" || i >= len(sub) {
				continue
			}
			switch name {
			case "Field":
				args[name] = i18n.Msg{Key: knownFields[sub[i]]}
				continue
			case "Status":
				args[name] = i18n.Msg{Status: sub[i]} // by its label
				continue
			}
			args[name] = sub[i]
		}
		if len(args) == 0 {
			args = nil
		}
		return i18n.Msg{Key: k.key, Args: args}, true
	}
	return i18n.Msg{}, false
}
