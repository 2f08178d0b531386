package massupdate

import (
	"context"
	"maps"
	"slices"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// CopyReader is what current values are read through from the local copy
// (copystore.Store).
type CopyReader interface {
	LookupNomenclature(ctx context.Context, k copystore.Key, l copystore.Lookup, fn func(r *copystore.Record) error) error
	Replacements(ctx context.Context, k copystore.Key, keys []copystore.StockKey) (map[copystore.StockKey]copystore.Replaced, error)
}

// CopySource is a seller's local copy, once a full copy of it exists.
type CopySource struct {
	Store CopyReader
	Key   copystore.Key
	// Record is a record of the copy as the marketplace lists it.
	Record func(r *copystore.Record) apiclient.Nomenclature
}

// Values reads the current values of the records a preview, or a
// submit's check that they did not change since, names: from the copy cp
// once a full copy of the seller exists (cp not nil), without a
// marketplace call, with what the dashboard's last changes replaced;
// else live with acct, page by page under the seller's lock and only
// until every record is found (FetchWanted).
func (e *Engine) Values(ctx context.Context, cp *CopySource, acct *apiclient.Account, seller int64) Current {
	return func(want Want) (*Catalog, error) {
		if cp == nil {
			return e.FetchWanted(ctx, acct, seller, want)
		}
		return cp.catalog(ctx, want)
	}
}

// catalog reads the records want names from the copy, with what the last
// changes accepted through the dashboard replaced of them.
func (cp *CopySource) catalog(ctx context.Context, want Want) (*Catalog, error) {
	cat := NewCatalog()
	add := func(r *copystore.Record) error {
		cat.Add(cp.Record(r))
		return nil
	}
	l := copystore.Lookup{SKUs: slices.Collect(maps.Keys(want.SKUs))}
	for key := range want.Keys {
		// A key is warehouse|barcode; a warehouse code with a "|" of its
		// own is looked up at every split.
		for i := range len(key) {
			if key[i] == '|' {
				l.Stock = append(l.Stock, copystore.StockKey{Warehouse: key[:i], Barcode: key[i+1:]})
			}
		}
	}
	if err := cp.Store.LookupNomenclature(ctx, cp.Key, l, add); err != nil {
		return cat, err
	}
	cards := map[string]bool{}
	for sku := range want.SKUs {
		if n, ok := cat.BySKU[sku]; ok && n.ParentSKU != "" && want.Cards {
			cards[n.ParentSKU] = true
		}
	}
	if len(cards) > 0 {
		if err := cp.Store.LookupNomenclature(ctx, cp.Key, copystore.Lookup{Cards: slices.Collect(maps.Keys(cards))}, add); err != nil {
			return cat, err
		}
	}
	// What the dashboard's last changes of these records replaced: a
	// row asking for it again would undo a change made since its file.
	keys := make([]copystore.StockKey, 0, len(cat.ByKey))
	for _, n := range cat.ByKey {
		keys = append(keys, copystore.StockKey{Warehouse: n.WarehouseCode, Barcode: n.Barcode})
	}
	replaced, err := cp.Store.Replacements(ctx, cp.Key, keys)
	if err != nil {
		return cat, err
	}
	for sk, r := range replaced {
		cat.Replaced[StockKey(sk.Warehouse, sk.Barcode)] = r
	}
	return cat, nil
}
