package handlers

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/massupdate"
)

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
		rows, err := massupdate.BindPriceInputs(v)
		if err != nil {
			return out
		}
		for _, r := range rows {
			if r.Changed() {
				vals := []string{r.SKU, r.OrigPrice, r.OrigSale, r.OrigStart, r.OrigEnd, r.Price, r.Sale, r.Start, r.End}
				for i, col := range massupdate.PriceColumns {
					out[col] = append(out[col], vals[i])
				}
			}
		}
	case draftNomenclature:
		rows, err := massupdate.BindStockInputs(v)
		if err != nil {
			return out
		}
		for _, r := range rows {
			if r.Changed() {
				vals := []string{r.Warehouse, r.Barcode, r.OrigQty, r.OrigStatus, r.Qty, r.Status}
				for i, col := range massupdate.StockColumns {
					out[col] = append(out[col], vals[i])
				}
			}
		}
	}
	return out
}
