package sandbox

import "time"

// Product is a read-only view of a seeded product of a seller, for tests that
// need a real SKU, barcode or price without listing over HTTP first. Prices
// are in kopecks and show the state at the sandbox clock.
type Product struct {
	SellerID          int64
	MarketplaceSKU    string
	ParentSKU         string // the product card (the lamoda profile prices cards)
	SellerSKU         string
	Barcode           string
	Name, Brand, Size string
	Price, SalePrice  int64 // kopecks
	PriceUpdateStatus string
	Warehouses        []string // the product has one nomenclature record per warehouse
}

// Products returns the products of a seller in list order (the order of
// v1.nomenclatures.list, whose records go product by product, one record per
// warehouse). It returns nil for an unknown seller.
func (s *Sandbox) Products(sellerID int64) []Product {
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[sellerID]
	if sd == nil {
		return nil
	}
	out := make([]Product, 0, len(sd.products))
	for _, p := range sd.products {
		price, sale, status, _ := p.effective(now)
		out = append(out, Product{
			SellerID: sellerID, MarketplaceSKU: p.sku, ParentSKU: p.parent, SellerSKU: p.sellerSKU, Barcode: p.barcode,
			Name: p.name, Brand: p.brand, Size: p.size, Price: int64(price), SalePrice: int64(sale),
			PriceUpdateStatus: status, Warehouses: append([]string(nil), sd.warehouses...),
		})
	}
	return out
}

// Warehouses returns the warehouse codes of a seller, e.g. "MSK-1001".
func (s *Sandbox) Warehouses(sellerID int64) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if sd := s.sellers[sellerID]; sd != nil {
		return append([]string(nil), sd.warehouses...)
	}
	return nil
}

// OrderNumbers returns the order numbers of a seller, newest first, limited to
// one status unless status is "".
func (s *Sandbox) OrderNumbers(sellerID int64, status string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[sellerID]
	if sd == nil {
		return nil
	}
	list := sd.orders
	if status != "" {
		list = sd.ordersByStatus[status]
	}
	out := make([]string, len(list))
	for i, o := range list {
		out[i] = o.nr
	}
	return out
}

// ReturnBoxCodes returns the return box codes of a seller, newest first.
func (s *Sandbox) ReturnBoxCodes(sellerID int64) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[sellerID]
	if sd == nil {
		return nil
	}
	out := make([]string, len(sd.boxes))
	for i, b := range sd.boxes {
		out[i] = b.code
	}
	return out
}

// GiftCertificateCodes returns the seeded gift certificate codes of a seller,
// e.g. "GC-1001-0001".
func (s *Sandbox) GiftCertificateCodes(sellerID int64) []string {
	var out []string
	for i := 1; i <= giftCertsPerSeller; i++ {
		out = append(out, "GC-"+itoa(sellerID)+"-"+itoa(int64(1e4 + i))[1:])
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.sellers[sellerID] == nil {
		return nil
	}
	return out
}

// NotificationProcessingUntil reports until when a resent notification of an
// order and type stays "processing", and whether one was queued at all.
func (s *Sandbox) NotificationProcessingUntil(orderNr, kind string) (time.Time, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.notifications[orderNr+"/"+kind]
	return t, ok
}
