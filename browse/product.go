package browse

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// ProductMaxRecords bounds the records (sizes × warehouses) a product's
// read lists.
const ProductMaxRecords = 500

// errProductFull stops the records' walk at ProductMaxRecords.
var errProductFull = errors.New("product: records listed up to the bound")

// Product is one product of the seller as the copy holds it.
type Product struct {
	// Complete is FromCopy's answer: a first full copy exists, so a
	// product the copy lacks does not exist.
	Complete bool
	// Records are the product's records, at most ProductMaxRecords; none
	// when the copy does not hold it.
	Records []copystore.Record
	// Points are the prices the copy observed.
	Points []copystore.PricePoint
	// Promotions are the card's promotions (a card's read only).
	Promotions []copystore.CardPromotion
	// Stock is the records' quantities summed by warehouse, in the
	// warehouses' order, and Total over all of them.
	Stock []Stock
	Total int
	// MixedStatus: the records do not all have the first one's status.
	MixedStatus bool
}

// Stock is a product's quantity at one warehouse.
type Stock struct {
	Warehouse string
	Quantity  int
}

// sum fills p's stock, total and mixed status from its records.
func (p *Product) sum() {
	by := map[string]int{}
	for _, r := range p.Records {
		by[r.Warehouse] += r.Quantity
		p.Total += r.Quantity
		p.MixedStatus = p.MixedStatus || r.Status != p.Records[0].Status
	}
	for _, wh := range slices.Sorted(maps.Keys(by)) {
		p.Stock = append(p.Stock, Stock{Warehouse: wh, Quantity: by[wh]})
	}
}

// Product reads one product from the copy: a marketplace SKU, or with
// byCard (the lamoda profile) a card with its sizes. It records the page
// view (FromCopy) and reads inside the page gate.
func (s *Seller) Product(ctx context.Context, sku string, byCard bool) (*Product, error) {
	complete, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	p := &Product{Complete: complete}
	if s.r.copy == nil {
		return p, nil
	}
	if ctx, err = s.enter(ctx); err != nil {
		return nil, err
	}
	store := s.r.copy.Store()
	look := copystore.Lookup{SKUs: []string{sku}}
	if byCard {
		look = copystore.Lookup{Cards: []string{sku}}
	}
	err = store.LookupNomenclature(ctx, s.key, look, func(r *copystore.Record) error {
		if len(p.Records) >= ProductMaxRecords {
			return errProductFull
		}
		p.Records = append(p.Records, *r)
		return nil
	})
	if err != nil && !errors.Is(err, errProductFull) {
		return nil, err
	}
	if len(p.Records) == 0 {
		return p, nil
	}
	p.sum()
	if p.Points, err = store.PricePoints(ctx, s.key, sku, byCard); err != nil {
		return nil, err
	}
	if byCard {
		promos, err := store.CardPromotions(ctx, s.key, []string{sku})
		if err != nil {
			return nil, err
		}
		p.Promotions = promos[sku]
	}
	return p, nil
}

// ProductKeys are the history's item keys that name the product: its SKU
// or card, its records' stock keys (warehouse|barcode) and barcodes.
func ProductKeys(sku string, recs []copystore.Record) []string {
	keys := map[string]bool{sku: true}
	for _, r := range recs {
		keys[r.MarketplaceSKU] = true
		keys[r.Barcode] = true
		keys[r.Warehouse+"|"+r.Barcode] = true
	}
	delete(keys, "")
	return slices.Sorted(maps.Keys(keys))
}

// HistoryPoints are the prices the history's accepted price changes of
// sku set, at their times, read from the items' new values (a price, and
// a sale as "mass.sale_of"): changes made before the copy observed prices
// are drawn too.
func HistoryPoints(entries []audit.Entry, sku string) []copystore.PricePoint {
	var out []copystore.PricePoint
	for _, e := range entries {
		if e.Kind != audit.KindPrice {
			continue
		}
		for _, it := range e.Items {
			if it.Key != sku || it.Outcome != audit.Accepted || len(it.New) == 0 {
				continue
			}
			price, err := apiclient.ParseMoney(it.New[0].Text)
			if err != nil || it.New[0].Key != "" {
				continue
			}
			p := copystore.PricePoint{At: e.At, Price: price.Kopecks()}
			for _, m := range it.New[1:] {
				if s, ok := m.Args["Sale"].(string); ok && m.Key == "mass.sale_of" {
					if sale, err := apiclient.ParseMoney(s); err == nil {
						p.SalePrice = sale.Kopecks()
					}
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// MergePoints is the observed prices with the history's before them (the
// changes made before the copy observed any: after that, the copy has
// each change the history has), in time order, a point repeating the
// prices before it left out.
func MergePoints(observed, recorded []copystore.PricePoint) []copystore.PricePoint {
	if len(observed) > 0 {
		first := observed[0].At
		recorded = slices.DeleteFunc(slices.Clone(recorded), func(p copystore.PricePoint) bool { return !p.At.Before(first) })
	}
	all := slices.Concat(observed, recorded)
	slices.SortStableFunc(all, func(a, b copystore.PricePoint) int { return a.At.Compare(b.At) })
	return slices.CompactFunc(all, func(a, b copystore.PricePoint) bool { return a.Price == b.Price && a.SalePrice == b.SalePrice })
}
