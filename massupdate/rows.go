// Package massupdate is the one mass-update engine of Seller Desk: the
// validation of price and stock rows (rows.go), sending them in chunks
// under the per-seller lock with a typed outcome per row (send.go), turning
// file rows into job items (preview.go), reading the catalogue back
// (catalog.go), and the executor that bulk jobs run (executor.go). The
// prices and nomenclature forms and the bulk jobs all go through it.
package massupdate

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// Statuses are the nomenclature statuses the marketplace uses (field
// notes); a row may set only one of them.
var Statuses = []string{"online", "in_moderation", "rejected", "disabled"}

// MaxFormRows bounds the rows of one mass-update form.
const MaxFormRows = 10_000

// MaxPrice is the largest price the form accepts: anything above is a typo.
const MaxPrice = apiclient.Money(100_000_000_00)

// MaxQuantity is the largest stock quantity the form accepts.
const MaxQuantity = 1_000_000

// ErrFormShape reports a form whose parallel fields differ in length. Like
// the other refusals of a whole form it is an *i18n.Error: the error page
// reads its message in the user's language.
var ErrFormShape = i18n.Err("mass.form_shape", nil)

// columns reads parallel form arrays that must all have the same length.
func columns(form url.Values, names ...string) ([][]string, int, error) {
	out := make([][]string, len(names))
	n := len(form[names[0]])
	for i, name := range names {
		out[i] = form[name]
		if len(out[i]) != n {
			return nil, 0, ErrFormShape
		}
	}
	if n > MaxFormRows {
		return nil, 0, i18n.Err("mass.form_rows", map[string]any{"Rows": strconv.Itoa(n), "Max": strconv.Itoa(MaxFormRows)})
	}
	return out, n, nil
}

// PriceInput is one row of the prices form as typed.
type PriceInput struct {
	SKU                                     string
	OrigPrice, OrigSale, OrigStart, OrigEnd string
	Price, Sale, Start, End                 string
}

// PriceColumns are the prices form's parallel fields.
var PriceColumns = []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"}

// BindPriceInputs reads the rows of a prices form.
func BindPriceInputs(form url.Values) ([]PriceInput, error) {
	cols, n, err := columns(form, PriceColumns...)
	if err != nil {
		return nil, err
	}
	rows := make([]PriceInput, n)
	for i := range rows {
		rows[i] = PriceInput{
			SKU: strings.TrimSpace(cols[0][i]), OrigPrice: cols[1][i], OrigSale: cols[2][i], OrigStart: cols[3][i], OrigEnd: cols[4][i],
			Price: strings.TrimSpace(cols[5][i]), Sale: strings.TrimSpace(cols[6][i]), Start: strings.TrimSpace(cols[7][i]), End: strings.TrimSpace(cols[8][i]),
		}
	}
	return rows, nil
}

// SameMoney compares a typed amount with the one the page showed, so
// "1299.5" and "1299.50" count as unchanged.
func SameMoney(typed, orig string) bool {
	if typed == orig {
		return true
	}
	a, err1 := apiclient.ParseMoney(typed)
	b, err2 := apiclient.ParseMoney(orig)
	return err1 == nil && err2 == nil && a == b
}

// Changed reports whether the user edited the row.
func (r PriceInput) Changed() bool {
	return !SameMoney(r.Price, r.OrigPrice) || !SameMoney(r.Sale, r.OrigSale) || r.Start != r.OrigStart || r.End != r.OrigEnd
}

// ParsePrice reads a typed amount, or explains why it is refused, in words
// for the field.
//
// Messages here and below are i18n.Msgs (catalogue keys and their
// arguments): the views translate them (format.Message).
func ParsePrice(s string) (apiclient.Money, i18n.Msgs) {
	return parseAmount(s, false)
}

// parseAmount is ParsePrice for the price or, sale set, the sale price.
func parseAmount(s string, sale bool) (apiclient.Money, i18n.Msgs) {
	m, err := apiclient.ParseMoney(s)
	switch {
	case errors.Is(err, apiclient.ErrMoneyEmpty):
		return 0, i18n.Of(i18n.M("mass.price_empty", nil))
	case errors.Is(err, apiclient.ErrMoneyPrecision):
		return 0, i18n.Of(i18n.M("mass.price_decimals", nil))
	case errors.Is(err, apiclient.ErrMoneyRange):
		return 0, i18n.Of(i18n.M("mass.price_huge", nil))
	case err != nil:
		return 0, i18n.Of(i18n.M("mass.price_number", nil))
	case m <= 0 && sale:
		return 0, i18n.Of(i18n.M("mass.sale_positive", nil))
	case m <= 0:
		return 0, i18n.Of(i18n.M("mass.price_positive", nil))
	case m > MaxPrice && sale:
		return 0, i18n.Of(i18n.M("mass.sale_max", map[string]any{"Max": apiclient.Money(int64(MaxPrice)).Decimal()}))
	case m > MaxPrice:
		return 0, i18n.Of(i18n.M("mass.price_max", map[string]any{"Max": apiclient.Money(int64(MaxPrice)).Decimal()}))
	}
	return m, nil
}

func parseDate(s string) (time.Time, i18n.Msgs) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, i18n.Of(i18n.M("mass.date_format", nil))
	}
	return t, nil
}

// setErr records a field's problem, making the map on first use.
func setErr(errs map[string]i18n.Msgs, field string, msg i18n.Msgs) map[string]i18n.Msgs {
	if errs == nil {
		errs = make(map[string]i18n.Msgs, 2)
	}
	errs[field] = msg
	return errs
}

// priceMoved reports whether the user changed the price of a row whose
// baseline is known and left its sale price as it was.
func (r PriceInput) priceMoved() bool {
	return r.OrigPrice != "" && !SameMoney(r.Price, r.OrigPrice) && r.Sale != "" && SameMoney(r.Sale, r.OrigSale)
}

// Validate checks a changed row and builds the update to send. Problems are
// keyed by field: price, sale, start, end.
func (r PriceInput) Validate() (apiclient.PriceUpdate, map[string]i18n.Msgs) {
	var errs map[string]i18n.Msgs // made at the first problem: most rows have none
	upd := apiclient.PriceUpdate{MarketplaceSKU: r.SKU}
	price, msg := ParsePrice(r.Price)
	if len(msg) > 0 {
		errs = setErr(errs, "price", msg)
	}
	upd.Price = price
	if r.Sale != "" {
		sale, msg := parseAmount(r.Sale, true)
		switch {
		case len(msg) > 0:
			errs = setErr(errs, "sale", msg)
		case len(errs["price"]) == 0 && sale > price && r.priceMoved():
			// The price dropped under a sale the user left as it was: the
			// price is the likely typo, so the price is the field named.
			errs = setErr(errs, "price", i18n.Of(i18n.M("mass.price_below_sale", map[string]any{"Sale": apiclient.Money(int64(sale)).Decimal()})))
		case len(errs["price"]) == 0 && sale > price:
			errs = setErr(errs, "sale", i18n.Of(i18n.M("mass.sale_above_price", map[string]any{"Price": apiclient.Money(int64(price)).Decimal()})))
		default:
			upd.SalePrice = &sale
		}
	}
	var start, end time.Time
	if r.Start != "" {
		var msg i18n.Msgs
		if start, msg = parseDate(r.Start); len(msg) > 0 {
			errs = setErr(errs, "start", msg)
		}
		upd.SaleStartDate = r.Start
	}
	if r.End != "" {
		var msg i18n.Msgs
		if end, msg = parseDate(r.End); len(msg) > 0 {
			errs = setErr(errs, "end", msg)
		}
		upd.SaleEndDate = r.End
	}
	if (r.Start != "" || r.End != "") && r.Sale == "" && len(errs["sale"]) == 0 {
		errs = setErr(errs, "sale", i18n.Of(i18n.M("mass.sale_window", nil)))
	}
	if !start.IsZero() && !end.IsZero() && end.Before(start) {
		errs = setErr(errs, "end", i18n.Of(i18n.M("mass.sale_end_before_start", nil)))
	}
	if r.SKU == "" {
		errs = setErr(errs, "price", i18n.Of(i18n.M("mass.row_no_sku", nil)))
	}
	if len(errs) > 0 {
		return apiclient.PriceUpdate{}, errs
	}
	return upd, nil
}

// StockInput is one row of the nomenclature form as typed.
type StockInput struct {
	Warehouse, Barcode  string
	OrigQty, OrigStatus string
	Qty, Status         string
	// noWarehouse: the profile's records have no warehouse (the lamoda
	// profile), so a row is keyed by its barcode alone.
	noWarehouse bool
}

// StockColumns are the nomenclature form's parallel fields.
var StockColumns = []string{"wh", "bc", "orig_qty", "orig_status", "qty", "status"}

// BindStockInputs reads the rows of a nomenclature form.
func BindStockInputs(form url.Values) ([]StockInput, error) {
	cols, n, err := columns(form, StockColumns...)
	if err != nil {
		return nil, err
	}
	rows := make([]StockInput, n)
	for i := range rows {
		rows[i] = StockInput{
			Warehouse: strings.TrimSpace(cols[0][i]), Barcode: strings.TrimSpace(cols[1][i]), OrigQty: cols[2][i], OrigStatus: cols[3][i],
			Qty: strings.TrimSpace(cols[4][i]), Status: strings.TrimSpace(cols[5][i]),
		}
	}
	return rows, nil
}

// Key identifies a stock row: warehouse|barcode.
func (r StockInput) Key() string { return r.Warehouse + "|" + r.Barcode }

// Key identifies a price row: its marketplace SKU.
func (r PriceInput) Key() string { return r.SKU }

// QtyChanged reports whether the quantity was edited ("007" is 7).
func (r StockInput) QtyChanged() bool {
	if r.Qty == r.OrigQty {
		return false
	}
	a, err1 := strconv.Atoi(r.Qty)
	b, err2 := strconv.Atoi(r.OrigQty)
	return err1 != nil || err2 != nil || a != b
}

// Changed reports whether the user edited the row.
func (r StockInput) Changed() bool { return r.QtyChanged() || r.Status != r.OrigStatus }

// ParseQuantity accepts a whole number of pieces, ASCII digits only.
func ParseQuantity(s string) (int, i18n.Msgs) {
	if s == "" {
		return 0, i18n.Of(i18n.M("mass.qty_empty", nil))
	}
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, i18n.Of(i18n.M("mass.qty_whole", nil))
	}
	if neg {
		return 0, i18n.Of(i18n.M("mass.qty_negative", nil))
	}
	q, _ := strconv.Atoi(digits)
	if len(digits) > 7 || q > MaxQuantity {
		return 0, i18n.Of(i18n.M("mass.qty_max", map[string]any{"Max": strconv.Itoa(MaxQuantity)}))
	}
	return q, nil
}

// Validate checks a changed row and builds the item to send. Problems are
// keyed by field: quantity, status.
func (r StockInput) Validate() (apiclient.StoreItem, map[string]i18n.Msgs) {
	errs := map[string]i18n.Msgs{}
	item := apiclient.StoreItem{WarehouseCode: r.Warehouse, Barcode: r.Barcode}
	if r.QtyChanged() {
		q, msg := ParseQuantity(r.Qty)
		if len(msg) > 0 {
			errs["quantity"] = msg
		} else {
			item.Quantity = &q
		}
	}
	if r.Status != r.OrigStatus {
		if !slices.Contains(Statuses, r.Status) {
			errs["status"] = i18n.Of(i18n.M("mass.status_unknown", nil))
		} else if why := StatusRefused(r.OrigStatus, r.Status); len(why) > 0 {
			errs["status"] = why // Never sent to be refused
		} else {
			item.Status = r.Status
		}
	}
	if (r.Warehouse == "" && !r.noWarehouse) || r.Barcode == "" {
		errs["quantity"] = i18n.Of(i18n.M("mass.row_no_key", nil))
	}
	if len(errs) > 0 {
		return apiclient.StoreItem{}, errs
	}
	return item, nil
}

// Checked is a form's edited rows, checked: the rows as typed by key, the
// field problems of the invalid ones by key, and what to send for the
// rest, in form order.
type Checked[In, Out any] struct {
	Inputs  map[string]In
	Invalid map[string]map[string]i18n.Msgs
	Send    []Out
	// Held are the valid rows not sent until the user confirms them
	// (HoldBeyondGuard), by key.
	Held map[string]Held
}

// formRow is a row of a mass-update form.
type formRow[Out any] interface {
	Changed() bool
	Key() string
	Validate() (Out, map[string]i18n.Msgs)
}

func check[In formRow[Out], Out any](rows []In, dupField string, dupMessage i18n.Msgs) Checked[In, Out] {
	c := Checked[In, Out]{Inputs: make(map[string]In, len(rows)), Invalid: map[string]map[string]i18n.Msgs{}, Send: make([]Out, 0, len(rows))}
	for _, r := range rows {
		if !r.Changed() {
			continue
		}
		k := r.Key()
		if _, dup := c.Inputs[k]; dup {
			c.Invalid[k] = map[string]i18n.Msgs{dupField: dupMessage}
			continue
		}
		c.Inputs[k] = r
		out, errs := r.Validate()
		if errs != nil {
			c.Invalid[k] = errs
			continue
		}
		c.Send = append(c.Send, out)
	}
	return c
}

// CheckPrices checks the edited rows of a prices form; a SKU edited twice
// is refused.
func CheckPrices(rows []PriceInput) Checked[PriceInput, apiclient.PriceUpdate] {
	return check[PriceInput, apiclient.PriceUpdate](rows, "price", i18n.Of(i18n.M("mass.form_dup_sku", nil)))
}

// CheckStock checks the edited rows of a nomenclature form; a record
// edited twice is refused.
func CheckStock(rows []StockInput) Checked[StockInput, apiclient.StoreItem] {
	return check[StockInput, apiclient.StoreItem](rows, "quantity", i18n.Of(i18n.M("mass.form_dup_row", nil)))
}

// CheckSKUStock is CheckStock where records have no warehouse (the lamoda
// profile): a row is keyed by its barcode alone.
func CheckSKUStock(rows []StockInput) Checked[StockInput, apiclient.StoreItem] {
	for i := range rows {
		rows[i].noWarehouse = true
	}
	return CheckStock(rows)
}
