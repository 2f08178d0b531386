package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
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
	return submitMass(a, c, massKind[massupdate.PriceInput, apiclient.PriceUpdate]{
		name: "prices", back: q.link(at(c, paths.Prices)),
		unreadable: i18n.K("prices.form_unreadable"), fixFirst: i18n.K("prices.fix_first"), nothingChanged: i18n.K("prices.nothing_changed"), updated: i18n.K("prices.updated"),
		bind: massupdate.BindPriceInputs,
		check: func(form url.Values, rows []massupdate.PriceInput) (massupdate.Checked[massupdate.PriceInput, apiclient.PriceUpdate], error) {
			return a.holdPrices(c.Request().Context(), form, massupdate.CheckPrices(rows))
		},
		send: func(ctx context.Context, updates []apiclient.PriceUpdate) (*massupdate.Report, error) {
			lastChunk, err := a.seller(c).ReadAhead(c.Request().Context(), q.reads(), &pre)
			if err != nil {
				return nil, err
			}
			rep, err := massupdate.Send(ctx, a.deps.Engine, a.account(c), session(c).Data().SellerID, massupdate.Prices, updates, lastChunk)
			if err != nil {
				return nil, err
			}
			if pre.Done && pre.Err == nil {
				last := updates[(len(updates)-1)/a.deps.Engine.Size()*a.deps.Engine.Size():]
				for _, n := range pre.Page.Records {
					if slices.ContainsFunc(last, func(u apiclient.PriceUpdate) bool { return u.MarketplaceSKU == n.MarketplaceSKU }) {
						pre = browse.Ahead{}
						break
					}
				}
			}
			return rep, nil
		},
		audit: audit.KindPrice, key: massupdate.Prices.Key, change: changeTexts, kind: massupdate.Prices,
		shown: changeTextsIn,
		answer: func(c echo.Context, checked massupdate.Checked[massupdate.PriceInput, apiclient.PriceUpdate], rep *massupdate.Report, s *pages.Summary) error {
			st := formState[massupdate.PriceInput]{inputs: checked.Inputs, invalid: checked.Invalid, report: rep, held: checked.Held}
			if rep == nil {
				return a.renderPricesResult(c, q, st, s, nil)
			}
			return a.renderPricesResult(c, q, st, s, &pre)
		},
	})
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
	var recs []browse.Record
	var total, npages int
	var err error
	if x.pre != nil && x.pre.Done {
		if err = x.pre.Err; err == nil {
			recs, total, npages = x.pre.Page.Records, x.pre.Page.Total, x.pre.Page.Pages
		}
	} else {
		// From the local copy once it exists, else live (browse)
		var p *browse.NomenclaturePage
		if p, err = a.nomenclaturePage(c, &q); err == nil {
			recs, total, npages = p.Records, p.Total, p.Pages
		}
	}
	if err != nil {
		return pages.PricesView{}, err
	}
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
	for _, n := range recs {
		if i, ok := index[n.MarketplaceSKU]; ok {
			v.Rows[i].Warehouses += ", " + n.WarehouseCode
			continue
		}
		st.matchLate(n.MarketplaceSKU, n.WarehouseCode+"|"+n.Barcode)
		index[n.MarketplaceSKU] = len(v.Rows)
		price := format.MoneyInputIn(l, int64(n.Price)) // the reader's decimal mark
		sale := ""
		if n.OnSale() {
			sale = format.MoneyInputIn(l, int64(n.SalePrice))
		}
		v.Rows = append(v.Rows, pages.PriceRow{
			SKU: n.MarketplaceSKU, Name: n.Name, Brand: n.Brand, Size: n.Size, Warehouses: n.WarehouseCode,
			Current: format.MoneyIn(l, int64(n.Price)), CurrentSale: saleTextIn(l, n.Price, n.SalePrice), UpdateStatus: n.PriceUpdateStatus,
			OrigPrice: price, OrigSale: sale, Price: price, Sale: sale,
		})
	}
	v.Rows = overlay(v.Rows, index, st, priceRows(ctx, a.priceGuard()))
	for sku, pair := range x.done {
		if i, ok := index[sku]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]} // as changeTexts wrote them
		}
	}
	return v, nil
}

// changeTexts are the before and after of an accepted row as the audit
// trail keeps them: messages kept as data, so the history
// reads them in its reader's language and number format. They hold the
// price, and the sale price too when it changed, so a sale-only change
// reads as one ("17 399,00 (со скидкой —) → 17 399,00 (со скидкой 15 000,00)").
func changeTexts(in massupdate.PriceInput) (before, after i18n.Msgs) {
	text := func(price, sale string) i18n.Msgs {
		ms := []i18n.Msg{{Text: amountArg(price)}}
		if !massupdate.SameMoney(in.Sale, in.OrigSale) {
			ms = append(ms, i18n.M("prices.sale_change", map[string]any{"Sale": amountArg(sale)}))
		}
		return i18n.Of(ms...)
	}
	return text(in.OrigPrice, in.OrigSale), text(in.Price, in.Sale)
}

// changeTextsIn is changeTexts as the page shows it, in the language and
// number format of ctx.
func changeTextsIn(ctx context.Context, in massupdate.PriceInput) (before, after string) {
	b, a := changeTexts(in)
	return format.Message(ctx, b), format.Message(ctx, a)
}

// amountArg is a typed amount as a message keeps it: plain digits with a
// decimal point ("17399.00", written the reader's way when shown), "—"
// for none, or as typed when it does not parse.
func amountArg(s string) string {
	if s == "" {
		return "—"
	}
	m, err := apiclient.ParseMoney(s)
	if err != nil {
		return s
	}
	return m.Decimal()
}
