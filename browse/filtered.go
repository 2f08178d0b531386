package browse

import (
	"context"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// SellerSKUs pairs each stock change with its record's seller SKU, for
// the marketplace that writes stock and status by a filter on it (the
// lamoda profile, massupdate.SendFiltered): taken from the page q the
// form was rendered for, read as the screen reads it (Nomenclature), and
// for records no longer on it read by key through current, as previews
// read them (massupdate.PairSellerSKUs).
func (s *Seller) SellerSKUs(ctx context.Context, q Query, items []apiclient.StoreItem, current massupdate.Current) ([]massupdate.SKUStock, error) {
	p, err := s.Nomenclature(ctx, q)
	if err != nil {
		return nil, err
	}
	page := make([]apiclient.Nomenclature, len(p.Records))
	for i, r := range p.Records {
		page[i] = r.wire(s.key.SellerID)
	}
	return massupdate.PairSellerSKUs(items, page, current)
}

// SendStock sends checked stock and status changes through e: as they
// are (massupdate.Send, the Stock kind), or, where the marketplace writes
// them by a filter on the seller's SKU (filtered: the lamoda profile),
// each paired with its record's seller SKU first (SellerSKUs) and sent
// through the filtered writes (massupdate.SendFiltered).
func (s *Seller) SendStock(ctx context.Context, e *massupdate.Engine, q Query, items []massupdate.StockItem, filtered bool, current massupdate.Current) (*massupdate.Report, error) {
	if !filtered {
		return massupdate.Send(ctx, e, s.acc.Account, s.key.SellerID, massupdate.Stock, items, nil)
	}
	changes, err := s.SellerSKUs(ctx, q, items, current)
	if err != nil {
		return nil, err
	}
	return massupdate.SendFiltered(ctx, e, s.acc.Account, s.key.SellerID, changes)
}
