package massupdate

import (
	"context"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// maxSellValuePages bounds a read of the v2 sell values whatever the
// marketplace says its page count is.
const maxSellValuePages = 100_000

// overlaySellValues lays the v2 sell values (price, sale price, price
// status, QUARANTINE included) over every size of the cards of cat that
// parents names (nil: every card), where prices go through the Seller API
// v2: a price written there is read back there. It reads pages until
// every named card is seen or the pages end; a card a page repeats is
// read once (apiclient.SellerService.SellValues).
func overlaySellValues(ctx context.Context, acct *apiclient.Account, seller int64, cat *Catalog, parents map[string]bool) error {
	if acct.PriceAPI() != apiclient.PriceAPIV2 {
		return nil
	}
	if parents == nil {
		parents = map[string]bool{}
		for _, n := range cat.BySKU {
			if n.ParentSKU != "" {
				parents[n.ParentSKU] = true
			}
		}
	}
	if len(parents) == 0 {
		return nil
	}
	values := map[string]apiclient.CardSellValue{}
	for page := 1; page <= maxSellValuePages; page++ {
		l, err := acct.Seller.SellValues(ctx, &apiclient.SellValuesRequest{SellerID: seller, Page: page})
		if err != nil {
			return err
		}
		for _, cv := range l.Cards {
			if parents[cv.ParentSKU] {
				values[cv.ParentSKU] = cv
			}
		}
		if len(l.Cards) == 0 || page >= l.Pages || len(values) == len(parents) {
			break
		}
	}
	for _, m := range []map[string]apiclient.Nomenclature{cat.BySKU, cat.ByKey} {
		for k, n := range m {
			cv, ok := values[n.ParentSKU]
			if !ok {
				continue
			}
			n.Price, n.PriceUpdateStatus = cv.Price, cv.PriceUpdateStatus
			n.SalePrice = cv.SalePrice
			if n.SalePrice == 0 {
				n.SalePrice = cv.Price
			}
			m[k] = n
		}
	}
	return nil
}
