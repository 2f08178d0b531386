package massupdate

// The prices forms' use cases below HTTP: a submit's rows checked and
// held beyond the price guard unless the form confirms them (the per-SKU
// form and the card form of the lamoda profile, whose "send anyway"
// forces only the cards the previous answer held), and what a row's
// change, a held row and a price-check finding say, as typed messages.

import (
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// FormError is a form that asks more than a form may (too many rows
// confirmed): the request is refused, its words the messages.
type FormError struct{ Msgs i18n.Msgs }

func (e *FormError) Error() string { return e.Msgs.String() }

// formConfirmations are the values of a form's field, each confirming
// one row; more than MaxFormRows is a *FormError saying tooMany.
func formConfirmations(form url.Values, field string, tooMany i18n.Msg) (map[string]bool, error) {
	vals := form[field]
	if len(vals) > MaxFormRows {
		return nil, &FormError{Msgs: i18n.Of(tooMany)}
	}
	out := make(map[string]bool, len(vals))
	for _, v := range vals {
		out[v] = true
	}
	return out, nil
}

// PricesForm is the per-SKU prices form's check, with the fat-finger
// guard in percent (0: off).
type PricesForm struct{ Guard int }

// Check checks the form's rows (CheckPrices) and holds the rows beyond
// the guard the form does not confirm, by the GuardTokens its
// confirm_guard fields carry (HoldPrices).
func (f PricesForm) Check(form url.Values, rows []PriceInput) (Checked[PriceInput, apiclient.PriceUpdate], error) {
	confirmed, err := formConfirmations(form, "confirm_guard", i18n.M("prices.too_many_guard", nil))
	if err != nil {
		return Checked[PriceInput, apiclient.PriceUpdate]{}, err
	}
	return HoldPrices(CheckPrices(rows), max(f.Guard, 0), confirmed), nil
}

// CardsForm is the card prices form's check (the lamoda profile): the
// cards the previous answer held past a price-check warning for Account,
// and the guard in percent.
type CardsForm struct {
	Held    HeldCards
	Account string
	Guard   int
}

// Check checks the form's rows (CheckCards) and holds the cards beyond
// the guard it does not confirm (HoldCards). Force is set only when the
// user pressed "send anyway" (action=force), and only for the cards held,
// at the prices they were held at (HeldCards.Confirmed).
func (f CardsForm) Check(form url.Values, rows []PriceInput) (Checked[PriceInput, CardPrice], error) {
	forced := map[string]bool{}
	if form.Get("action") == "force" {
		var err error
		if forced, err = formConfirmations(form, "force_card", i18n.M("prices.too_many_confirmed", nil)); err != nil {
			return Checked[PriceInput, CardPrice]{}, err
		}
	}
	checked := CheckCards(rows, f.Held.Confirmed(f.Account, forced, rows))
	confirmed, err := formConfirmations(form, "confirm_guard", i18n.M("prices.too_many_guard", nil))
	if err != nil {
		return checked, err
	}
	return HoldCards(checked, max(f.Guard, 0), confirmed), nil
}

// LastChunkKeys are the keys of the last chunk items go out in, sent as
// kind in chunks of size: a page read beside that chunk may not show
// their update yet.
func LastChunkKeys[T any](kind Kind[T], items []T, size int) []string {
	if len(items) == 0 || size <= 0 {
		return nil
	}
	last := items[(len(items)-1)/size*size:]
	keys := make([]string, len(last))
	for i, it := range last {
		keys[i] = kind.Key(it)
	}
	return keys
}

// ChangeTexts are the before and after of an accepted price row as the
// history keeps them: messages kept as data, read in the reader's
// language and number format. They hold the price, and the sale price
// too when it changed, so a sale-only change reads as one
// ("17 399,00 (со скидкой —) → 17 399,00 (со скидкой 15 000,00)").
func ChangeTexts(in PriceInput) (before, after i18n.Msgs) {
	text := func(price, sale string) i18n.Msgs {
		ms := []i18n.Msg{{Text: amountArg(price)}}
		if !SameMoney(in.Sale, in.OrigSale) {
			ms = append(ms, i18n.M("prices.sale_change", map[string]any{"Sale": amountArg(sale)}))
		}
		return i18n.Of(ms...)
	}
	return text(in.OrigPrice, in.OrigSale), text(in.Price, in.Sale)
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

// HeldNote is what a form row held beyond guard percent says: held until
// confirmed, and that the change ends the running sale, when it does.
func HeldNote(guard int, in PriceInput, h Held) i18n.Msgs {
	msgs := i18n.Of(i18n.M("prices.held", map[string]any{"Guard": strconv.Itoa(guard)}))
	if h.Delta.SaleEnds {
		if cur, ok := in.Current(); ok {
			msgs = i18n.Join(msgs, SaleEndsNote(cur, apiclient.PriceUpdate{}))
		}
	}
	return msgs
}

// FraudNote says what a price-check finding is about: the value it
// names, whether the check only warns or refuses it, and the number of
// promotions it names (the list itself is the marketplace's and
// unbounded: not kept).
func FraudNote(f apiclient.FraudValidation) i18n.Msgs {
	what := i18n.M("prices.fraud_change", nil)
	switch f.ChangedValue {
	case "black_price":
		what = i18n.M("prices.fraud_black_price", nil)
	case "red_price":
		what = i18n.M("prices.fraud_red_price", nil)
	case "sale_period":
		what = i18n.M("prices.fraud_sale_period", nil)
	case "red_price_and_sale_period":
		what = i18n.M("prices.fraud_red_price_and_sale_period", nil)
	}
	out := i18n.Of(i18n.M("prices.fraud_differs", map[string]any{"What": what}))
	if f.Status == "restriction" {
		out = i18n.Of(i18n.M("prices.fraud_not_allowed", map[string]any{"What": what}))
	}
	var promos []json.RawMessage
	if len(f.Promotions) > 0 && json.Unmarshal(f.Promotions, &promos) == nil && len(promos) > 0 {
		out = append(out, i18n.M("prices.fraud_promotions", map[string]any{"Count": len(promos)}))
	}
	return out
}
