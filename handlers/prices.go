package handlers

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// ---- prices ----

// PricesList shows the price editor for a page of products.
func (a *App) PricesList(c echo.Context) error {
	q := pricesQuery(c)
	sess := session(c)
	inputs := restoreDraft(sess, "prices", massupdate.BindPriceInputs, massupdate.PriceInput.Key)
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
	q := pricesQuery(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	rows, err := massupdate.BindPriceInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	inputs := make(map[string]massupdate.PriceInput, len(rows))
	invalid := map[string]map[string]string{}
	updates := make([]apiclient.PriceUpdate, 0, len(rows))
	for _, r := range rows {
		if !r.Changed() {
			continue
		}
		if _, dup := inputs[r.SKU]; dup {
			invalid[r.SKU] = map[string]string{"price": "This SKU appears twice in the form; change it in one row only."}
			continue
		}
		inputs[r.SKU] = r
		upd, errs := r.Validate()
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
	// massupdate.Send); its answer is used unless it lists a row of that chunk,
	// whose update may not have been applied when the list was read.
	var pre catalogPage
	pageCtx, seller := a.pageContext(c), sess.Data().SellerID
	rep, err := massupdate.Send(c.Request().Context(), a.mass, acct, seller, massupdate.Prices, updates, func() {
		pre.recs, pre.total, pre.npages, pre.err = fetchCatalogPage(pageCtx, acct, seller, q)
		pre.done = true
	})
	if err != nil {
		return massUpdateError(err)
	}
	if pre.done {
		last := updates[(len(updates)-1)/a.mass.Size()*a.mass.Size():]
		for _, n := range pre.recs {
			if slices.ContainsFunc(last, func(u apiclient.PriceUpdate) bool { return u.MarketplaceSKU == n.MarketplaceSKU }) {
				pre = catalogPage{}
				break
			}
		}
	}
	a.logger(c.Request().Context()).Info("prices submitted", "sent", len(updates), "accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent)
	if rep.Complete() {
		sess.AddFlash("ok", format.Count(rep.Accepted, "price", "prices")+" updated.")
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
	summary := &pages.Summary{Updated: rep.Accepted, Rejected: rep.Rejected, Note: rep.Note()}
	return a.renderPricesResult(c, http.StatusUnprocessableEntity, q, inputs, invalid, rep, summary, &pre)
}

func (a *App) renderPricesResult(c echo.Context, status int, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]string, rep *massupdate.Report, s *pages.Summary, pre *catalogPage) error {
	v, err := a.pricesView(c, q, inputs, invalid, rep, nil, pre)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.Rejected, rep.Accepted
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
func (a *App) pricesView(c echo.Context, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]string,
	rep *massupdate.Report, done map[string][]string, pre *catalogPage) (pages.PricesView, error) {
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
		if rep != nil && len(rep.Unmatched) > 0 {
			if msgs, ok := rep.Unmatched[n.WarehouseCode+"|"+n.Barcode]; ok {
				rep.Reject(n.MarketplaceSKU, msgs)
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
			if _, bad := invalid[sku]; !bad && rep != nil && rep.Outcomes[sku].State == massupdate.Accepted {
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
		switch o := rep.Outcomes[sku]; o.State {
		case massupdate.Accepted:
			before, after := changeTexts(in)
			row.Result = pages.RowResult{State: "accepted", Before: before, After: after}
			// What was sent is the new baseline: submitting again must not resend it.
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
		case massupdate.Rejected:
			row.Result = pages.RowResult{State: "rejected", Messages: o.Messages}
		case massupdate.Unsent, massupdate.Unknown:
			row.Result = pages.RowResult{State: string(o.State)}
		}
	}
	for sku, pair := range done {
		if i, ok := index[sku]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]} // as changeTexts wrote them
		}
	}
	return v, nil
}

// changeTexts are the before and after of an accepted row: the price, and
// the sale price too when it changed, so a sale-only change reads as one
// ("17 399.00 (sale —) → 17 399.00 (sale 15 000.00)").
func changeTexts(in massupdate.PriceInput) (before, after string) {
	before, after = moneyText(in.OrigPrice), moneyText(in.Price)
	if !massupdate.SameMoney(in.Sale, in.OrigSale) {
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
