package browse

import (
	"context"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// Values is where the seller's previews and submits read current values
// through e (massupdate.Engine.Values): the copy once a full copy exists
// (FromCopy), its records as the screens list them (Listed), else
// live within the page's budget.
func (s *Seller) Values(ctx context.Context, e *massupdate.Engine) (massupdate.Current, error) {
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	seller := s.key.SellerID
	if !ok {
		return e.Values(s.acc.Live(), nil, s.acc.Account, seller), nil
	}
	cp := &massupdate.CopySource{Store: s.r.copy.Store(), Key: s.key,
		Record: func(r *copystore.Record) apiclient.Nomenclature { return Listed(r).wire(seller) }}
	return e.Values(ctx, cp, nil, seller), nil
}
