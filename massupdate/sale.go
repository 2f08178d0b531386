package massupdate

import "github.com/sellerdesk/sellerdesk/apiclient"

// What "no sale" means in each shape, decided here for every file the
// dashboard writes and reads.
//
// The marketplace reports a product without a sale with its sale price
// equal to its price (and an update without a sale price sets it so). The
// dashboard does not repeat that in its files:
//
//   - Written (the page exports, the whole-catalogue export): the sale cell
//     holds the sale price only while the product sells below its price
//     (OnSale); otherwise it is empty.
//   - Read (an import's price rows): an empty sale cell leaves the sale as
//     it is: a product without a sale stays without one, a running sale
//     stays unless the new price is below it (a price under the sale
//     price ends the sale). A sale cell equal to the row's price says "no
//     sale": it ends a running sale and never creates one. For a product
//     without a sale, a sale cell equal to its current price says "no
//     sale" as well: that is how the marketplace's listing, and a file
//     made from it, spells "no sale"; raising the price in such a file
//     never creates a sale at the old price. Any other value sets the
//     sale.
//   - Repeated rows: a SKU repeated with the same price cells (a file
//     with a row per warehouse) is counted once (PriceItems).
//
// So a file exported and imported unchanged sends nothing, and editing
// only its price cells changes only prices.

// OnSale reports whether a product priced price (kopecks) sells at sale
// below it: the only case the dashboard shows or writes a sale price.
func OnSale(price, sale int64) bool { return sale > 0 && sale < price }

// fileSale is the sale a price row's cells ask for, as the Validate of a
// PriceInput reads it: cell is the row's sale cell as typed, price the
// row's price (the current one where its cell is empty), cur the product
// now. It returns "" for no sale price, which leaves the product without
// a sale.
func fileSale(cell, price string, cur PriceNow) string {
	newPrice, perr := apiclient.ParseMoney(price)
	if cell == "" {
		// Keep the running sale, unless the new price is below it: it
		// would be refused otherwise, and no cell could say "no sale".
		if cur.Sale > 0 && (perr != nil || int64(newPrice) >= cur.Sale) {
			return apiclient.Money(cur.Sale).Decimal()
		}
		return ""
	}
	sale, err := apiclient.ParseMoney(cell)
	if err != nil {
		return cell // Validate explains it
	}
	if (perr == nil && sale == newPrice) || (cur.Sale == 0 && int64(sale) == cur.Price) {
		return ""
	}
	return cell
}
