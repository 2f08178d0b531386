package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// NomenclatureList shows a page of the seller's nomenclature with
// quantity and status inputs.
func (a *App) NomenclatureList(c echo.Context) error {
	q := catalogQuery(c)
	sess := session(c)
	st := formState[massupdate.StockInput]{inputs: restoreDraft(c.Request().Context(), sess, draftNomenclature, massupdate.BindStockInputs, massupdate.StockInput.Key)}
	v, err := a.nomenclatureView(c, q, st)
	if err != nil {
		return err
	}
	// The rows a redirected save updated: their old → new.
	if done := sess.PopDraft(draftPricesDone); done != nil {
		for i := range v.Rows {
			r := &v.Rows[i]
			pair := done[massupdate.StockInput{Warehouse: r.Warehouse, Barcode: r.Barcode}.Key()]
			if len(pair) == 2 && r.Result.State == "" {
				r.Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]}
			}
		}
	}
	return a.renderList(c, pages.NomenclaturePage(a.chrome(c, i18n.T(c.Request().Context(), "nomenclature.title"), "nomenclature"), v), pages.NomenclatureForm(v), pages.NomenclatureAnswer(v))
}

// NomenclatureSubmit sends the changed quantities and statuses through the
// mass update and shows each row's fate in place.
func (a *App) NomenclatureSubmit(c echo.Context) error {
	q := catalogQuery(c)
	filtered := a.deps.API.FilterWrites() // records without a warehouse, written by filter (browse.Seller.SendStock)
	return submitMass(a, c, massKind[massupdate.StockInput, massupdate.StockItem]{
		name: "nomenclature", back: q.link(at(c, paths.Nomenclature)),
		unreadable: i18n.K("nomenclature.form_unreadable"), fixFirst: i18n.K("nomenclature.fix_first"), nothingChanged: i18n.K("nomenclature.nothing_changed"), updated: i18n.K("nomenclature.rows_updated"),
		bind: massupdate.BindStockInputs,
		check: func(_ url.Values, rows []massupdate.StockInput) (massupdate.Checked[massupdate.StockInput, massupdate.StockItem], error) {
			if filtered {
				return massupdate.CheckSKUStock(rows), nil
			}
			return massupdate.CheckStock(rows), nil
		},
		send: func(ctx context.Context, items []massupdate.StockItem) (*massupdate.Report, error) {
			return a.seller(c).SendStock(ctx, a.deps.Engine, q.reads(), items, filtered, func(want massupdate.Want) (*massupdate.Catalog, error) {
				return a.previewCatalog(c, want)
			})
		},
		audit: audit.KindStock, key: massupdate.Stock.Key, kind: massupdate.Stock,
		change: func(in massupdate.StockInput) (i18n.Msgs, i18n.Msgs) {
			return stockText(in.OrigQty, in.OrigStatus), stockText(in.Qty, in.Status)
		},
		shown: func(ctx context.Context, in massupdate.StockInput) (string, string) {
			return stockTextIn(ctx, in.OrigQty, in.OrigStatus), stockTextIn(ctx, in.Qty, in.Status)
		},
		answer: func(c echo.Context, checked massupdate.Checked[massupdate.StockInput, massupdate.StockItem], rep *massupdate.Report, s *pages.Summary) error {
			return a.renderNomenclatureResult(c, q, formState[massupdate.StockInput]{inputs: checked.Inputs, invalid: checked.Invalid, report: rep}, s)
		},
	})
}

// renderNomenclatureResult answers a submit that needs the user (422).
func (a *App) renderNomenclatureResult(c echo.Context, q listQuery, st formState[massupdate.StockInput], s *pages.Summary) error {
	v, err := a.nomenclatureView(c, q, st)
	if err != nil {
		return err
	}
	answerSummary(s, st)
	v.Rows, v.Kept = attentionPage(v.Rows, func(r *pages.NomenclatureRow) pages.RowResult { return r.Result },
		func(r *pages.NomenclatureRow) string {
			return massupdate.StockInput{Warehouse: r.Warehouse, Barcode: r.Barcode}.Key()
		}, st, q.Limit, s)
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.NomenclaturePage(a.chrome(c, i18n.T(c.Request().Context(), "nomenclature.title"), "nomenclature"), v), pages.NomenclatureForm(v))
}

// stockRows is how the nomenclature page takes the user's values (see
// overlay). Every edited record stays listed, accepted or not.
// stockRows lays a nomenclature form over its page, in the language of ctx.
func stockRows(ctx context.Context) rowOverlay[massupdate.StockInput, pages.NomenclatureRow] {
	return rowOverlay[massupdate.StockInput, pages.NomenclatureRow]{
		offPage: func(k string, in massupdate.StockInput) pages.NomenclatureRow {
			return pages.NomenclatureRow{Key: rowKey(k), Warehouse: in.Warehouse, Barcode: in.Barcode, Name: i18n.T(ctx, "nomenclature.off_page"),
				StatusOptions: sellerStatusOptions(ctx, in.OrigStatus)}
		},
		typed: func(row *pages.NomenclatureRow, in massupdate.StockInput) {
			row.Quantity, row.Status, row.OrigQuantity, row.OrigStatus = in.Qty, in.Status, in.OrigQty, in.OrigStatus
		},
		accepted: func(row *pages.NomenclatureRow, in massupdate.StockInput) pages.RowResult {
			row.OrigQuantity, row.OrigStatus = in.Qty, in.Status
			return pages.RowResult{State: "accepted", Before: stockTextIn(ctx, in.OrigQty, in.OrigStatus), After: stockTextIn(ctx, in.Qty, in.Status)}
		},
		applied: func(row *pages.NomenclatureRow, in massupdate.StockInput, parts []string) {
			for _, p := range parts {
				switch p {
				case massupdate.PartQuantity:
					row.OrigQuantity = in.Qty
				case massupdate.PartStatus:
					row.OrigStatus = in.Status
				}
			}
		},
		cells: func(row *pages.NomenclatureRow) (*map[string]i18n.Msgs, *pages.RowResult) {
			return &row.Errors, &row.Result
		},
	}
}

// nomenclatureView fetches the page and lays the user's typed values and
// each row's outcome over it.
func (a *App) nomenclatureView(c echo.Context, q listQuery, st formState[massupdate.StockInput]) (pages.NomenclatureView, error) {
	// From the local copy once it exists, else live (browse)
	p, err := a.nomenclaturePage(c, &q)
	if err != nil {
		return pages.NomenclatureView{}, err
	}
	recs, total, npages := p.Records, p.Total, p.Pages
	toolbar, err := a.copyToolbar(c, paths.Nomenclature, q, nomenclatureSorts)
	if err != nil {
		return pages.NomenclatureView{}, err
	}
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	v := pages.NomenclatureView{
		Copy:   toolbar,
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager(at(c, paths.Nomenclature), npages, total),
		Action: q.link(at(c, paths.Nomenclature)),

		ExportQuery: a.exportQuery(q),
	}
	// The rows' keys are only looked up when a submitted form is laid
	// over the page.
	var index map[string]int
	if len(st.inputs) > 0 || st.report != nil {
		index = make(map[string]int, len(recs))
	}
	statusOpts := statusOptionsMemo{ctx: ctx, a: a}
	texts := newPageTexts(recs)
	byCard := a.deps.API.PricesByCard()
	v.Rows = make([]pages.NomenclatureRow, 0, len(recs))
	for _, n := range recs {
		if index != nil {
			k := n.WarehouseCode + "|" + n.Barcode
			st.matchLate(k, n.MarketplaceSKU)
			index[k] = len(v.Rows)
		}
		t := texts.row(l, n)
		v.Rows = append(v.Rows, pages.NomenclatureRow{
			Key: t.key, Warehouse: n.WarehouseCode, Barcode: n.Barcode, SKU: n.MarketplaceSKU, Name: n.Name, Brand: n.Brand, Size: n.Size,
			Product: n.Product(byCard), Price: t.price, SalePrice: t.sale,
			Quantity: t.qty, OrigQuantity: t.qty, Status: n.Status, OrigStatus: n.Status, LiveStatus: n.Status,
			QuantityPending: n.QuantityPending, StatusPending: n.StatusPending,
			StatusOptions: statusOpts.get(n.Status),
		})
	}
	v.Rows = overlay(v.Rows, index, st, stockRows(ctx))
	return v, nil
}

// stockTextIn is stockText in the language of ctx: "5 шт., В продаже".
func stockTextIn(ctx context.Context, qty, status string) string {
	return i18n.TD(ctx, "nomenclature.stock_text", map[string]any{"Qty": qty, "Status": i18n.Status(ctx, status)})
}

// stockText is the stock as the audit trail keeps it: a message the
// history reads in its reader's language.
func stockText(qty, status string) i18n.Msgs {
	return i18n.Of(i18n.M("nomenclature.stock_text", map[string]any{"Qty": qty, "Status": i18n.Msg{Status: status}}))
}
