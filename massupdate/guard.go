package massupdate

import (
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// DefaultGuardPercent is the fat-finger guard when none is configured
// (SELLERDESK_BULK_GUARD_PERCENT unset).
const DefaultGuardPercent = 50

// GuardDelta is the change of a price update the guard measures: the
// amount that moved the most, from Old to New (kopecks), and whether the
// update ends the running sale.
type GuardDelta struct {
	Old, New int64
	// SaleEnds: a sale runs and the update sends none, so it ends.
	SaleEnds bool
}

// Permille is the change in tenths of a percent, negative for a drop,
// cut toward zero: a drop from 16 799,00 to 1,00 reads −99,9 %, not
// −100,0 %.
func (d GuardDelta) Permille() int64 {
	if d.Old <= 0 {
		return 0
	}
	return (d.New - d.Old) * 1000 / d.Old
}

// PriceChange is what a price update changes against the current price
// cur: of the price, and of the sale price against the running sale (or,
// with none, the price), the change that is the largest part of its old
// value.
func PriceChange(cur PriceNow, upd apiclient.PriceUpdate) GuardDelta {
	d := GuardDelta{Old: cur.Price, New: int64(upd.Price), SaleEnds: cur.Sale > 0 && upd.SalePrice == nil}
	if upd.SalePrice != nil {
		old := cur.Sale
		if old <= 0 {
			old = cur.Price
		}
		s := GuardDelta{Old: old, New: int64(*upd.SalePrice), SaleEnds: d.SaleEnds}
		if abs(s.Permille()) > abs(d.Permille()) {
			d = s
		}
	}
	return d
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// BeyondGuard reports whether a change from old to new is more than
// ±percent of old; percent 0 or below turns the guard off.
func BeyondGuard(percent int, old, new int64) bool {
	if old <= 0 || percent <= 0 {
		return false
	}
	diff := new - old
	if diff < 0 {
		diff = -diff
	}
	return diff*100 > int64(percent)*old
}

// PriceBeyondGuard is the one fat-finger rule of every way a price changes
// (the prices form, the card form of the lamoda profile, an import's
// preview, a retry's): an update that moves the price, or the sale price,
// by more than ±percent of its current value (cur) is held, shown with its
// change, and sent only once the user confirms that row. It returns the
// change and whether it is beyond the guard; percent 0 or below turns the
// guard off.
func PriceBeyondGuard(percent int, cur PriceNow, upd apiclient.PriceUpdate) (GuardDelta, bool) {
	d := PriceChange(cur, upd)
	beyond := BeyondGuard(percent, cur.Price, int64(upd.Price))
	if upd.SalePrice != nil {
		old := cur.Sale
		if old <= 0 {
			old = cur.Price
		}
		beyond = beyond || BeyondGuard(percent, old, int64(*upd.SalePrice))
	}
	return d, beyond
}

// GuardToken is what a form's confirmation of a held row carries: the
// row's key and the amounts confirmed, so that a confirmation covers only
// the change it was given for.
func GuardToken(key string, upd apiclient.PriceUpdate) string {
	t := key + "|" + strconv.FormatInt(int64(upd.Price), 10)
	if upd.SalePrice != nil {
		t += "|" + strconv.FormatInt(int64(*upd.SalePrice), 10)
	}
	return t
}

// Current is the price the form showed a row at (its baseline), as the
// guard measures against; ok is false when the baseline does not read.
func (r PriceInput) Current() (PriceNow, bool) {
	price, err := apiclient.ParseMoney(r.OrigPrice)
	if err != nil || price <= 0 {
		return PriceNow{}, false
	}
	now := PriceNow{Price: int64(price)}
	if r.OrigSale != "" {
		sale, err := apiclient.ParseMoney(r.OrigSale)
		if err != nil {
			return PriceNow{}, false
		}
		if sale > 0 && sale != price {
			now.Sale = int64(sale)
		}
	}
	return now, true
}

// Held is a form row beyond the guard: its change, the token a
// confirmation of it carries, and whether the form confirmed it (then it
// is sent; else it is held).
type Held struct {
	Delta     GuardDelta
	Token     string
	Confirmed bool
}

// HoldBeyondGuard takes out of c.Send the price updates beyond the guard
// (PriceBeyondGuard, against the baseline the form showed) that the user
// has not confirmed. Every row beyond the guard is kept in c.Held by key,
// the confirmed ones (sent) marked so; confirmed holds the GuardTokens the
// form's confirmations carry. update names an item's row and its price
// update.
func HoldBeyondGuard[Out any](c Checked[PriceInput, Out], percent int, confirmed map[string]bool, update func(Out) (string, apiclient.PriceUpdate)) Checked[PriceInput, Out] {
	if percent <= 0 {
		return c
	}
	send := c.Send[:0:0]
	for _, out := range c.Send {
		key, upd := update(out)
		cur, ok := c.Inputs[key].Current()
		if !ok {
			send = append(send, out)
			continue
		}
		d, beyond := PriceBeyondGuard(percent, cur, upd)
		if !beyond {
			send = append(send, out)
			continue
		}
		h := Held{Delta: d, Token: GuardToken(key, upd)}
		h.Confirmed = confirmed[h.Token]
		if h.Confirmed {
			send = append(send, out)
		}
		if c.Held == nil {
			c.Held = map[string]Held{}
		}
		c.Held[key] = h
	}
	c.Send = send
	return c
}

// Waiting counts the rows of c held for the user's confirmation.
func (c Checked[In, Out]) Waiting() int {
	n := 0
	for _, h := range c.Held {
		if !h.Confirmed {
			n++
		}
	}
	return n
}

// SaleEndsNote is the note of an update that ends the running sale of
// cur, or nil.
func SaleEndsNote(cur PriceNow, upd apiclient.PriceUpdate) i18n.Msgs {
	if cur.Sale <= 0 || upd.SalePrice != nil {
		return nil
	}
	return i18n.Of(i18n.M("mass.sale_ends", map[string]any{"Sale": apiclient.Money(cur.Sale).Decimal()}))
}

// HoldPrices is the guard of the per-SKU prices form (HoldBeyondGuard):
// a row is its SKU.
func HoldPrices(c Checked[PriceInput, apiclient.PriceUpdate], percent int, confirmed map[string]bool) Checked[PriceInput, apiclient.PriceUpdate] {
	return HoldBeyondGuard(c, percent, confirmed, func(u apiclient.PriceUpdate) (string, apiclient.PriceUpdate) { return u.MarketplaceSKU, u })
}

// HoldCards is the guard of the card prices form (the lamoda profile;
// HoldBeyondGuard): a row is its card.
func HoldCards(c Checked[PriceInput, CardPrice], percent int, confirmed map[string]bool) Checked[PriceInput, CardPrice] {
	return HoldBeyondGuard(c, percent, confirmed, func(cp CardPrice) (string, apiclient.PriceUpdate) { return cp.Parent, cp.PriceUpdate })
}

// Hint is a warning beside a field of a prices form's row, as the page's
// script gives it while the user types: a price or sale price the
// marketplace's known rule refuses as too deep a drop (DropTenths: the
// drop in tenths of a percent, cut toward zero as the script cuts it), or
// a running sale (Sale, kopecks) the change ends.
type Hint struct {
	DropTenths int64
	Sale       int64
}

// Hints are the warnings beside the fields ("price", "sale") of a typed
// row against the baseline the form showed it at; nil for none or when
// the baseline does not read.
func (r PriceInput) Hints() map[string]Hint {
	cur, ok := r.Current()
	if !ok {
		return nil
	}
	var out map[string]Hint
	set := func(field string, h Hint) {
		if out == nil {
			out = make(map[string]Hint, 2)
		}
		out[field] = h
	}
	drop := func(field, typed string) {
		m, err := apiclient.ParseMoney(typed)
		if err != nil || !RefusedDrop(cur.Price, int64(m)) {
			return
		}
		set(field, Hint{DropTenths: (cur.Price - int64(m)) * 1000 / cur.Price})
	}
	if !SameMoney(r.Price, r.OrigPrice) {
		drop("price", r.Price)
	}
	switch {
	case r.Sale == "" && cur.Sale > 0:
		set("sale", Hint{Sale: cur.Sale})
	case r.Sale != "" && !SameMoney(r.Sale, r.OrigSale):
		drop("sale", r.Sale)
	}
	return out
}
