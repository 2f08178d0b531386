package browse

import (
	"context"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Box is one return box as the pages show it.
type Box struct {
	Code, Status, Dimension string
	ItemQuantity            int
	CreatedAt, UpdatedAt    time.Time
	ShippedAt               time.Time // zero until shipped
}

// BoxPage is one page of the return boxes list.
type BoxPage struct {
	Boxes        []Box
	Total, Pages int
}

// Boxes is the page of the return boxes list q describes: from the copy,
// with its search and sort, once a full copy exists; else live, the
// status filter alone.
func (s *Seller) Boxes(ctx context.Context, q Query) (*BoxPage, error) {
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		lctx := s.acc.Live()
		unlock, err := s.lock(lctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		list, err := s.acc.Account.ReturnBoxes.List(lctx, &apiclient.ListReturnBoxesOptions{
			SellerID: s.key.SellerID, Page: q.Page, Limit: q.Limit, Status: q.Status,
		})
		if err != nil {
			return nil, err
		}
		p := &BoxPage{Total: list.Total, Pages: list.Pages, Boxes: make([]Box, len(list.Boxes))}
		for i, b := range list.Boxes {
			p.Boxes[i] = Box{Code: b.Code, Status: b.Status, Dimension: b.DimensionSymbol, ItemQuantity: b.ItemQuantity,
				CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
			if b.ShippedAt != nil {
				p.Boxes[i].ShippedAt = *b.ShippedAt
			}
		}
		return p, nil
	}
	if ctx, err = s.enter(ctx); err != nil {
		return nil, err
	}
	total, rows, err := listPage(ctx, s.key, q.listQuery(), s.r.copy.Store().BoxesPage)
	if err != nil {
		return nil, err
	}
	p := &BoxPage{Total: total, Pages: pages(total, q.Limit), Boxes: make([]Box, len(rows))}
	for i := range rows {
		p.Boxes[i] = copyBox(&rows[i])
	}
	return p, nil
}

func copyBox(b *copystore.Box) Box {
	return Box{Code: b.Code, Status: b.Status, Dimension: b.Dimension, ItemQuantity: b.ItemQuantity,
		CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt, ShippedAt: b.ShippedAt}
}
