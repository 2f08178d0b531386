package handlers

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// maxFormRows bounds the rows of one mass-update form.
const maxFormRows = 10_000

// maxPrice is the largest price the form accepts: anything above is a typo.
const maxPrice = apiclient.Money(100_000_000_00)

// maxQuantity is the largest stock quantity the form accepts.
const maxQuantity = 1_000_000

var errFormShape = errors.New("the form's columns do not line up; reload the page and try again")

// columns reads parallel form arrays that must all have the same length.
func columns(form url.Values, names ...string) ([][]string, int, error) {
	out := make([][]string, len(names))
	n := len(form[names[0]])
	for i, name := range names {
		out[i] = form[name]
		if len(out[i]) != n {
			return nil, 0, errFormShape
		}
	}
	if n > maxFormRows {
		return nil, 0, fmt.Errorf("the form has %d rows; submit at most %d at a time", n, maxFormRows)
	}
	return out, n, nil
}

// priceInput is one row of the prices form as typed.
type priceInput struct {
	SKU                                     string
	OrigPrice, OrigSale, OrigStart, OrigEnd string
	Price, Sale, Start, End                 string
}

var priceColumns = []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"}

func bindPriceInputs(form url.Values) ([]priceInput, error) {
	cols, n, err := columns(form, priceColumns...)
	if err != nil {
		return nil, err
	}
	rows := make([]priceInput, n)
	for i := range rows {
		rows[i] = priceInput{
			SKU: strings.TrimSpace(cols[0][i]), OrigPrice: cols[1][i], OrigSale: cols[2][i], OrigStart: cols[3][i], OrigEnd: cols[4][i],
			Price: strings.TrimSpace(cols[5][i]), Sale: strings.TrimSpace(cols[6][i]), Start: strings.TrimSpace(cols[7][i]), End: strings.TrimSpace(cols[8][i]),
		}
	}
	return rows, nil
}

// sameMoney compares a typed amount with the one the page showed, so
// "1299.5" and "1299.50" count as unchanged.
func sameMoney(typed, orig string) bool {
	if typed == orig {
		return true
	}
	a, err1 := apiclient.ParseMoney(typed)
	b, err2 := apiclient.ParseMoney(orig)
	return err1 == nil && err2 == nil && a == b
}

// changed reports whether the user edited the row.
func (r priceInput) changed() bool {
	return !sameMoney(r.Price, r.OrigPrice) || !sameMoney(r.Sale, r.OrigSale) || r.Start != r.OrigStart || r.End != r.OrigEnd
}

// moneyProblem explains why a typed amount is refused, in words for the
// field; "" when it is fine.
func parsePrice(s string) (apiclient.Money, string) {
	m, err := apiclient.ParseMoney(s)
	switch {
	case errors.Is(err, apiclient.ErrMoneyEmpty):
		return 0, "Enter a price."
	case errors.Is(err, apiclient.ErrMoneyPrecision):
		return 0, "Use at most 2 decimals (kopecks)."
	case errors.Is(err, apiclient.ErrMoneyRange):
		return 0, "This amount is far too large."
	case err != nil:
		return 0, "Enter a number, like 1299.50."
	case m <= 0:
		return 0, "The price must be above zero."
	case m > maxPrice:
		return 0, "The price must be at most " + format.Money(int64(maxPrice)) + "."
	}
	return m, ""
}

func parseDate(s string) (time.Time, string) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, "Enter a date as YYYY-MM-DD."
	}
	return t, ""
}

// setErr records a field's problem, making the map on first use.
func setErr(errs map[string]string, field, msg string) map[string]string {
	if errs == nil {
		errs = make(map[string]string, 2)
	}
	errs[field] = msg
	return errs
}

// validate checks a changed row and builds the update to send. Problems are
// keyed by field: price, sale, start, end.
func (r priceInput) validate() (apiclient.PriceUpdate, map[string]string) {
	var errs map[string]string // made at the first problem: most rows have none
	upd := apiclient.PriceUpdate{MarketplaceSKU: r.SKU}
	price, msg := parsePrice(r.Price)
	if msg != "" {
		errs = setErr(errs, "price", msg)
	}
	upd.Price = price
	if r.Sale != "" {
		sale, msg := parsePrice(r.Sale)
		switch {
		case msg != "":
			errs = setErr(errs, "sale", strings.Replace(msg, "The price", "The sale price", 1))
		case errs["price"] == "" && sale > price:
			errs = setErr(errs, "sale", "The sale price may not exceed the price ("+format.Money(int64(price))+"): lower it.")
		default:
			upd.SalePrice = &sale
		}
	}
	var start, end time.Time
	if r.Start != "" {
		var msg string
		if start, msg = parseDate(r.Start); msg != "" {
			errs = setErr(errs, "start", msg)
		}
		upd.SaleStartDate = r.Start
	}
	if r.End != "" {
		var msg string
		if end, msg = parseDate(r.End); msg != "" {
			errs = setErr(errs, "end", msg)
		}
		upd.SaleEndDate = r.End
	}
	if (r.Start != "" || r.End != "") && r.Sale == "" && errs["sale"] == "" {
		errs = setErr(errs, "sale", "Enter a sale price for the sale window.")
	}
	if !start.IsZero() && !end.IsZero() && end.Before(start) {
		errs = setErr(errs, "end", "The sale must end on or after its start.")
	}
	if r.SKU == "" {
		errs = setErr(errs, "price", "This row has no SKU; reload the page.")
	}
	if len(errs) > 0 {
		return apiclient.PriceUpdate{}, errs
	}
	return upd, nil
}

// stockInput is one row of the nomenclature form as typed.
type stockInput struct {
	Warehouse, Barcode  string
	OrigQty, OrigStatus string
	Qty, Status         string
}

var stockColumns = []string{"wh", "bc", "orig_qty", "orig_status", "qty", "status"}

func bindStockInputs(form url.Values) ([]stockInput, error) {
	cols, n, err := columns(form, stockColumns...)
	if err != nil {
		return nil, err
	}
	rows := make([]stockInput, n)
	for i := range rows {
		rows[i] = stockInput{
			Warehouse: strings.TrimSpace(cols[0][i]), Barcode: strings.TrimSpace(cols[1][i]), OrigQty: cols[2][i], OrigStatus: cols[3][i],
			Qty: strings.TrimSpace(cols[4][i]), Status: strings.TrimSpace(cols[5][i]),
		}
	}
	return rows, nil
}

func (r stockInput) key() string { return r.Warehouse + "|" + r.Barcode }

func (r priceInput) key() string { return r.SKU }

func (r stockInput) qtyChanged() bool {
	if r.Qty == r.OrigQty {
		return false
	}
	a, err1 := strconv.Atoi(r.Qty)
	b, err2 := strconv.Atoi(r.OrigQty)
	return err1 != nil || err2 != nil || a != b
}

func (r stockInput) changed() bool { return r.qtyChanged() || r.Status != r.OrigStatus }

// parseQuantity accepts a whole number of pieces, ASCII digits only.
func parseQuantity(s string) (int, string) {
	if s == "" {
		return 0, "Enter a quantity."
	}
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, "Enter a whole number of pieces."
	}
	if neg {
		return 0, "The quantity may not be negative."
	}
	if len(digits) > 7 {
		return 0, fmt.Sprintf("The quantity must be at most %d.", maxQuantity)
	}
	q, _ := strconv.Atoi(digits)
	if q > maxQuantity {
		return 0, fmt.Sprintf("The quantity must be at most %d.", maxQuantity)
	}
	return q, ""
}

func (r stockInput) validate() (apiclient.StoreItem, map[string]string) {
	errs := map[string]string{}
	item := apiclient.StoreItem{WarehouseCode: r.Warehouse, Barcode: r.Barcode}
	if r.qtyChanged() {
		q, msg := parseQuantity(r.Qty)
		if msg != "" {
			errs["quantity"] = msg
		} else {
			item.Quantity = &q
		}
	}
	if r.Status != r.OrigStatus {
		if !slices.Contains(nomenclatureStatuses, r.Status) {
			errs["status"] = "Choose one of the listed statuses."
		} else {
			item.Status = r.Status
		}
	}
	if r.Warehouse == "" || r.Barcode == "" {
		errs["quantity"] = "This row has no warehouse or barcode; reload the page."
	}
	if len(errs) > 0 {
		return apiclient.StoreItem{}, errs
	}
	return item, nil
}

// The forms whose unsent edits survive a detour through the login page.
const (
	draftPrices       = "prices"
	draftNomenclature = "nomenclature"
)

const draftKey = "draft-form"

// keepDraft marks a route's form as one whose changed rows are kept as a
// draft when the marketplace rejects the saved credentials mid-submit (see
// credentialsRejected).
func keepDraft(form string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Set(draftKey, form)
			return next(c)
		}
	}
}

// draftForm names the draft-keeping form of the request's route, or "".
func draftForm(c echo.Context) string {
	s, _ := c.Get(draftKey).(string)
	return s
}

// changedRowsOnly keeps the edited rows of a mass-update form: that is what
// the user would lose, and it keeps the draft small.
func changedRowsOnly(form string, v url.Values) url.Values {
	out := url.Values{}
	switch form {
	case draftPrices:
		rows, err := bindPriceInputs(v)
		if err != nil {
			return out
		}
		for _, r := range rows {
			if r.changed() {
				vals := []string{r.SKU, r.OrigPrice, r.OrigSale, r.OrigStart, r.OrigEnd, r.Price, r.Sale, r.Start, r.End}
				for i, col := range priceColumns {
					out[col] = append(out[col], vals[i])
				}
			}
		}
	case draftNomenclature:
		rows, err := bindStockInputs(v)
		if err != nil {
			return out
		}
		for _, r := range rows {
			if r.changed() {
				vals := []string{r.Warehouse, r.Barcode, r.OrigQty, r.OrigStatus, r.Qty, r.Status}
				for i, col := range stockColumns {
					out[col] = append(out[col], vals[i])
				}
			}
		}
	}
	return out
}
