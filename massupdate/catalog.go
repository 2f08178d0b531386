package massupdate

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// catalogPageLimit is the page size asked of the marketplace when the
// catalogue is read.
const catalogPageLimit = 100

// maxCatalogPages bounds a read of the catalogue whatever the marketplace
// says its page count is.
const maxCatalogPages = 100_000

// Catalog is the seller's catalogue, or the part of it a preview concerns,
// as read at one moment.
type Catalog struct {
	BySKU map[string]apiclient.Nomenclature // first record of each product
	ByKey map[string]apiclient.Nomenclature // warehouse|barcode
	// Replaced is, by warehouse|barcode, what the last changes accepted
	// through the dashboard replaced (read from the local copy; none
	// when the catalogue is read live): a file's row asking for such a
	// value again is changed meanwhile (meanwhile.go).
	Replaced map[string]copystore.Replaced
}

// NewCatalog is an empty catalogue, for Add.
func NewCatalog() *Catalog {
	return &Catalog{BySKU: map[string]apiclient.Nomenclature{}, ByKey: map[string]apiclient.Nomenclature{},
		Replaced: map[string]copystore.Replaced{}}
}

// Add records n; the first record of a product, in list order, is the
// product's.
func (cat *Catalog) Add(n apiclient.Nomenclature) {
	if _, ok := cat.BySKU[n.MarketplaceSKU]; !ok {
		cat.BySKU[n.MarketplaceSKU] = n
	}
	cat.ByKey[StockKey(n.WarehouseCode, n.Barcode)] = n
}

// StockKey is a stock record's key: its warehouse and barcode.
func StockKey(warehouse, barcode string) string { return warehouse + "|" + barcode }

// FetchCatalog reads every nomenclature record of the seller.
func FetchCatalog(ctx context.Context, acct *apiclient.Account, seller int64) (*Catalog, error) {
	cat := NewCatalog()
	for n, err := range acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: catalogPageLimit}) {
		if err != nil {
			return nil, err
		}
		cat.Add(n)
	}
	if err := overlaySellValues(ctx, acct, seller, cat, nil); err != nil {
		return nil, err
	}
	return cat, nil
}

// Want names the records a preview reads: products by marketplace SKU and
// stock records by key (StockKey). Cards asks, where prices are keyed by
// product card, for every size of the products' cards as well.
type Want struct {
	SKUs  map[string]bool
	Keys  map[string]bool
	Cards bool
}

// Empty reports whether w names no record.
func (w Want) Empty() bool { return len(w.SKUs) == 0 && len(w.Keys) == 0 }

// foundIn reports whether cat holds every record w names.
func (w Want) foundIn(cat *Catalog) bool {
	for sku := range w.SKUs {
		if _, ok := cat.BySKU[sku]; !ok {
			return false
		}
	}
	for k := range w.Keys {
		if _, ok := cat.ByKey[k]; !ok {
			return false
		}
	}
	return true
}

// WantItems names the records of a job's rows: a price row's key is its
// product, a stock row's its StockKey.
func WantItems(kind string, items []bulkjobs.Item) Want {
	w := Want{SKUs: map[string]bool{}, Keys: map[string]bool{}}
	for _, it := range items {
		switch {
		case it.Key == "":
		case kind == Stock.Name:
			w.Keys[it.Key] = true
		default:
			w.SKUs[it.Key] = true
		}
	}
	return w
}

// FetchWanted reads the seller's catalogue live, from its first page, until
// every record want names is found (the list call selects records by
// nothing but page), or the pages end. Each page is read under the
// seller's lock, so that it is the seller's only request in flight, beside
// mass updates and the local copy's sync. The sizes of a card (Want.Cards)
// are those the pages read list.
func (e *Engine) FetchWanted(ctx context.Context, acct *apiclient.Account, seller int64, want Want) (*Catalog, error) {
	cat := NewCatalog()
	if want.Empty() {
		return cat, nil
	}
	for page := 1; page <= maxCatalogPages; page++ {
		l, err := e.listPage(ctx, acct, seller, page)
		if err != nil {
			return nil, err
		}
		for _, n := range l.Nomenclatures {
			cat.Add(n)
		}
		if len(l.Nomenclatures) == 0 || page >= l.Pages || want.foundIn(cat) {
			break
		}
	}
	if acct.PriceAPI() == apiclient.PriceAPIV2 {
		parents := map[string]bool{}
		for sku := range want.SKUs {
			if n, ok := cat.BySKU[sku]; ok && n.ParentSKU != "" {
				parents[n.ParentSKU] = true
			}
		}
		unlock, err := e.lock(ctx, seller)
		if err != nil {
			return nil, err
		}
		defer unlock()
		if err := overlaySellValues(ctx, acct, seller, cat, parents); err != nil {
			return nil, err
		}
	}
	return cat, nil
}

// listPage reads one page of the seller's catalogue under the seller's
// lock.
func (e *Engine) listPage(ctx context.Context, acct *apiclient.Account, seller int64, page int) (*apiclient.NomenclatureList, error) {
	unlock, err := e.lock(ctx, seller)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: page, Limit: catalogPageLimit})
}

// PriceNow is a product's price as the preview saw it (kopecks).
type PriceNow struct {
	Price int64 `json:"price"`
	Sale  int64 `json:"sale"` // 0: no sale price
}

// StockNow is a record's stock as the preview saw it.
type StockNow struct {
	Quantity int    `json:"quantity"`
	Status   string `json:"status"`
}

// CurrentPrice is a record's price and running sale.
func CurrentPrice(n apiclient.Nomenclature) PriceNow {
	p := PriceNow{Price: int64(n.Price)}
	if OnSale(int64(n.Price), int64(n.SalePrice)) {
		p.Sale = int64(n.SalePrice)
	}
	return p
}

// Text shows the price the way the tables do.
//
// Like the messages it is kept as data: amounts as plain digits, written
// the reader's way when shown.
func (p PriceNow) Text() i18n.Msgs {
	if p.Sale > 0 {
		return i18n.Of(i18n.Msg{Text: apiclient.Money(p.Price).Decimal()}, i18n.M("mass.sale_of", map[string]any{"Sale": apiclient.Money(p.Sale).Decimal()}))
	}
	return i18n.Of(i18n.Msg{Text: apiclient.Money(p.Price).Decimal()})
}

// Text shows the stock the way the tables do.
func (s StockNow) Text() i18n.Msgs {
	return newStockText(strconv.Itoa(s.Quantity), s.Status)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// CurrentChanged compares a row's current value at preview with the
// catalogue now.
func CurrentChanged(kind string, it bulkjobs.Item, cat *Catalog) (i18n.Msgs, bool) {
	if kind == "stock" {
		var was StockNow
		_ = json.Unmarshal([]byte(it.Current), &was)
		rec, ok := cat.ByKey[it.Key]
		if !ok {
			return i18n.Of(i18n.M("mass.gone", nil)), true
		}
		now := StockNow{Quantity: rec.Quantity, Status: rec.Status}
		return now.Text(), now != was
	}
	var was PriceNow
	_ = json.Unmarshal([]byte(it.Current), &was)
	rec, ok := cat.BySKU[it.Key]
	if !ok {
		return i18n.Of(i18n.M("mass.gone", nil)), true
	}
	now := CurrentPrice(rec)
	return now.Text(), now != was
}
