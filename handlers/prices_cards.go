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
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// cardPricesList shows the per-card price editor.
func (a *App) cardPricesList(c echo.Context) error {
	q := pricesQuery(c)
	sess := session(c)
	inputs := restoreDraft(c.Request().Context(), sess, draftPrices, massupdate.BindPriceInputs, massupdate.PriceInput.Key)
	var done map[string][]string
	if d := sess.PopDraft(draftPricesDone); d != nil {
		done = d
	}
	v, _, err := a.cardPricesView(c, q, inputs, nil, nil, nil, done)
	if err != nil {
		return err
	}
	return a.renderList(c, pages.CardPricesPage(a.chrome(c, i18n.T(c.Request().Context(), "prices.title"), "prices"), v), pages.CardPricesForm(v), pages.CardPricesAnswer(v))
}

// cardPricesSubmit validates the edited cards and sends only the changed
// ones, one item per card; "send anyway" forces only the cards the
// session's previous answer held, at the prices held
// (massupdate.CardsForm).
func (a *App) cardPricesSubmit(c echo.Context) error {
	q := pricesQuery(c)
	sess := session(c)
	return submitMass(a, c, massKind[massupdate.PriceInput, massupdate.CardPrice]{
		name: "card prices", back: q.link(at(c, paths.Prices)),
		unreadable: i18n.K("prices.form_unreadable"), fixFirst: i18n.K("prices.fix_first"), nothingChanged: i18n.K("prices.nothing_changed"), updated: i18n.K("prices.cards_updated"),
		bind: massupdate.BindPriceInputs,
		check: func(form url.Values, rows []massupdate.PriceInput) (massupdate.Checked[massupdate.PriceInput, massupdate.CardPrice], error) {
			return massupdate.CardsForm{Held: massupdate.PopHeldCards(sess), Account: heldAccount(sess), Guard: a.priceGuard()}.Check(form, rows)
		},
		send: func(ctx context.Context, cards []massupdate.CardPrice) (*massupdate.Report, error) {
			rep, err := massupdate.Send(ctx, a.deps.Engine, a.account(c), sess.Data().SellerID, massupdate.Cards, cards, nil)
			a.notePromotionsLeft(c, rep, cards) // prices_cards_promotions.go
			return rep, err
		},
		audit: audit.KindPrice, key: massupdate.Cards.Key, change: massupdate.ChangeTexts, kind: massupdate.Cards,
		sent: func(rep *massupdate.Report, cards []massupdate.CardPrice) {
			massupdate.KeepHeldCards(sess, heldAccount(sess), rep, cards)
		},
		logged: func(rep *massupdate.Report, cards []massupdate.CardPrice) []any {
			return []any{"confirmed", massupdate.CountForced(cards), "price_checks", len(rep.Fraud)}
		},
		shown: changeTextsIn,
		answer: func(c echo.Context, checked massupdate.Checked[massupdate.PriceInput, massupdate.CardPrice], rep *massupdate.Report, s *pages.Summary) error {
			return a.renderCardPricesResult(c, q, checked.Inputs, checked.Invalid, checked.Held, rep, s)
		},
	})
}

// renderCardPricesResult answers a submit that needs the user (422).
func (a *App) renderCardPricesResult(c echo.Context, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]i18n.Msgs, held map[string]massupdate.Held, rep *massupdate.Report, s *pages.Summary) error {
	v, rep, err := a.cardPricesView(c, q, inputs, invalid, held, rep, nil)
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

// cardPricesView fetches the page, groups its records by product card
// (massupdate.GroupCards), and lays the typed values, outcomes and
// price-check findings over the cards. As on the per-SKU page, a card the
// user edited that the page no longer lists still shows while it needs
// the user. It returns the report with the errors that named a size made
// their card's (massupdate.Report.MatchSizes).
func (a *App) cardPricesView(c echo.Context, q listQuery, inputs map[string]massupdate.PriceInput, invalid map[string]map[string]i18n.Msgs,
	held map[string]massupdate.Held, rep *massupdate.Report, done map[string][]string) (pages.CardPricesView, *massupdate.Report, error) {
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	// From the local copy once it exists, which keeps each
	// record's card; else live (browse)
	p, err := a.nomenclaturePage(c, &q)
	if err != nil {
		return pages.CardPricesView{}, nil, err
	}
	recs, total, npages := p.Records, p.Total, p.Pages
	toolbar, err := a.copyToolbar(c, paths.Prices, q, priceSorts)
	if err != nil {
		return pages.CardPricesView{}, nil, err
	}
	v := pages.CardPricesView{
		Copy:   toolbar,
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager(at(c, paths.Prices), npages, total),
		Action: q.link(at(c, paths.Prices)),

		ExportQuery: a.exportQuery(q),
		DropLimit:   massupdate.MarketDropLimit,
	}
	cards := massupdate.GroupCards(browse.Wire(recs))
	// An error naming a size the form could not know of is the card's.
	rep = rep.MatchSizes(cards)
	index := make(map[string]int, len(cards))
	for _, g := range cards {
		index[g.Parent] = len(v.Rows)
		n := g.Sizes[0]
		price, sale := priceInputs(l, int64(n.Price), int64(n.SalePrice))
		row := pages.CardRow{Parent: g.Parent, Name: n.Name, Brand: n.Brand, Current: format.MoneyIn(l, int64(n.Price)), CurrentSale: saleTextIn(l, int64(n.Price), int64(n.SalePrice)),
			UpdateStatus: g.UpdateStatus(), Mixed: g.Mixed(), OrigPrice: price, OrigSale: sale, Price: price, Sale: sale}
		for _, n := range g.Sizes {
			row.Sizes = append(row.Sizes, pages.CardSize{SKU: n.MarketplaceSKU, Size: n.Size, Barcode: n.Barcode,
				Current: format.MoneyIn(l, int64(n.Price)), CurrentSale: saleTextIn(l, int64(n.Price), int64(n.SalePrice)), UpdateStatus: n.PriceUpdateStatus})
		}
		v.Rows = append(v.Rows, row)
	}
	ans := massupdate.AnswerCards(func(parent string) bool { _, ok := index[parent]; return ok }, inputs, invalid, held, rep)
	for _, parent := range ans.OffPage {
		index[parent] = len(v.Rows)
		v.Rows = append(v.Rows, pages.CardRow{Parent: parent, Name: i18n.T(ctx, "prices.off_page")})
	}
	for parent, in := range inputs {
		i, ok := index[parent]
		if !ok {
			continue
		}
		row, an := &v.Rows[i], ans.Cards[parent]
		row.Price, row.Sale, row.Start, row.End = in.Price, in.Sale, in.Start, in.End
		row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.OrigPrice, in.OrigSale, in.OrigStart, in.OrigEnd
		row.Hints, row.Errors, row.Result, row.Confirmable = priceHints(ctx, in), an.Invalid, a.cardResult(ctx, in, an), an.Confirmable
		if an.Outcome.State == massupdate.Accepted {
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
			row.Hints = nil
		}
		for _, f := range an.Fraud {
			row.Fraud = append(row.Fraud, fraudNote(ctx, f.Status, massupdate.FraudNote(f)))
		}
	}
	v.ForceCards = ans.Force
	// Findings about a card the form did not hold (never expected) are
	// still shown: on the card when the page lists it.
	if rep != nil {
		for parent, fs := range rep.Fraud {
			if _, typed := inputs[parent]; typed {
				continue
			}
			if i, ok := index[parent]; ok {
				for _, f := range fs {
					v.Rows[i].Fraud = append(v.Rows[i].Fraud, fraudNote(ctx, f.Status, massupdate.FraudNote(f)))
				}
			}
		}
	}
	for parent, pair := range done {
		if i, ok := index[parent]; ok && len(pair) == 2 && v.Rows[i].Result.State == "" {
			v.Rows[i].Result = pages.RowResult{State: "accepted", Before: pair[0], After: pair[1]}
		}
	}
	a.markPromotions(c, &v) // prices_cards_promotions.go
	return v, rep, nil
}

// cardResult is a typed card's result (massupdate.AnswerCards) in the
// language of ctx.
func (a *App) cardResult(ctx context.Context, in massupdate.PriceInput, an massupdate.CardAnswer) pages.RowResult {
	var res pages.RowResult
	switch {
	case an.Invalid != nil:
		return pages.RowResult{State: "invalid"}
	case an.Waiting:
		return heldResult(ctx, a.priceGuard(), in, *an.Held, res)
	case an.Outcome.State == massupdate.Accepted:
		before, after := changeTextsIn(ctx, in)
		res = pages.RowResult{State: "accepted", Before: before, After: after}
	case an.Outcome.State == massupdate.Rejected:
		res = pages.RowResult{State: "rejected", Messages: an.Outcome.Messages}
	case an.Outcome.State == massupdate.Unsent, an.Outcome.State == massupdate.Unknown:
		res = pages.RowResult{State: pages.RowState(an.Outcome.State)}
	}
	if an.Sent && an.Held != nil && an.Outcome.State != massupdate.Accepted {
		res = heldResult(ctx, a.priceGuard(), in, *an.Held, res)
	}
	return res
}

// fraudNote is a price-check finding of status in words
// (massupdate.FraudNote), in the language of ctx.
func fraudNote(ctx context.Context, status string, ms i18n.Msgs) pages.FraudNote {
	return pages.FraudNote{Status: status, Text: format.Message(ctx, ms) + "."}
}

// heldAccount is the session's account as massupdate.HeldCards keeps it.
func heldAccount(sess *sessions.Session) string {
	d := sess.Data()
	return massupdate.HeldAccount(d.Environment, d.SellerID)
}
