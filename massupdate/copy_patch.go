package massupdate

// The local copy takes what the marketplace accepted at once, whichever
// way it was sent (the forms, the bulk jobs and their retries, the
// filtered writes): PatchCopy is called in the step that records the
// change, so the lists, the exports, the previews and the stale-edit hold
// read the new values, marked pending until a read confirms them.

import (
	"context"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Copy is the local copy as PatchCopy writes it, and as a job's read-back
// confirms what it shows (copystore.Store).
type Copy interface {
	Accept(ctx context.Context, k copystore.Key, changes []copystore.Change) error
	Confirm(ctx context.Context, k copystore.Key, readAt time.Time, recs []apiclient.Nomenclature) error
}

// The parts of a stock row the filtered writes send on their own
// (Outcome.Applied).
const (
	PartQuantity = "quantity"
	PartStatus   = "status"
)

// PatchCopy writes into the copy k the rows of items the marketplace
// accepted, as rep accounts for them (rep's keys are kind's): an accepted
// row whole, a row partly applied (Outcome.Applied) only in its applied
// parts, and nothing of a row refused, unanswered or not sent. A nil copy
// or report writes nothing. A report whose rows the send already wrote
// into the copy, chunk by chunk (SendPatching), is not written again: its
// copy's first error, if any, is returned.
func PatchCopy[T any](ctx context.Context, c Copy, k copystore.Key, kind Kind[T], rep *Report, items []T) error {
	if rep != nil && rep.copied {
		return rep.copyErr
	}
	if c == nil || rep == nil || kind.Change == nil {
		return nil
	}
	var changes []copystore.Change
	for _, it := range items {
		o, ok := rep.Outcomes[kind.Key(it)]
		if !ok {
			continue
		}
		ch := kind.Change(it)
		switch {
		case o.State == Accepted:
		case len(o.Applied) > 0:
			ch = onlyParts(ch, o.Applied)
		default:
			continue
		}
		changes = append(changes, ch)
	}
	if len(changes) == 0 {
		return nil
	}
	return c.Accept(ctx, k, changes)
}

// onlyParts is ch with only the stock parts named kept.
func onlyParts(ch copystore.Change, parts []string) copystore.Change {
	out := copystore.Change{Warehouse: ch.Warehouse, Barcode: ch.Barcode}
	for _, p := range parts {
		switch p {
		case PartQuantity:
			out.Quantity = ch.Quantity
		case PartStatus:
			out.Status = ch.Status
		}
	}
	return out
}

// priceChange is a price update as the copy takes it, for the records of
// sku (a marketplace SKU or a product card).
func priceChange(sku string, u apiclient.PriceUpdate) copystore.Change {
	ch := copystore.Change{SKU: sku, Price: new(u.Price.Kopecks())}
	if u.SalePrice != nil {
		ch.SalePrice = u.SalePrice.Kopecks()
	}
	return ch
}

// copyStock is a stock row as the copy takes it.
func copyStock(i apiclient.StoreItem) copystore.Change {
	return copystore.Change{Warehouse: i.WarehouseCode, Barcode: i.Barcode, Quantity: i.Quantity, Status: i.Status}
}
