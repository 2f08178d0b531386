package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// catalogLimits are the page sizes of the nomenclature and prices screens.
// Sizes above upstreamPageLimit are fetched as several marketplace pages.
var catalogLimits = []int{20, 50, 100, 200, 500, 1000}

// upstreamPageLimit is the largest page asked of the marketplace at once.
const upstreamPageLimit = 100

// fetchCatalogPage reads one screen page of the seller's nomenclature,
// sequentially, as marketplace pages of at most upstreamPageLimit records.
func fetchCatalogPage(ctx context.Context, acct *apiclient.Account, seller int64, q listQuery) ([]apiclient.Nomenclature, int, int, error) {
	if q.Limit <= upstreamPageLimit {
		list, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: q.Page, Limit: q.Limit})
		if err != nil {
			return nil, 0, 0, err
		}
		return list.Nomenclatures, list.Total, list.Pages, nil
	}
	per := q.Limit / upstreamPageLimit
	first := (q.Page-1)*per + 1
	var recs []apiclient.Nomenclature
	total := 0
	for p := first; p < first+per; p++ {
		list, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: p, Limit: upstreamPageLimit})
		if err != nil {
			return nil, 0, 0, err
		}
		recs = append(recs, list.Nomenclatures...)
		total = list.Total
		if p >= list.Pages {
			break
		}
	}
	return recs, total, (total + q.Limit - 1) / q.Limit, nil
}

func catalogQuery(c echo.Context) listQuery { return parseListQuery(c, catalogLimits, 50, nil) }

// pricesQuery reads the prices view. Its pages count marketplace records
// (one per product and warehouse), shown once per product, so the default
// is larger than the nomenclature's.
func pricesQuery(c echo.Context) listQuery { return parseListQuery(c, catalogLimits, 100, nil) }

// ---- prices ----

// PricesList shows the price editor for a page of products.
func (a *App) PricesList(c echo.Context) error {
	if a.deps.API.PricesByCard() { // issue 15: prices by product card (prices_cards.go)
		return a.cardPricesList(c)
	}
	q := pricesQuery(c)
	sess := session(c)
	inputs := restoreDraft(sess, "prices", bindPriceInputs, priceInput.key)
	var done map[string][]string
	if d := sess.PopDraft("prices-done"); d != nil {
		done = d
	}
	v, err := a.pricesView(c, q, inputs, nil, nil, done, nil)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.PricesPage(a.chrome(c, "Prices", "prices"), v), pages.PricesForm(v))
}

// PricesSubmit validates the edited rows, sends only changed ones through
// set-prices, and shows each row's fate in place: accepted old → new,
// rejected with the marketplace's reason and the typed value kept.
func (a *App) PricesSubmit(c echo.Context) error {
	if a.deps.API.PricesByCard() { // issue 15: prices by product card (prices_cards.go)
		return a.cardPricesSubmit(c)
	}
	q := pricesQuery(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	rows, err := bindPriceInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	inputs := make(map[string]priceInput, len(rows))
	invalid := map[string]map[string]string{}
	updates := make([]apiclient.PriceUpdate, 0, len(rows))
	for _, r := range rows {
		if !r.changed() {
			continue
		}
		if _, dup := inputs[r.SKU]; dup {
			invalid[r.SKU] = map[string]string{"price": "This SKU appears twice in the form; change it in one row only."}
			continue
		}
		inputs[r.SKU] = r
		upd, errs := r.validate()
		if errs != nil {
			invalid[r.SKU] = errs
			continue
		}
		updates = append(updates, upd)
	}
	sess := session(c)
	back := q.link("/prices")
	if len(invalid) > 0 {
		summary := &pages.Summary{Invalid: len(invalid), Note: "Nothing was sent: fix the marked fields first"}
		return a.renderPricesResult(c, http.StatusUnprocessableEntity, q, inputs, invalid, nil, summary, nil)
	}
	if len(updates) == 0 {
		sess.AddFlash("info", "No prices were changed, so nothing was sent.")
		return a.redirect(c, back)
	}
	acct := a.account(c)
	// The result page's list call overlaps with the last chunk (see
	// sendChunks); its answer is used unless it lists a row of that chunk,
	// whose update may not have been applied when the list was read.
	var pre catalogPage
	pageCtx, seller := a.pageContext(c), sess.Data().SellerID
	rep, err := sendChunks(c.Request().Context(), a, seller, updates, priceKey, func(ctx context.Context, chunk []apiclient.PriceUpdate) (*apiclient.UpdateResult, error) {
		return acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: chunk})
	}, priceErrorKey, func() {
		pre.recs, pre.total, pre.npages, pre.err = fetchCatalogPage(pageCtx, acct, seller, q)
		pre.done = true
	})
	if err != nil {
		return err
	}
	// audit trail (issue 17.3): every row sent, old → new, and its answer
	a.recordReport(c, audit.KindPrice, rep, keysOf(updates, priceKey), func(k string) (string, string) { return changeTexts(inputs[k]) })
	if pre.done {
		last := updates[(len(updates)-1)/a.deps.ChunkSize*a.deps.ChunkSize:]
		for _, n := range pre.recs {
			if slices.ContainsFunc(last, func(u apiclient.PriceUpdate) bool { return u.MarketplaceSKU == n.MarketplaceSKU }) {
				pre = catalogPage{}
				break
			}
		}
	}
	a.logger(c.Request().Context()).Info("prices submitted", "sent", len(updates), "accepted", rep.accepted, "rejected", rep.rejected, "unsent", rep.unsent)
	if rep.complete() {
		sess.AddFlash("ok", format.Count(rep.accepted, "price", "prices")+" updated.")
		done := map[string][]string{}
		for _, u := range updates {
			if len(done) < 300 {
				before, after := changeTexts(inputs[u.MarketplaceSKU])
				done[u.MarketplaceSKU] = []string{before, after}
			}
		}
		sess.SetDraft("prices-done", done)
		return a.redirect(c, back)
	}
	summary := &pages.Summary{Updated: rep.accepted, Rejected: rep.rejected, Note: rep.note()}
	return a.renderPricesResult(c, http.StatusUnprocessableEntity, q, inputs, invalid, rep, summary, &pre)
}

// catalogPage is a list call's answer taken ahead of time; done says there
// is one (err included).
type catalogPage struct {
	recs          []apiclient.Nomenclature
	total, npages int
	err           error
	done          bool
}

func (a *App) renderPricesResult(c echo.Context, status int, q listQuery, inputs map[string]priceInput, invalid map[string]map[string]string, rep *bulkReport, s *pages.Summary, pre *catalogPage) error {
	v, err := a.pricesView(c, q, inputs, invalid, rep, nil, pre)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.rejected, rep.accepted
	}
	v.Summary = s
	return a.render(c, status, pages.PricesPage(a.chrome(c, "Prices", "prices"), v), pages.PricesForm(v))
}

// pricesView fetches the page and lays the user's typed values and each
// row's outcome over it. Products are listed once per SKU (a price belongs
// to the product, not to a warehouse). pre, when it holds an answer, is the
// page's list call already made.
//
// After a submit, a row the user edited that is not on the page is listed
// only while it needs the user (invalid, rejected, not sent or unanswered):
// an accepted row off the page is counted in the summary but not repeated,
// so a 10,000-row update answers with the page and the rows left to fix,
// not with 10,000 rows nobody reads. Submitting the answer again sends the
// same rows as before: accepted rows are the new baseline and never resent.
func (a *App) pricesView(c echo.Context, q listQuery, inputs map[string]priceInput, invalid map[string]map[string]string,
	rep *bulkReport, done map[string][]string, pre *catalogPage) (pages.PricesView, error) {
	sess := session(c)
	var recs []apiclient.Nomenclature
	var total, npages int
	var err error
	if pre != nil && pre.done {
		recs, total, npages, err = pre.recs, pre.total, pre.npages, pre.err
	} else {
		recs, total, npages, err = fetchCatalogPage(a.pageContext(c), a.account(c), sess.Data().SellerID, q)
	}
	if err != nil {
		return pages.PricesView{}, err
	}
	v := pages.PricesView{
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager("/prices", npages, total),
		Action: q.link("/prices"),

		ExportQuery: a.exportQuery(q),
	}
	index := map[string]int{}
	for _, n := range recs {
		if i, ok := index[n.MarketplaceSKU]; ok {
			v.Rows[i].Warehouses += ", " + n.WarehouseCode
			continue
		}
		if rep != nil && len(rep.unmatched) > 0 {
			if msgs, ok := rep.unmatched[n.WarehouseCode+"|"+n.Barcode]; ok {
				rep.reject(n.MarketplaceSKU, msgs)
			}
		}
		index[n.MarketplaceSKU] = len(v.Rows)
		price := format.MoneyInput(int64(n.Price))
		sale := ""
		if hasSale(n) {
			sale = format.MoneyInput(int64(n.SalePrice))
		}
		v.Rows = append(v.Rows, pages.PriceRow{
			SKU: n.MarketplaceSKU, Name: n.Name, Brand: n.Brand, Size: n.Size, Warehouses: n.WarehouseCode,
			Current: format.Money(int64(n.Price)), CurrentSale: saleText(n), UpdateStatus: n.PriceUpdateStatus,
			OrigPrice: price, OrigSale: sale, Price: price, Sale: sale,
		})
	}
	// Rows the user edited that the fresh page no longer lists still show.
	for sku := range inputs {
		if _, ok := index[sku]; !ok {
			if _, bad := invalid[sku]; !bad && rep != nil && rep.outcomes[sku].state == "accepted" {
				continue
			}
			index[sku] = len(v.Rows)
			v.Rows = append(v.Rows, pages.PriceRow{SKU: sku, Name: "(no longer on this page)"})
		}
	}
	for sku, in := range inputs {
		i, ok := index[sku]
		if !ok {
			continue // accepted, off the page: counted in the summary
		}
		row := &v.Rows[i]
		row.Price, row.Sale, row.Start, row.End = in.Price, in.Sale, in.Start, in.End
		row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.OrigPrice, in.OrigSale, in.OrigStart, in.OrigEnd
		if errs, ok := invalid[sku]; ok {
			row.Errors = errs
			row.Result = pages.RowResult{State: "invalid"}
			continue
		}
		if rep == nil {
			continue
		}
		switch o := rep.outcomes[sku]; o.state {
		case "accepted":
			before, after := changeTexts(in)
			row.Result = pages.RowResult{State: "accepted", Before: before, After: after}
			// What was sent is the new baseline: submitting again must not resend it.
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
		case "rejected":
			row.Result = pages.RowResult{State: "rejected", Messages: o.messages}
		case "unsent", "unknown":
			row.Result = pages.RowResult{State: o.state}
		}
	}
	for sku, pair := range done {
		if i, ok := index[sku]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]} // as changeTexts wrote them
		}
	}
	return v, nil
}

// hasSale reports whether a product sells below its price. The
// marketplace reports a product without a sale with its sale price equal
// to the price: shown as a sale, the form would hold the price in the sale
// field, and lowering the price alone would be refused for a sale above it.
func hasSale(n apiclient.Nomenclature) bool {
	return n.SalePrice > 0 && n.SalePrice < n.Price
}

// saleText is the sale column: the sale price, or "—" without a sale.
func saleText(n apiclient.Nomenclature) string {
	if !hasSale(n) {
		return "—"
	}
	return format.Money(int64(n.SalePrice))
}

// changeTexts are the before and after of an accepted row: the price, and
// the sale price too when it changed, so a sale-only change reads as one
// ("17 399.00 (sale —) → 17 399.00 (sale 15 000.00)").
func changeTexts(in priceInput) (before, after string) {
	before, after = moneyText(in.OrigPrice), moneyText(in.Price)
	if !sameMoney(in.Sale, in.OrigSale) {
		before += " (sale " + moneyText(in.OrigSale) + ")"
		after += " (sale " + moneyText(in.Sale) + ")"
	}
	return before, after
}

// moneyText shows a typed amount the way tables show money, or as typed
// when it does not parse.
func moneyText(s string) string {
	if s == "" {
		return "—"
	}
	m, err := apiclient.ParseMoney(s)
	if err != nil {
		return s
	}
	return format.Money(int64(m))
}

// restoreDraft takes back the unsent edits of a form that a detour through
// the login page saved (see credentialsRejected), keyed by row.
func restoreDraft[T any](sess *sessions.Session, form string, bind func(url.Values) ([]T, error), key func(T) string) map[string]T {
	d := sess.PopDraft(form)
	if d == nil {
		return nil
	}
	rows, err := bind(d)
	if err != nil || len(rows) == 0 {
		return nil
	}
	out := make(map[string]T, len(rows))
	for _, r := range rows {
		out[key(r)] = r
	}
	sess.AddFlash("info", "Your unsent changes were restored. Review them and submit again.")
	return out
}

// ---- nomenclature ----

// NomenclatureList shows a page of the seller's nomenclature with
// quantity and status inputs.
func (a *App) NomenclatureList(c echo.Context) error {
	q := catalogQuery(c)
	sess := session(c)
	inputs := restoreDraft(sess, "nomenclature", bindStockInputs, stockInput.key)
	v, err := a.nomenclatureView(c, q, inputs, nil, nil)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.NomenclaturePage(a.chrome(c, "Nomenclature", "nomenclature"), v), pages.NomenclatureForm(v))
}

// NomenclatureSubmit sends the changed quantities and statuses through the
// mass update and shows each row's fate in place.
func (a *App) NomenclatureSubmit(c echo.Context) error {
	if a.stockUnavailable() != "" { // issue 15: nothing sent (nomenclature_profile.go)
		return a.stockUnavailableSubmit(c)
	}
	q := catalogQuery(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	rows, err := bindStockInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	inputs := map[string]stockInput{}
	invalid := map[string]map[string]string{}
	var items []apiclient.StoreItem
	for _, r := range rows {
		if !r.changed() {
			continue
		}
		k := r.key()
		if _, dup := inputs[k]; dup {
			invalid[k] = map[string]string{"quantity": "This row appears twice in the form; change it once."}
			continue
		}
		inputs[k] = r
		item, errs := r.validate()
		if errs != nil {
			invalid[k] = errs
			continue
		}
		items = append(items, item)
	}
	sess := session(c)
	back := q.link("/nomenclature")
	if len(invalid) > 0 {
		return a.renderNomenclatureResult(c, q, inputs, invalid, nil, &pages.Summary{Invalid: len(invalid), Note: "Nothing was sent: fix the marked fields first"})
	}
	if len(items) == 0 {
		sess.AddFlash("info", "Nothing was changed, so nothing was sent.")
		return a.redirect(c, back)
	}
	seller := sess.Data().SellerID
	acct := a.account(c)
	rep, err := sendChunks(c.Request().Context(), a, seller, items, stockKey, func(ctx context.Context, chunk []apiclient.StoreItem) (*apiclient.UpdateResult, error) {
		return acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: seller, Items: chunk})
	}, stockErrorKey, nil)
	if err != nil {
		return err
	}
	// audit trail (issue 17.3): every row sent, old → new, and its answer
	a.recordReport(c, audit.KindStock, rep, keysOf(items, stockKey), func(k string) (string, string) {
		return stockText(inputs[k].OrigQty, inputs[k].OrigStatus), stockText(inputs[k].Qty, inputs[k].Status)
	})
	a.logger(c.Request().Context()).Info("nomenclature submitted", "sent", len(items), "accepted", rep.accepted, "rejected", rep.rejected, "unsent", rep.unsent)
	if rep.complete() {
		sess.AddFlash("ok", format.Count(rep.accepted, "row", "rows")+" updated.")
		return a.redirect(c, back)
	}
	return a.renderNomenclatureResult(c, q, inputs, invalid, rep, &pages.Summary{Note: rep.note()})
}

func (a *App) renderNomenclatureResult(c echo.Context, q listQuery, inputs map[string]stockInput, invalid map[string]map[string]string, rep *bulkReport, s *pages.Summary) error {
	v, err := a.nomenclatureView(c, q, inputs, invalid, rep)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.rejected, rep.accepted
	}
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.NomenclaturePage(a.chrome(c, "Nomenclature", "nomenclature"), v), pages.NomenclatureForm(v))
}

func (a *App) nomenclatureView(c echo.Context, q listQuery, inputs map[string]stockInput, invalid map[string]map[string]string, rep *bulkReport) (pages.NomenclatureView, error) {
	sess := session(c)
	recs, total, npages, err := fetchCatalogPage(a.pageContext(c), a.account(c), sess.Data().SellerID, q)
	if err != nil {
		return pages.NomenclatureView{}, err
	}
	v := pages.NomenclatureView{
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager("/nomenclature", npages, total),
		Action: q.link("/nomenclature"),

		ExportQuery: a.exportQuery(q),
		Unavailable: a.stockUnavailable(), // issue 15 (nomenclature_profile.go)
	}
	index := map[string]int{}
	for _, n := range recs {
		k := n.WarehouseCode + "|" + n.Barcode
		if rep != nil && len(rep.unmatched) > 0 {
			if msgs, ok := rep.unmatched[n.MarketplaceSKU]; ok {
				rep.reject(k, msgs)
			}
		}
		index[k] = len(v.Rows)
		qty := strconv.Itoa(n.Quantity)
		v.Rows = append(v.Rows, pages.NomenclatureRow{
			Key: rowKey(k), Warehouse: n.WarehouseCode, Barcode: n.Barcode, SKU: n.MarketplaceSKU, Name: n.Name, Brand: n.Brand, Size: n.Size,
			Price: format.Money(int64(n.Price)), SalePrice: saleText(n),
			Quantity: qty, OrigQuantity: qty, Status: n.Status, OrigStatus: n.Status, LiveStatus: n.Status,
			StatusOptions: sellerStatusOptions(n.Status),
		})
	}
	for k, in := range inputs {
		if _, ok := index[k]; !ok {
			index[k] = len(v.Rows)
			v.Rows = append(v.Rows, pages.NomenclatureRow{Key: rowKey(k), Warehouse: in.Warehouse, Barcode: in.Barcode, Name: "(no longer on this page)",
				StatusOptions: sellerStatusOptions(in.OrigStatus)})
		}
	}
	for k, in := range inputs {
		row := &v.Rows[index[k]]
		row.Quantity, row.Status, row.OrigQuantity, row.OrigStatus = in.Qty, in.Status, in.OrigQty, in.OrigStatus
		if errs, ok := invalid[k]; ok {
			row.Errors = errs
			row.Result = pages.RowResult{State: "invalid"}
			continue
		}
		if rep == nil {
			continue
		}
		switch o := rep.outcomes[k]; o.state {
		case "accepted":
			row.Result = pages.RowResult{State: "accepted", Before: stockText(in.OrigQty, in.OrigStatus), After: stockText(in.Qty, in.Status)}
			row.OrigQuantity, row.OrigStatus = in.Qty, in.Status
		case "rejected":
			row.Result = pages.RowResult{State: "rejected", Messages: o.messages}
		case "unsent", "unknown":
			row.Result = pages.RowResult{State: o.state}
		}
	}
	return v, nil
}

// sellerStatuses are the statuses a seller sets; moderation sets the others.
var sellerStatuses = []string{"online", "disabled"}

// sellerStatusOptions lists what the seller may choose for a record, plus
// its current status so an untouched select submits it unchanged.
func sellerStatusOptions(current string) []pages.Option {
	opts := statusOptions(sellerStatuses, "")
	if current != "" && !slices.Contains(sellerStatuses, current) {
		opts = append([]pages.Option{{Value: current, Label: format.StatusLabel(current)}}, opts...)
	}
	return opts
}

func stockText(qty, status string) string {
	return qty + " pcs, " + format.StatusLabel(status)
}

// rowKey makes a warehouse|barcode key safe for element ids and test ids.
func rowKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, k)
}
