package massupdate

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// catalogPageLimit is the page size asked of the marketplace when the
// whole catalogue is read.
const catalogPageLimit = 100

// Catalog is the seller's whole catalogue, as read at one moment.
type Catalog struct {
	BySKU map[string]apiclient.Nomenclature // first record of each product
	ByKey map[string]apiclient.Nomenclature // warehouse|barcode
}

// FetchCatalog reads every nomenclature record of the seller.
func FetchCatalog(ctx context.Context, acct *apiclient.Account, seller int64) (*Catalog, error) {
	cat := &Catalog{BySKU: map[string]apiclient.Nomenclature{}, ByKey: map[string]apiclient.Nomenclature{}}
	for n, err := range acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: catalogPageLimit}) {
		if err != nil {
			return nil, err
		}
		if _, ok := cat.BySKU[n.MarketplaceSKU]; !ok {
			cat.BySKU[n.MarketplaceSKU] = n
		}
		cat.ByKey[n.WarehouseCode+"|"+n.Barcode] = n
	}
	return cat, nil
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
	if n.SalePrice > 0 && n.SalePrice != n.Price {
		p.Sale = int64(n.SalePrice)
	}
	return p
}

// Text shows the price the way the tables do.
//
// Like the messages it is i18n.Encode'd: amounts as plain digits, written
// the reader's way when shown.
func (p PriceNow) Text() string {
	if p.Sale > 0 {
		return i18n.Encode(i18n.Msg{Text: format.MoneyInput(p.Price)}, i18n.M("mass.sale_of", map[string]any{"Sale": format.MoneyInput(p.Sale)}))
	}
	return i18n.Encode(i18n.Msg{Text: format.MoneyInput(p.Price)})
}

// Text shows the stock the way the tables do.
func (s StockNow) Text() string {
	return newStockText(strconv.Itoa(s.Quantity), s.Status)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// CurrentChanged compares a row's current value at preview with the
// catalogue now.
func CurrentChanged(kind string, it bulkjobs.Item, cat *Catalog) (string, bool) {
	if kind == "stock" {
		var was StockNow
		_ = json.Unmarshal([]byte(it.Current), &was)
		rec, ok := cat.ByKey[it.Key]
		if !ok {
			return i18n.Encode(i18n.M("mass.gone", nil)), true
		}
		now := StockNow{Quantity: rec.Quantity, Status: rec.Status}
		return now.Text(), now != was
	}
	var was PriceNow
	_ = json.Unmarshal([]byte(it.Current), &was)
	rec, ok := cat.BySKU[it.Key]
	if !ok {
		return i18n.Encode(i18n.M("mass.gone", nil)), true
	}
	now := CurrentPrice(rec)
	return now.Text(), now != was
}
