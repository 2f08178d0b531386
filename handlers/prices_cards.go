package handlers

// The prices page where the marketplace keys prices by product card (the
// lamoda wire profile, apiclient.Client.PricesByCard): one row per card
// with its sizes beneath, one item sent per changed card, each item error
// placed beside its card, and the marketplace's price-check findings shown,
// with "send anyway" (force) only as a separate, deliberate submit.
//
// PricesList and PricesSubmit (prices.go) dispatch here. The rows are
// checked (massupdate.CheckCards) and sent (massupdate.Send with
// massupdate.Cards) by the one engine; this file keeps the HTTP and the
// view: the form's columns are the per-SKU page's (massupdate.PriceInput)
// and the page is the per-SKU page's too (nomenclaturePage: the local copy
// once it exists, with its search, sort and filters, else the list call).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// cardPricesList shows the per-card price editor.
func (a *App) cardPricesList(c echo.Context) error {
	q := pricesQuery(c)
	sess := session(c)
	inputs := restoreDraft(c.Request().Context(), sess, draftPrices, massupdate.BindPriceInputs, massupdate.PriceInput.Key)
	var done map[string][]string
	if d := sess.PopDraft("prices-done"); d != nil {
		done = d
	}
	v, err := a.cardPricesView(c, q, inputs, nil, nil, done)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.CardPricesPage(a.chrome(c, i18n.T(c.Request().Context(), "prices.title"), "prices"), v), pages.CardPricesForm(v))
}

// cardPricesSubmit validates the edited cards and sends only the changed
// ones, one item per card. force is sent only when the user pressed "send
// anyway" (action=force), and only for the cards the session's previous
// answer held past a price-check warning, at the prices it held them at
// (heldCards, kept in the session): a card named otherwise, or at another
// price, is sent without force and its warning shown again.
func (a *App) cardPricesSubmit(c echo.Context) error {
	q := pricesQuery(c)
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "prices.form_unreadable"))
	}
	rows, err := massupdate.BindPriceInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.MsgsOf(err))
	}
	sess := session(c)
	held := popHeldCards(sess)
	confirmed := map[string]bool{}
	if form.Get("action") == "force" {
		if len(form["force_card"]) > massupdate.MaxFormRows {
			return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "prices.too_many_confirmed"))
		}
		for _, p := range form["force_card"] {
			confirmed[p] = true
		}
	}
	checked := massupdate.CheckCards(rows, held.confirmed(sess, confirmed, rows))
	inputs, invalid, cards := checked.Inputs, checked.Invalid, checked.Send
	back := q.link("/prices")
	if len(invalid) > 0 {
		return a.renderCardPricesResult(c, q, inputs, invalid, nil,
			&pages.Summary{Invalid: len(invalid), Note: i18n.Of(i18n.M("prices.fix_first", nil))})
	}
	if len(cards) == 0 {
		sess.AddFlash("info", i18n.T(ctx, "prices.nothing_changed"))
		return a.redirect(c, back)
	}
	seller := sess.Data().SellerID
	rep, err := massupdate.Send(c.Request().Context(), a.deps.Engine, a.account(c), seller, massupdate.Cards, cards, nil)
	if err != nil {
		return massUpdateError(err)
	}
	// audit trail (issue 17.3): every card sent, old → new, and its answer
	a.recordReport(c, audit.KindPrice, rep, keysOf(cards, massupdate.Cards.Key), func(k string) (i18n.Msgs, i18n.Msgs) { return changeTexts(inputs[k]) })
	// issue 16: the copy shows every size of an accepted card at once, pending (handlers/copy_lists.go)
	a.copyPricesAccepted(c, rep, len(cards), func(i int) (string, apiclient.PriceUpdate) { return cards[i].Parent, cards[i].PriceUpdate })
	keepHeldCards(sess, rep, cards)
	a.logger(c.Request().Context()).Info("card prices submitted", "sent", len(cards), "confirmed", countForced(cards),
		"accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent, "price_checks", len(rep.Fraud))
	if rep.Complete() && len(rep.Fraud) == 0 {
		sess.AddFlash("ok", i18n.N(ctx, "prices.cards_updated", rep.Accepted))
		done := map[string][]string{}
		for k, in := range inputs {
			if len(done) < 300 {
				before, after := changeTextsIn(ctx, in)
				done[k] = []string{before, after}
			}
		}
		sess.SetDraft("prices-done", done)
		return a.redirect(c, back)
	}
	return a.renderCardPricesResult(c, q, inputs, invalid, rep, &pages.Summary{Note: rep.Note()})
}

func (a *App) renderCardPricesResult(c echo.Context, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]i18n.Msgs, rep *massupdate.Report, s *pages.Summary) error {
	v, err := a.cardPricesView(c, q, inputs, invalid, rep, nil)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.Rejected, rep.Accepted
		if n := len(rep.Unmatched); n > 0 {
			s.Note = i18n.Join(s.Note, i18n.Of(i18n.M("prices.unmatched", map[string]any{"Count": n})))
		}
	}
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.CardPricesPage(a.chrome(c, i18n.T(c.Request().Context(), "prices.title"), "prices"), v), pages.CardPricesForm(v))
}

// cardPricesView fetches the page, groups its records by product card (in
// list order), and lays the typed values, outcomes and price-check
// findings over the cards. As on the per-SKU page, a card the user edited
// that the page no longer lists still shows while it needs the user.
func (a *App) cardPricesView(c echo.Context, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]i18n.Msgs,
	rep *massupdate.Report, done map[string][]string) (pages.CardPricesView, error) {
	sess := session(c)
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	// issue 16: from the local copy once it exists, which keeps each
	// record's card (handlers/copy_lists.go)
	recs, total, npages, err := a.nomenclaturePage(c, a.pageContext(c), func() *apiclient.Account { return a.account(c) }, sess.Data().SellerID, q)
	if err != nil {
		return pages.CardPricesView{}, err
	}
	toolbar, err := a.copyToolbar(c, "/prices", q, priceSorts)
	if err != nil {
		return pages.CardPricesView{}, err
	}
	v := pages.CardPricesView{
		Copy:   toolbar,
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager("/prices", npages, total),
		Action: q.link("/prices"),

		ExportQuery: a.exportQuery(q),
		DropLimit:   massupdate.MarketDropLimit,
	}
	index := map[string]int{}
	seen := map[string]bool{}
	for _, n := range recs {
		parent := n.ParentSKU
		if parent == "" || seen[n.MarketplaceSKU] {
			continue // a record without its card cannot be priced here; a size once
		}
		seen[n.MarketplaceSKU] = true
		if rep != nil {
			// An error naming a size the form could not know of is the
			// card's (see massupdate.SizeKey).
			if msgs, ok := rep.Unmatched[massupdate.SizeKey(n.MarketplaceSKU)]; ok && rep.Outcomes[parent].State != "" {
				rep.Reject(parent, msgs)
				delete(rep.Unmatched, massupdate.SizeKey(n.MarketplaceSKU))
			}
		}
		size := pages.CardSize{SKU: n.MarketplaceSKU, Size: n.Size, Barcode: n.Barcode,
			Current: format.MoneyIn(l, int64(n.Price)), CurrentSale: saleTextIn(l, n), UpdateStatus: n.PriceUpdateStatus}
		if i, ok := index[parent]; ok {
			row := &v.Rows[i]
			row.Sizes = append(row.Sizes, size)
			row.Mixed = row.Mixed || size.Current != row.Current || size.CurrentSale != row.CurrentSale
			if row.UpdateStatus == "OK" || row.UpdateStatus == "" {
				row.UpdateStatus = n.PriceUpdateStatus // a size still processing or failed shows on the card
			}
			continue
		}
		index[parent] = len(v.Rows)
		price := format.MoneyInput(int64(n.Price))
		sale := ""
		if hasSale(n) {
			sale = format.MoneyInput(int64(n.SalePrice))
		}
		v.Rows = append(v.Rows, pages.CardRow{
			Parent: parent, Name: n.Name, Brand: n.Brand,
			Current: size.Current, CurrentSale: size.CurrentSale, UpdateStatus: n.PriceUpdateStatus,
			OrigPrice: price, OrigSale: sale, Price: price, Sale: sale,
			Sizes: []pages.CardSize{size},
		})
	}
	for parent := range inputs {
		if _, ok := index[parent]; ok {
			continue
		}
		if _, bad := invalid[parent]; !bad && rep != nil && rep.Outcomes[parent].State == massupdate.Accepted && len(rep.Fraud[parent]) == 0 {
			continue
		}
		index[parent] = len(v.Rows)
		v.Rows = append(v.Rows, pages.CardRow{Parent: parent, Name: i18n.T(ctx, "prices.off_page")})
	}
	for parent, in := range inputs {
		i, ok := index[parent]
		if !ok {
			continue
		}
		row := &v.Rows[i]
		row.Price, row.Sale, row.Start, row.End = in.Price, in.Sale, in.Start, in.End
		row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.OrigPrice, in.OrigSale, in.OrigStart, in.OrigEnd
		if errs, ok := invalid[parent]; ok {
			row.Errors = errs
			row.Result = pages.RowResult{State: "invalid"}
			continue
		}
		if rep == nil {
			continue
		}
		o := rep.Outcomes[parent]
		switch o.State {
		case massupdate.Accepted:
			before, after := changeTextsIn(ctx, in)
			row.Result = pages.RowResult{State: "accepted", Before: before, After: after}
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
		case massupdate.Rejected:
			row.Result = pages.RowResult{State: "rejected", Messages: o.Messages}
		case massupdate.Unsent, massupdate.Unknown:
			row.Result = pages.RowResult{State: string(o.State)}
		}
		for _, f := range rep.Fraud[parent] {
			row.Fraud = append(row.Fraud, pages.FraudNote{Status: f.Status, Text: fraudText(ctx, f)})
			// Only a held change may be confirmed, and only past a warning:
			// a restriction is the marketplace's refusal.
			if f.Status == "warning" && o.State == massupdate.Rejected {
				row.Confirmable = true
			}
		}
		if row.Confirmable && !slices.Contains(v.ForceCards, parent) {
			v.ForceCards = append(v.ForceCards, parent)
		}
	}
	// Findings about a card the form did not hold (never expected) are
	// still shown: on the card when the page lists it.
	if rep != nil {
		for parent, fs := range rep.Fraud {
			if _, typed := inputs[parent]; typed {
				continue
			}
			if i, ok := index[parent]; ok {
				for _, f := range fs {
					v.Rows[i].Fraud = append(v.Rows[i].Fraud, pages.FraudNote{Status: f.Status, Text: fraudText(ctx, f)})
				}
			}
		}
	}
	slices.Sort(v.ForceCards)
	for parent, pair := range done {
		if i, ok := index[parent]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]}
		}
	}
	return v, nil
}

// fraudText says what a price-check finding is about, in words, with the
// number of promotions it names (the list itself is the marketplace's and
// unbounded: not shown).
func fraudText(ctx context.Context, f apiclient.FraudValidation) string {
	var what string
	switch f.ChangedValue {
	case "black_price":
		what = i18n.T(ctx, "prices.fraud_black_price")
	case "red_price":
		what = i18n.T(ctx, "prices.fraud_red_price")
	case "sale_period":
		what = i18n.T(ctx, "prices.fraud_sale_period")
	case "red_price_and_sale_period":
		what = i18n.T(ctx, "prices.fraud_red_price_and_sale_period")
	default:
		what = i18n.T(ctx, "prices.fraud_change")
	}
	out := i18n.TD(ctx, "prices.fraud_differs", map[string]any{"What": what})
	if f.Status == "restriction" {
		out = i18n.TD(ctx, "prices.fraud_not_allowed", map[string]any{"What": what})
	}
	var promos []json.RawMessage
	if len(f.Promotions) > 0 && json.Unmarshal(f.Promotions, &promos) == nil && len(promos) > 0 {
		out += " " + i18n.N(ctx, "prices.fraud_promotions", len(promos))
	}
	return out + "."
}

// draftHeldCards is the session draft that keeps the cards the last
// answer held past a price-check warning.
const draftHeldCards = "prices-held"

// heldCards are the cards the marketplace held past a price-check warning
// in the session's previous answer, each with the account it was sent for
// and the price it was held at: the only cards "send anyway" may force.
// A card's values are heldValues of its price update as sent.
type heldCards url.Values

// heldValues is what heldCards keeps of a card's price update: the
// account (environment and seller: a session's drafts outlive a login as
// someone else), the price and sale price in kopecks (sale "" when none),
// the sale's start and end.
func heldValues(sess *sessions.Session, u apiclient.PriceUpdate) []string {
	d := sess.Data()
	sale := ""
	if u.SalePrice != nil {
		sale = strconv.FormatInt(int64(*u.SalePrice), 10)
	}
	return []string{d.Environment + "/" + strconv.FormatInt(d.SellerID, 10),
		strconv.FormatInt(int64(u.Price), 10), sale, u.SaleStartDate, u.SaleEndDate}
}

// popHeldCards takes the held cards out of the session: they answer one
// submit only, the next.
func popHeldCards(sess *sessions.Session) heldCards {
	return heldCards(sess.PopDraft(draftHeldCards))
}

// keepHeldCards keeps in the session the cards of rep the price check held
// with a warning (rejected, so not applied), at the prices sent.
func keepHeldCards(sess *sessions.Session, rep *massupdate.Report, cards []massupdate.CardPrice) {
	held := url.Values{}
	for _, cp := range cards {
		if rep.Outcomes[cp.Parent].State != massupdate.Rejected {
			continue
		}
		for _, f := range rep.Fraud[cp.Parent] {
			if f.Status == "warning" {
				held[cp.Parent] = heldValues(sess, cp.PriceUpdate)
				break
			}
		}
	}
	if len(held) > 0 {
		sess.SetDraft(draftHeldCards, held)
	}
}

// confirmed keeps of the cards the user confirmed (asked) those held for
// this account at exactly the price the rows now ask; the rows are read as
// CheckCards reads them, and a row that does not validate is not forced.
func (h heldCards) confirmed(sess *sessions.Session, asked map[string]bool, rows []massupdate.PriceInput) map[string]bool {
	if len(asked) == 0 || len(h) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, cp := range massupdate.CheckCards(rows, nil).Send {
		if asked[cp.Parent] && slices.Equal(url.Values(h)[cp.Parent], heldValues(sess, cp.PriceUpdate)) {
			out[cp.Parent] = true
		}
	}
	return out
}

// countForced counts the cards sent with force.
func countForced(cards []massupdate.CardPrice) int {
	n := 0
	for _, cp := range cards {
		if cp.Force {
			n++
		}
	}
	return n
}
