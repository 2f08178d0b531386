package massupdate

// A file exported before a change made through the dashboard still holds
// the value that change replaced: imported after it, its row would undo
// the change without a word. Such a row is "changed meanwhile": the copy
// keeps what the last accepted change of each part replaced
// (copystore.Replaced, Catalog.Replaced), and a row whose value in the file
// is that replaced value, while the record still shows the change's value,
// is sent only when it is confirmed on its own (a deliberate revert).

import (
	"slices"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// meanwhileKey is the key of the message of a row changed meanwhile.
var meanwhileKey = i18n.K("mass.changed_meanwhile")

// ChangedMeanwhile reports whether the preview found that row it would
// undo a change accepted through the dashboard after its file was
// exported: it is sent only when confirmed on its own, never by "confirm
// all".
func ChangedMeanwhile(it bulkjobs.Item) bool {
	return MeanwhileMessage(it) != nil
}

// MeanwhileMessage is the part of a row's message that says what changed
// after its file was exported: the value now, in the file and when; nil
// for a row not changed meanwhile.
func MeanwhileMessage(it bulkjobs.Item) i18n.Msgs {
	if i := slices.IndexFunc(it.Message, func(m i18n.Msg) bool { return m.Key == meanwhileKey }); i >= 0 {
		return i18n.Of(it.Message[i])
	}
	return nil
}

// meanwhileMsg says what a row changed meanwhile would undo: the value
// now, the value in the file and when the change was accepted.
func meanwhileMsg(now, file i18n.Msgs, at time.Time) i18n.Msgs {
	return i18n.Of(i18n.M("mass.changed_meanwhile", map[string]any{"Now": now, "File": file, "ChangedOn": at.UTC().Format(time.RFC3339)}))
}

// shownPrice is a kept price as the preview compares prices (a sale only
// while it is below the price).
func shownPrice(p copystore.Prices) PriceNow {
	return CurrentPrice(apiclient.Nomenclature{Price: apiclient.Money(p.Price), SalePrice: apiclient.Money(p.Sale)})
}

// meanwhilePrice is the message of a price row of rec asking for file
// when that is the price the last accepted change of rec replaced and rec
// still shows that change's price (cur); nil otherwise.
func (p Previewer) meanwhilePrice(rec apiclient.Nomenclature, cur, file PriceNow) i18n.Msgs {
	r, ok := p.Catalog.Replaced[StockKey(rec.WarehouseCode, rec.Barcode)]
	if !ok || r.Price == nil {
		return nil
	}
	was, to := shownPrice(r.Price.Was), shownPrice(r.Price.To)
	if was == to || file != was || cur != to {
		return nil
	}
	return meanwhileMsg(cur.Text(), file.Text(), r.Price.At)
}

// meanwhileStock is the message of a stock row of the record at key
// asking for qty (nil: the file leaves it) and status ("": likewise)
// when either is what the last accepted change of that part replaced and
// the record still shows that change's value (cur); nil otherwise.
func (p Previewer) meanwhileStock(key string, cur StockNow, qty *int, status string) i18n.Msgs {
	r, ok := p.Catalog.Replaced[key]
	if !ok {
		return nil
	}
	var at time.Time
	if q := r.Quantity; q != nil && qty != nil && q.Was != q.To && *qty == q.Was && cur.Quantity == q.To {
		at = q.At
	}
	if s := r.Status; s != nil && status != "" && s.Was != s.To && status == s.Was && cur.Status == s.To && s.At.After(at) {
		at = s.At
	}
	if at.IsZero() {
		return nil
	}
	file := cur
	if qty != nil {
		file.Quantity = *qty
	}
	if status != "" {
		file.Status = status
	}
	return meanwhileMsg(cur.Text(), file.Text(), at)
}
