package handlers

// The prices page where the marketplace keys prices by product card (the
// lamoda wire profile, apiclient.Client.PricesByCard): one row per card
// with its sizes beneath, one item sent per changed card, each item error
// placed beside its card, and the marketplace's price-check findings shown,
// with "send anyway" (force) only as a separate, deliberate submit.
//
// PricesList and PricesSubmit (catalog.go) dispatch here; nothing else of
// the per-SKU page is shared but the form's columns (bindPriceInputs,
// priceInput.validate) and the list call (fetchCatalogPage).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// cardReport accounts for every submitted card exactly once, and keeps the
// marketplace's price-check findings by card.
type cardReport struct {
	bulkReport
	// fraud holds the price-check findings by card (never dropped).
	fraud map[string][]apiclient.FraudValidation
}

// cardBatch is one set-prices request: its cards and whether the user
// confirmed them (force).
type cardBatch struct {
	items []apiclient.PriceUpdate
	force bool
}

// cardErrorKey places an item error: by the card it names, else by the
// size (lamodaSku) it names, marked so the view maps it to its card.
func cardErrorKey(e apiclient.ItemError) string {
	if e.ParentSKU != "" {
		return e.ParentSKU
	}
	return skuKeyPrefix + e.MarketplaceSKU
}

func cardKey(u apiclient.PriceUpdate) string { return u.ParentSKU }

// skuKeyPrefix marks an unmatched error key that is a size's SKU, not a
// card.
const skuKeyPrefix = "sku:"

// sendCards sends the cards' updates, the unconfirmed first and the
// confirmed (force) after, in chunks, one mass-update request at a time for
// the seller (the same lock as every mass update), and accounts for every
// card: accepted, rejected with the marketplace's messages, not sent, or
// sent without an answer.
func (a *App) sendCards(ctx context.Context, acct *apiclient.Account, seller int64, batches []cardBatch) (*cardReport, error) {
	rep := &cardReport{bulkReport: bulkReport{outcomes: map[string]outcome{}}}
	unlock, err := a.deps.Sessions.Lock(ctx, "mass-update/"+strconv.FormatInt(seller, 10))
	if err != nil {
		return nil, errSessionStore(err)
	}
	defer unlock()
	ctx = apiclient.WithRetryBudget(ctx, a.deps.BulkRetryBudget)
	size := max(a.deps.ChunkSize, 1)
	var chunks []cardBatch
	for _, b := range batches {
		for start := 0; start < len(b.items); start += size {
			chunks = append(chunks, cardBatch{items: b.items[start:min(start+size, len(b.items))], force: b.force})
		}
	}
	for n, ch := range chunks {
		cctx, cancel := context.WithTimeout(ctx, a.deps.UpstreamTimeout+a.deps.BulkRetryBudget)
		res, err := acct.Seller.SetPrices(cctx, &apiclient.SetPricesRequest{Prices: ch.items, SellerID: seller, Force: ch.force})
		cancel()
		if err != nil {
			var ss *sessionStoreError
			if n == 0 && (errors.Is(err, apiclient.ErrUnauthorized) || errors.As(err, &ss)) {
				return nil, err
			}
			rep.stopped = err
			rest := chunks[n:]
			if errors.Is(err, apiclient.ErrOutcomeUnknown) {
				for _, u := range ch.items {
					rep.outcomes[u.ParentSKU] = outcome{state: "unknown"}
					rep.unknown++
				}
				rest = chunks[n+1:]
			}
			for _, r := range rest {
				for _, u := range r.items {
					rep.outcomes[u.ParentSKU] = outcome{state: "unsent"}
					rep.unsent++
				}
			}
			return rep, nil
		}
		rejected := map[string][]string{}
		for _, ie := range res.Errors {
			msgs := ie.Messages
			if len(msgs) == 0 {
				msgs = []string{fmt.Sprintf("Rejected by the marketplace (code %d).", ie.Code)}
			}
			k := cardErrorKey(ie)
			rejected[k] = append(rejected[k], msgs...)
		}
		for _, f := range res.FraudValidations {
			if rep.fraud == nil {
				rep.fraud = map[string][]apiclient.FraudValidation{}
			}
			if len(rep.fraud[f.ParentSKU]) < 8 { // bounded: a card has a few findings at most
				rep.fraud[f.ParentSKU] = append(rep.fraud[f.ParentSKU], f)
			}
		}
		for _, u := range ch.items {
			if msgs, ok := rejected[u.ParentSKU]; ok {
				rep.outcomes[u.ParentSKU] = outcome{state: "rejected", messages: msgs}
				rep.rejected++
				delete(rejected, u.ParentSKU)
			} else {
				rep.outcomes[u.ParentSKU] = outcome{state: "accepted"}
				rep.accepted++
			}
		}
		for k, msgs := range rejected {
			if rep.unmatched == nil {
				rep.unmatched = map[string][]string{}
			}
			rep.unmatched[k] = append(rep.unmatched[k], msgs...)
		}
	}
	return rep, nil
}

// cardPricesList shows the per-card price editor.
func (a *App) cardPricesList(c echo.Context) error {
	q := pricesQuery(c)
	sess := session(c)
	inputs := restoreDraft(sess, "prices", bindPriceInputs, priceInput.key)
	var done map[string][]string
	if d := sess.PopDraft("prices-done"); d != nil {
		done = d
	}
	v, err := a.cardPricesView(c, q, inputs, nil, nil, done)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.CardPricesPage(a.chrome(c, "Prices", "prices"), v), pages.CardPricesForm(v))
}

// cardPricesSubmit validates the edited cards and sends only the changed
// ones, one item per card. force is sent only for the cards the answer
// before listed with a price-check warning, and only when the user pressed
// that answer's "send anyway" (action=force): the plain submit never sets
// it.
func (a *App) cardPricesSubmit(c echo.Context) error {
	q := pricesQuery(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	rows, err := bindPriceInputs(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	confirmed := map[string]bool{}
	if form.Get("action") == "force" {
		if len(form["force_card"]) > maxFormRows {
			return echo.NewHTTPError(http.StatusBadRequest, "The form confirms too many cards.")
		}
		for _, p := range form["force_card"] {
			confirmed[p] = true
		}
	}
	inputs := make(map[string]priceInput, len(rows))
	invalid := map[string]map[string]string{}
	var plain, forced []apiclient.PriceUpdate
	for _, r := range rows {
		if !r.changed() {
			continue
		}
		if _, dup := inputs[r.SKU]; dup {
			invalid[r.SKU] = map[string]string{"price": "This card appears twice in the form; change it in one row only."}
			continue
		}
		inputs[r.SKU] = r
		upd, errs := r.validate()
		if errs != nil {
			invalid[r.SKU] = errs
			continue
		}
		upd.ParentSKU, upd.MarketplaceSKU = r.SKU, ""
		if confirmed[r.SKU] {
			forced = append(forced, upd)
		} else {
			plain = append(plain, upd)
		}
	}
	sess := session(c)
	back := q.link("/prices")
	if len(invalid) > 0 {
		return a.renderCardPricesResult(c, q, inputs, invalid, nil,
			&pages.Summary{Invalid: len(invalid), Note: "Nothing was sent: fix the marked fields first"})
	}
	if len(plain)+len(forced) == 0 {
		sess.AddFlash("info", "No prices were changed, so nothing was sent.")
		return a.redirect(c, back)
	}
	seller := sess.Data().SellerID
	rep, err := a.sendCards(c.Request().Context(), a.account(c), seller,
		[]cardBatch{{items: plain}, {items: forced, force: true}})
	if err != nil {
		return err
	}
	// audit trail (issue 17.3): every card sent, old → new, and its answer
	a.recordReport(c, audit.KindPrice, &rep.bulkReport, keysOf(append(plain[:len(plain):len(plain)], forced...), cardKey),
		func(k string) (string, string) { return changeTexts(inputs[k]) })
	a.logger(c.Request().Context()).Info("card prices submitted", "sent", len(plain)+len(forced), "confirmed", len(forced),
		"accepted", rep.accepted, "rejected", rep.rejected, "unsent", rep.unsent, "price_checks", len(rep.fraud))
	if rep.complete() && len(rep.fraud) == 0 {
		sess.AddFlash("ok", format.Count(rep.accepted, "card price", "card prices")+" updated.")
		done := map[string][]string{}
		for k, in := range inputs {
			if len(done) < 300 {
				before, after := changeTexts(in)
				done[k] = []string{before, after}
			}
		}
		sess.SetDraft("prices-done", done)
		return a.redirect(c, back)
	}
	return a.renderCardPricesResult(c, q, inputs, invalid, rep, &pages.Summary{Note: rep.note()})
}

func (a *App) renderCardPricesResult(c echo.Context, q listQuery, inputs map[string]priceInput, invalid map[string]map[string]string, rep *cardReport, s *pages.Summary) error {
	v, err := a.cardPricesView(c, q, inputs, invalid, rep, nil)
	if err != nil {
		return err
	}
	if rep != nil {
		s.Rejected, s.Updated = rep.rejected, rep.accepted
		if n := len(rep.unmatched); n > 0 {
			s.Note += " " + format.Count(n, "error of the marketplace names", "errors of the marketplace name") + " a product not on this page."
		}
	}
	v.Summary = s
	return a.render(c, http.StatusUnprocessableEntity, pages.CardPricesPage(a.chrome(c, "Prices", "prices"), v), pages.CardPricesForm(v))
}

// cardPricesView fetches the page, groups its records by product card (in
// list order), and lays the typed values, outcomes and price-check
// findings over the cards. As on the per-SKU page, a card the user edited
// that the page no longer lists still shows while it needs the user.
func (a *App) cardPricesView(c echo.Context, q listQuery, inputs map[string]priceInput, invalid map[string]map[string]string,
	rep *cardReport, done map[string][]string) (pages.CardPricesView, error) {
	sess := session(c)
	recs, total, npages, err := fetchCatalogPage(a.pageContext(c), a.account(c), sess.Data().SellerID, q)
	if err != nil {
		return pages.CardPricesView{}, err
	}
	v := pages.CardPricesView{
		Limit:  strconv.Itoa(q.Limit),
		Limits: limitOptions(catalogLimits),
		Pager:  q.pager("/prices", npages, total),
		Action: q.link("/prices"),

		ExportQuery: a.exportQuery(q),
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
			if msgs, ok := rep.unmatched[skuKeyPrefix+n.MarketplaceSKU]; ok && rep.outcomes[parent].state != "" {
				rep.reject(parent, msgs)
				delete(rep.unmatched, skuKeyPrefix+n.MarketplaceSKU)
			}
		}
		size := pages.CardSize{SKU: n.MarketplaceSKU, Size: n.Size, Barcode: n.Barcode,
			Current: format.Money(int64(n.Price)), CurrentSale: saleText(n), UpdateStatus: n.PriceUpdateStatus}
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
		if _, bad := invalid[parent]; !bad && rep != nil && rep.outcomes[parent].state == "accepted" && len(rep.fraud[parent]) == 0 {
			continue
		}
		index[parent] = len(v.Rows)
		v.Rows = append(v.Rows, pages.CardRow{Parent: parent, Name: "(no longer on this page)"})
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
		o := rep.outcomes[parent]
		switch o.state {
		case "accepted":
			before, after := changeTexts(in)
			row.Result = pages.RowResult{State: "accepted", Before: before, After: after}
			row.OrigPrice, row.OrigSale, row.OrigStart, row.OrigEnd = in.Price, in.Sale, in.Start, in.End
		case "rejected":
			row.Result = pages.RowResult{State: "rejected", Messages: o.messages}
		case "unsent", "unknown":
			row.Result = pages.RowResult{State: o.state}
		}
		for _, f := range rep.fraud[parent] {
			row.Fraud = append(row.Fraud, pages.FraudNote{Status: f.Status, Text: fraudText(f)})
			// Only a held change may be confirmed, and only past a warning:
			// a restriction is the marketplace's refusal.
			if f.Status == "warning" && o.state == "rejected" {
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
		for parent, fs := range rep.fraud {
			if _, typed := inputs[parent]; typed {
				continue
			}
			if i, ok := index[parent]; ok {
				for _, f := range fs {
					v.Rows[i].Fraud = append(v.Rows[i].Fraud, pages.FraudNote{Status: f.Status, Text: fraudText(f)})
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
func fraudText(f apiclient.FraudValidation) string {
	what := map[string]string{
		"black_price":               "The new price",
		"red_price":                 "The new sale price",
		"sale_period":               "The sale period",
		"red_price_and_sale_period": "The new sale price and sale period",
	}[f.ChangedValue]
	if what == "" {
		what = "The change"
	}
	out := what + " differs sharply from the current one"
	if f.Status == "restriction" {
		out = what + " is not allowed by the marketplace's price check"
	}
	var promos []json.RawMessage
	if len(f.Promotions) > 0 && json.Unmarshal(f.Promotions, &promos) == nil && len(promos) > 0 {
		out += " (" + format.Count(len(promos), "promotion", "promotions") + " concerned)"
	}
	return out + "."
}
