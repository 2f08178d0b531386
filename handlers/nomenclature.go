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

// ---- nomenclature ----

// NomenclatureList shows a page of the seller's nomenclature with
// quantity and status inputs.
func (a *App) NomenclatureList(c echo.Context) error {
	q := catalogQuery(c)
	sess := session(c)
	inputs := restoreDraft(sess, "nomenclature", massupdate.BindStockInputs, massupdate.StockInput.Key)
	v, err := a.nomenclatureView(c, q, inputs, nil, nil)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.NomenclaturePage(a.chrome(c, "Nomenclature", "nomenclature"), v), pages.NomenclatureForm(v))
}

// NomenclatureSubmit sends the changed quantities and statuses through the
// mass update and shows each row's fate in place.
func (a *App) NomenclatureSubmit(c echo.Context) error {
	q := catalogQuery(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	rows, err := massupdate.BindStockInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	inputs := map[string]massupdate.StockInput{}
	invalid := map[string]map[string]string{}
	var items []apiclient.StoreItem
	for _, r := range rows {
		if !r.Changed() {
			continue
		}
		k := r.Key()
		if _, dup := inputs[k]; dup {
			invalid[k] = map[string]string{"quantity": "This row appears twice in the form; change it once."}
			continue
		}
		inputs[k] = r
		item, errs := r.Validate()
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
	rep, err := massupdate.Send(c.Request().Context(), a.mass, acct, seller, massupdate.Stock, items, nil)
	if err != nil {
		return massUpdateError(err)
	}
	a.logger(c.Request().Context()).Info("nomenclature submitted", "sent", len(items), "accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent)
	if rep.Complete() {
		sess.AddFlash("ok", format.Count(rep.Accepted, "row", "rows")+" updated.")
		return a.redirect(c, back)
	}
	return a.renderNomenclatureResult(c, q, inputs, invalid, rep, &pages.Summary{Note: rep.Note()})
}

func (a *App) renderNomenclatureResult(c echo.Context, q listQuery, inputs map[string]massupdate.StockInput, invalid map[string]map[string]string, rep *massupdate.Report, s *pages.Summary) error {
	v, err := a.nomenclatureView(c, q, inputs, invalid, rep)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.Rejected, rep.Accepted
	}
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.NomenclaturePage(a.chrome(c, "Nomenclature", "nomenclature"), v), pages.NomenclatureForm(v))
}

func (a *App) nomenclatureView(c echo.Context, q listQuery, inputs map[string]massupdate.StockInput, invalid map[string]map[string]string, rep *massupdate.Report) (pages.NomenclatureView, error) {
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
	}
	index := map[string]int{}
	for _, n := range recs {
		k := n.WarehouseCode + "|" + n.Barcode
		if rep != nil && len(rep.Unmatched) > 0 {
			if msgs, ok := rep.Unmatched[n.MarketplaceSKU]; ok {
				rep.Reject(k, msgs)
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
		switch o := rep.Outcomes[k]; o.State {
		case massupdate.Accepted:
			row.Result = pages.RowResult{State: "accepted", Before: stockText(in.OrigQty, in.OrigStatus), After: stockText(in.Qty, in.Status)}
			row.OrigQuantity, row.OrigStatus = in.Qty, in.Status
		case massupdate.Rejected:
			row.Result = pages.RowResult{State: "rejected", Messages: o.Messages}
		case massupdate.Unsent, massupdate.Unknown:
			row.Result = pages.RowResult{State: string(o.State)}
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
