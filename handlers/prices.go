package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// PricesList shows the price editor for a page of products.
func (a *App) PricesList(c echo.Context) error {
	if a.deps.API.PricesByCard() { // prices by product card (prices_cards.go)
		return a.cardPricesList(c)
	}
	q := pricesQuery(c)
	sess := session(c)
	st := formState[massupdate.PriceInput]{inputs: restoreDraft(c.Request().Context(), sess, draftPrices, massupdate.BindPriceInputs, massupdate.PriceInput.Key)}
	var done map[string][]string
	if d := sess.PopDraft(draftPricesDone); d != nil {
		done = d
	}
	v, err := a.pricesView(c, q, st, pricesExtras{done: done})
	if err != nil {
		return err
	}
	return a.renderList(c, pages.PricesPage(a.chrome(c, i18n.T(c.Request().Context(), "prices.title"), "prices"), v), pages.PricesForm(v), pages.PricesAnswer(v))
}

// PricesSubmit validates the edited rows, sends only changed ones through
// set-prices, and shows each row's fate in place: accepted old → new,
// rejected with the marketplace's reason and the typed value kept.
func (a *App) PricesSubmit(c echo.Context) error {
	if a.deps.API.PricesByCard() { // prices by product card (prices_cards.go)
		return a.cardPricesSubmit(c)
	}
	q := pricesQuery(c)
	// The result page's list call overlaps with the last chunk (see
	// massupdate.Send); its answer is used unless it lists a row of that
	// chunk, whose update may not have been applied when the list was read.
	// A page from the copy is read after the send instead: the
	// accepted prices are in it then, pending.
	var pre browse.Ahead
	k := formKind(massupdate.Prices, massupdate.BindPriceInputs, massupdate.PricesForm{Guard: a.priceGuard()}.Check,
		sendAs(a, c, massupdate.Prices, func(ctx context.Context) (func(), error) { return a.seller(c).ReadAhead(ctx, q.reads(), &pre) },
			func(last []string) { // the page read beside the last chunk, dropped when it lists a row of it
				for i := 0; pre.Done && pre.Err == nil && i < len(pre.Page.Records); i++ {
					if slices.Contains(last, pre.Page.Records[i].MarketplaceSKU) {
						pre = browse.Ahead{}
					}
				}
			}))
	k.name, k.back, k.audit, k.change, k.shown = "prices", q.link(at(c, paths.Prices)), audit.KindPrice, massupdate.ChangeTexts, changeTextsIn
	k.unreadable, k.fixFirst, k.nothingChanged, k.updated = i18n.K("prices.form_unreadable"), i18n.K("prices.fix_first"), i18n.K("prices.nothing_changed"), i18n.K("prices.updated")
	k.answerState = func(c echo.Context, st formState[massupdate.PriceInput], s *pages.Summary) error {
		if st.report == nil {
			return a.renderPricesResult(c, q, st, s, nil)
		}
		return a.renderPricesResult(c, q, st, s, &pre)
	}
	return submitMass(a, c, k)
}

// renderPricesResult answers a submit that needs the user (422): the page
// with the form's values, problems and outcomes.
func (a *App) renderPricesResult(c echo.Context, q listQuery, st formState[massupdate.PriceInput], s *pages.Summary, pre *browse.Ahead) error {
	v, err := a.pricesView(c, q, st, pricesExtras{pre: pre})
	if err != nil {
		return err
	}
	answerSummary(s, st)
	v.Rows, v.Kept = attentionPage(v.Rows, func(r *pages.PriceRow) pages.RowResult { return r.Result },
		func(r *pages.PriceRow) string { return r.SKU }, st, q.Limit, s)
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.PricesPage(a.chrome(c, i18n.T(c.Request().Context(), "prices.title"), "prices"), v), pages.PricesForm(v))
}

// pricesExtras are what the prices page may bring besides the form: done,
// the before and after of the rows a redirected submit updated; pre, when
// it holds an answer, the page's list call already made.
type pricesExtras struct {
	done map[string][]string
	pre  *browse.Ahead
}

// priceRows is how the prices page takes the user's values (see overlay),
// in the language of ctx; guard is the price guard in percent.
func priceRows(ctx context.Context, guard int) rowOverlay[massupdate.PriceInput, pages.PriceRow] {
	return rowOverlay[massupdate.PriceInput, pages.PriceRow]{
		offPage: func(sku string, _ massupdate.PriceInput) pages.PriceRow {
			return pages.PriceRow{SKU: sku, Name: i18n.T(ctx, "prices.off_page")}
		},
		dropAccepted: true,
		typed: func(row *pages.PriceRow, in massupdate.PriceInput) {
			row.Price, row.Sale, row.Start, row.End = in.Price, in.Sale, in.Start, in.End
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.OrigPrice, in.OrigSale, in.OrigStart, in.OrigEnd
			row.Hints = priceHints(ctx, in)
		},
		accepted: func(row *pages.PriceRow, in massupdate.PriceInput) pages.RowResult {
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
			row.Hints = nil
			before, after := changeTextsIn(ctx, in)
			return pages.RowResult{State: "accepted", Before: before, After: after}
		},
		cells: func(row *pages.PriceRow) (*map[string]i18n.Msgs, *pages.RowResult) { return &row.Errors, &row.Result },
		held: func(_ *pages.PriceRow, in massupdate.PriceInput, h massupdate.Held, res pages.RowResult) pages.RowResult {
			return heldResult(ctx, guard, in, h, res)
		},
	}
}

// pricesView fetches the page and lays the user's typed values and each
// row's outcome over it. Products are listed once per SKU (a price belongs
// to the product, not to a warehouse).
//
// After a submit, a row the user edited that is not on the page is listed
// only while it needs the user (invalid, rejected, not sent or unanswered):
// an accepted row off the page is counted in the summary but not repeated,
// so a 10,000-row update answers with the page and the rows left to fix,
// not with 10,000 rows nobody reads. Submitting the answer again sends the
// same rows as before: accepted rows are the new baseline and never resent.
func (a *App) pricesView(c echo.Context, q listQuery, st formState[massupdate.PriceInput], x pricesExtras) (pages.PricesView, error) {
	var p *browse.NomenclaturePage
	var err error
	if x.pre != nil && x.pre.Done {
		p, err = x.pre.Page, x.pre.Err
	} else {
		p, err = a.nomenclaturePage(c, &q) // from the local copy once it exists, else live (browse)
	}
	if err != nil {
		return pages.PricesView{}, err
	}
	recs, total, npages := p.Records, p.Total, p.Pages
	toolbar, err := a.copyToolbar(c, paths.Prices, q, priceSorts)
	if err != nil {
		return pages.PricesView{}, err
	}
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	v := pages.PricesView{
		Copy:      toolbar,
		DropLimit: massupdate.MarketDropLimit,
		Limit:     strconv.Itoa(q.Limit),
		Limits:    limitOptions(catalogLimits),
		Pager:     q.pager(at(c, paths.Prices), npages, total),
		Action:    q.link(at(c, paths.Prices)),

		ExportQuery: a.exportQuery(q),
	}
	if toolbar != nil && !toolbar.Live {
		v.Heads = pages.PriceHeads{SKU: q.sortHead(at(c, paths.Prices), "sku"), Name: q.sortHead(at(c, paths.Prices), "name"), Current: q.sortHead(at(c, paths.Prices), "price")}
	}
	index := map[string]int{}
	for _, g := range massupdate.GroupSKUs(browse.Wire(recs)) { // once per SKU, with its warehouses
		n := g.Record
		st.matchLate(n.MarketplaceSKU, n.WarehouseCode+"|"+n.Barcode)
		index[n.MarketplaceSKU] = len(v.Rows)
		price, sale := priceInputs(l, int64(n.Price), int64(n.SalePrice))
		v.Rows = append(v.Rows, pages.PriceRow{
			SKU: n.MarketplaceSKU, Name: n.Name, Brand: n.Brand, Size: n.Size, Warehouses: g.Warehouses,
			Current: format.MoneyIn(l, int64(n.Price)), CurrentSale: saleTextIn(l, int64(n.Price), int64(n.SalePrice)), UpdateStatus: n.PriceUpdateStatus,
			OrigPrice: price, OrigSale: sale, Price: price, Sale: sale,
		})
	}
	v.Rows = overlay(v.Rows, index, st, priceRows(ctx, a.priceGuard()))
	for sku, pair := range x.done {
		if i, ok := index[sku]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]} // as changeTextsIn wrote them
		}
	}
	return v, nil
}

// priceInputs are a record's price and sale as the form's inputs show
// them, with the reader's decimal mark; "" for no sale (massupdate.OnSale).
func priceInputs(l i18n.Lang, price, sale int64) (string, string) {
	if !massupdate.OnSale(price, sale) {
		return format.MoneyInputIn(l, price), ""
	}
	return format.MoneyInputIn(l, price), format.MoneyInputIn(l, sale)
}

// changeTextsIn is a price row's change (massupdate.ChangeTexts) as the page shows it, in the language and
// number format of ctx.
func changeTextsIn(ctx context.Context, in massupdate.PriceInput) (before, after string) {
	b, a := massupdate.ChangeTexts(in)
	return format.Message(ctx, b), format.Message(ctx, a)
}
