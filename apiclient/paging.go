package apiclient

import (
	"context"
	"iter"
)

// pages walks a paged list lazily: it fetches page after page as the
// consumer asks for items, and stops when the last page is done, when the
// consumer breaks, or when ctx ends (yielding ctx's error once). A fetch
// error is yielded once, then the walk ends.
func pages[T any](ctx context.Context, first int, fetch func(page int) (items []T, pageCount int, err error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		page := first
		if page < 1 {
			page = 1
		}
		for {
			if err := ctx.Err(); err != nil {
				yield(zero, err)
				return
			}
			items, pageCount, err := fetch(page)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if len(items) == 0 || page >= pageCount {
				return
			}
			page++
		}
	}
}

// AllOrders iterates over the orders of every page from opts.Page (default
// 1) on, fetching pages lazily. On failure it yields the error once and
// stops.
func (s *B2BService) AllOrders(ctx context.Context, opts *ListOrdersOptions) iter.Seq2[Order, error] {
	o := ListOrdersOptions{}
	if opts != nil {
		o = *opts
	}
	return pages(ctx, o.Page, func(page int) ([]Order, int, error) {
		o.Page = page
		l, err := s.ListOrders(ctx, &o)
		if err != nil {
			return nil, 0, err
		}
		return l.Orders, l.Pages, nil
	})
}

// AllNomenclatures iterates over the records of every page from req.Page
// (default 1) on, fetching pages lazily. On failure it yields the error once
// and stops.
func (s *SellerService) AllNomenclatures(ctx context.Context, req *ListNomenclaturesRequest) iter.Seq2[Nomenclature, error] {
	r := ListNomenclaturesRequest{}
	if req != nil {
		r = *req
	}
	return pages(ctx, r.Page, func(page int) ([]Nomenclature, int, error) {
		r.Page = page
		l, err := s.ListNomenclatures(ctx, &r)
		if err != nil {
			return nil, 0, err
		}
		return l.Nomenclatures, l.Pages, nil
	})
}

// All iterates over the return boxes of every page from opts.Page (default
// 1) on, fetching pages lazily. On failure it yields the error once and
// stops.
func (s *ReturnBoxesService) All(ctx context.Context, opts *ListReturnBoxesOptions) iter.Seq2[ReturnBox, error] {
	o := ListReturnBoxesOptions{}
	if opts != nil {
		o = *opts
	}
	return pages(ctx, o.Page, func(page int) ([]ReturnBox, int, error) {
		o.Page = page
		l, err := s.List(ctx, &o)
		if err != nil {
			return nil, 0, err
		}
		return l.Boxes, l.Pages, nil
	})
}
