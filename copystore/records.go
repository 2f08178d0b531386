package copystore

import "github.com/sellerdesk/sellerdesk/apiclient"

// The one mapping from the marketplace's wire types to the copy's own
// records: the sync maps each page it reads (Syncer.read), and a read
// outside a pass maps what it confirms (Confirm); nothing below takes a
// wire type.

// recordOf is the marketplace's list record n as the copy keeps it.
func recordOf(n *apiclient.Nomenclature) Record {
	return Record{Warehouse: n.WarehouseCode, Barcode: n.Barcode, MarketplaceSKU: n.MarketplaceSKU, ParentSKU: n.ParentSKU,
		SellerSKU: n.SellerSKU, Name: n.Name, Brand: n.Brand, Size: n.Size, Status: n.Status, PriceStatus: n.PriceUpdateStatus,
		Price: n.Price.Kopecks(), SalePrice: n.SalePrice.Kopecks(), Quantity: n.Quantity, UpdatedAt: n.UpdatedAt}
}

// orderOf is the marketplace's order o, at list level, as the copy keeps it.
func orderOf(o *apiclient.Order) Order {
	return Order{OrderNr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod, Currency: o.Currency,
		FullSum: o.FullSum.Kopecks(), DeliveryPrice: o.DeliveryPrice.Kopecks(), ItemQuantity: o.ItemQuantity,
		IsConfirmed: o.IsConfirmed, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
}

// boxOf is the marketplace's return box b as the copy keeps it.
func boxOf(b *apiclient.ReturnBox) Box {
	out := Box{Code: b.Code, Status: b.Status, Dimension: b.DimensionSymbol, ItemQuantity: b.ItemQuantity,
		CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
	if b.ShippedAt != nil {
		out.ShippedAt = *b.ShippedAt
	}
	return out
}

// mapAll maps every element of in with f.
func mapAll[W, R any](in []W, f func(*W) R) []R {
	out := make([]R, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}
