package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// ---- nomenclature ----

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
	return a.render(c, http.StatusOK, pages.NomenclaturePage(a.chrome(c, i18n.T(c.Request().Context(), "nomenclature.title"), "nomenclature"), v), pages.NomenclatureForm(v))
}

// NomenclatureSubmit sends the changed quantities and statuses through the
// mass update and shows each row's fate in place.
func (a *App) NomenclatureSubmit(c echo.Context) error {
	q := catalogQuery(c)
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "nomenclature.form_unreadable"))
	}
	rows, err := massupdate.BindStockInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.MsgsOf(err))
	}
	filtered := a.deps.API.FilterWrites() // records without a warehouse, written by filter (nomenclature_profile.go)
	checked := massupdate.CheckStock(rows)
	if filtered {
		checked = massupdate.CheckSKUStock(rows)
	}
	st := formState[massupdate.StockInput]{inputs: checked.Inputs, invalid: checked.Invalid}
	items := checked.Send
	sess := session(c)
	back := q.link("/nomenclature")
	if len(st.invalid) > 0 {
		return a.renderNomenclatureResult(c, q, st, &pages.Summary{Invalid: len(st.invalid), Unchanged: len(rows) - len(checked.Inputs), Note: i18n.Of(i18n.M("nomenclature.fix_first", nil))})
	}
	if len(items) == 0 {
		sess.AddFlash("info", i18n.T(ctx, "nomenclature.nothing_changed"))
		return a.redirect(c, back)
	}
	seller := sess.Data().SellerID
	acct := a.account(c)
	var rep *massupdate.Report
	if filtered {
		var changes []massupdate.SKUStock
		if changes, err = a.filteredStock(c, q, acct, seller, items); err != nil {
			return err
		}
		rep, err = massupdate.SendFiltered(ctx, a.deps.Engine, acct, seller, changes)
	} else {
		rep, err = massupdate.Send(ctx, a.deps.Engine, acct, seller, massupdate.Stock, items, nil)
	}
	if err != nil {
		return massUpdateError(err)
	}
	// audit trail (issue 17.3): every row sent, old → new, and its answer
	a.recordReport(c, audit.KindStock, rep, keysOf(items, massupdate.Stock.Key), func(k string) (i18n.Msgs, i18n.Msgs) {
		in := st.inputs[k]
		return stockText(in.OrigQty, in.OrigStatus), stockText(in.Qty, in.Status)
	})
	a.logger(c.Request().Context()).Info("nomenclature submitted", "sent", len(items), "accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent)
	if rep.Complete() {
		sess.AddFlash("ok", i18n.N(ctx, "nomenclature.rows_updated", rep.Accepted))
		return a.redirect(c, back)
	}
	st.report = rep
	return a.renderNomenclatureResult(c, q, st, &pages.Summary{Unchanged: len(rows) - len(checked.Inputs), Note: rep.Note()})
}

// renderNomenclatureResult answers a submit that needs the user (422).
func (a *App) renderNomenclatureResult(c echo.Context, q listQuery, st formState[massupdate.StockInput], s *pages.Summary) error {
	v, err := a.nomenclatureView(c, q, st)
	if err != nil {
		return err
	}
	answerSummary(s, st)
	v.Rows = attentionPage(v.Rows, func(r *pages.NomenclatureRow) pages.RowResult { return r.Result }, st, q.Limit, s)
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
		cells: func(row *pages.NomenclatureRow) (*map[string]i18n.Msgs, *pages.RowResult) {
			return &row.Errors, &row.Result
		},
	}
}

// nomenclatureView fetches the page and lays the user's typed values and
// each row's outcome over it.
func (a *App) nomenclatureView(c echo.Context, q listQuery, st formState[massupdate.StockInput]) (pages.NomenclatureView, error) {
	sess := session(c)
	// issue 16: from the local copy once it exists (handlers/copy_lists.go)
	recs, total, npages, err := a.nomenclaturePage(c, a.pageContext(c), func() *apiclient.Account { return a.account(c) }, sess.Data().SellerID, q)
	if err != nil {
		return pages.NomenclatureView{}, err
	}
	toolbar, err := a.copyToolbar(c, "/nomenclature", q, nomenclatureSorts)
	if err != nil {
		return pages.NomenclatureView{}, err
	}
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	v := pages.NomenclatureView{
		Copy:   toolbar,
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager("/nomenclature", npages, total),
		Action: q.link("/nomenclature"),

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
			Price: t.price, SalePrice: t.sale,
			Quantity: t.qty, OrigQuantity: t.qty, Status: n.Status, OrigStatus: n.Status, LiveStatus: n.Status,
			StatusOptions: statusOpts.get(n.Status),
		})
	}
	v.Rows = overlay(v.Rows, index, st, stockRows(ctx))
	return v, nil
}

// sellerStatuses are the statuses a seller sets; moderation sets the others.
var sellerStatuses = []string{"online", "disabled"}

// sellerStatusOptions lists what the seller may choose for a record, plus
// its current status so an untouched select submits it unchanged.
func sellerStatusOptions(ctx context.Context, current string) []pages.Option {
	// issue 17 item 7: only the changes the marketplace allows
	allowed := slices.DeleteFunc(slices.Clone(sellerStatuses), func(s string) bool { return len(massupdate.StatusRefused(current, s)) > 0 })
	opts := localStatusOptions(ctx, allowed, "")
	if current != "" && !slices.Contains(sellerStatuses, current) {
		opts = append([]pages.Option{{Value: current, Label: i18n.Status(ctx, current)}}, opts...)
	}
	return opts
}

// writeRowKey writes rowKey(warehouse + "|" + barcode) to b: never more
// bytes than the two and the separator (a character of several bytes
// becomes one "_").
func writeRowKey(b *strings.Builder, warehouse, barcode string) {
	for i, s := range [2]string{warehouse, barcode} {
		if i > 0 {
			b.WriteByte('_') // rowKey's mapping of "|"
		}
		for _, r := range s {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
				b.WriteByte(byte(r))
			} else {
				b.WriteByte('_')
			}
		}
	}
}

// pageTexts writes the texts the handler makes for a page's rows (row
// key, price, sale price, quantity) into one buffer for the whole page,
// sized once: one allocation a page where one a value made about 150 for
// 50 rows. Each text is a piece of the buffer's string; a strings.Builder
// only appends, so a piece taken stays what it was.
type pageTexts struct {
	b strings.Builder
}

// rowTexts are one row's texts, as rowKey(warehouse + "|" + barcode), format.MoneyIn, saleTextIn
// and strconv.Itoa make them (TestPageTextsMatch).
type rowTexts struct{ key, price, sale, qty string }

// Room for one row's amounts and quantity: two amounts of at most 48
// bytes (format.AppendMoneyIn) and an int of at most 20.
const rowTextsRoom = 48 + 48 + 20

func newPageTexts(recs []apiclient.Nomenclature) *pageTexts {
	p := &pageTexts{}
	n := 0
	for _, r := range recs {
		n += len(r.WarehouseCode) + 1 + len(r.Barcode) + rowTextsRoom
	}
	p.b.Grow(n)
	return p
}

// row writes the texts of n.
func (p *pageTexts) row(l i18n.Lang, n apiclient.Nomenclature) rowTexts {
	var t rowTexts
	var num [48]byte
	start := p.b.Len()
	writeRowKey(&p.b, n.WarehouseCode, n.Barcode)
	t.key = p.piece(start)
	start = p.b.Len()
	p.b.Write(format.AppendMoneyIn(num[:0], l, int64(n.Price)))
	t.price = p.piece(start)
	if hasSale(n) {
		start = p.b.Len()
		p.b.Write(format.AppendMoneyIn(num[:0], l, int64(n.SalePrice)))
		t.sale = p.piece(start)
	} else {
		t.sale = noSale
	}
	start = p.b.Len()
	p.b.Write(strconv.AppendInt(num[:0], int64(n.Quantity), 10))
	t.qty = p.piece(start)
	return t
}

// piece is what was written since start.
func (p *pageTexts) piece(start int) string { return p.b.String()[start:] }

// statusOptionsMemo builds sellerStatusOptions once per status of a page
// (a page's records share a handful of statuses); the rows only read them.
type statusOptionsMemo struct {
	ctx  context.Context
	a    *App
	seen [4]struct {
		status string
		opts   []pages.Option
	}
	n int
}

func (m *statusOptionsMemo) get(status string) []pages.Option {
	for i := range m.n {
		if m.seen[i].status == status {
			return m.seen[i].opts
		}
	}
	opts := m.a.sellerStatusOptionsIn(m.ctx, status)
	if m.n < len(m.seen) {
		m.seen[m.n].status, m.seen[m.n].opts = status, opts
		m.n++
	}
	return opts
}

// sellerOptionsKey names a list of App.sellerOptions: the status choices
// of a record in a language.
type sellerOptionsKey struct {
	lang   i18n.Lang
	status string
}

// sellerStatusOptionsIn is sellerStatusOptions, built once per language
// for a status the marketplace defines (App.sellerOptions); any other
// status a record carries is not kept, so what is held stays bounded.
func (a *App) sellerStatusOptionsIn(ctx context.Context, status string) []pages.Option {
	if !slices.Contains(massupdate.Statuses, status) {
		return sellerStatusOptions(ctx, status)
	}
	return a.sellerOptions.get(sellerOptionsKey{i18n.LangOf(ctx), status}, func() []pages.Option {
		return sellerStatusOptions(ctx, status)
	})
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

// noSale is the sale column of a record without a sale.
const noSale = "—"

// saleTextIn is the sale column in the number format of l: the sale
// price, or "—" without a sale.
func saleTextIn(l i18n.Lang, n apiclient.Nomenclature) string {
	if !hasSale(n) {
		return noSale
	}
	return format.MoneyIn(l, int64(n.SalePrice))
}
