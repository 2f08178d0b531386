package browse

import (
	"context"
	"fmt"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Order is one order as the pages show it. Amounts are in kopecks.
type Order struct {
	Nr, Status, PaymentMethod, Currency string
	FullSum, DeliveryPrice              int64
	ItemQuantity                        int
	Confirmed                           bool
	CreatedAt, UpdatedAt                time.Time
	// Items are read for one order only (Seller.Order), never for a list.
	Items []OrderItem
}

// OrderItem is one item of an order.
type OrderItem struct {
	ID, SKU, MarketplaceSKU, Description, Size, Status string
	SalePrice, PaidPrice                               int64
}

// OrderPage is one page of the orders list.
type OrderPage struct {
	Orders       []Order
	Total, Pages int
}

// Orders is the page of the orders list q describes: from the copy, with
// its search, sort and dates, once a full copy exists; else live, the
// status filter alone, without the items.
func (s *Seller) Orders(ctx context.Context, q Query) (*OrderPage, error) {
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
		list, err := s.acc.Account.B2B.ListOrders(lctx, &apiclient.ListOrdersOptions{Page: q.Page, Limit: q.Limit, Status: q.Status, WithoutItems: true})
		if err != nil {
			return nil, err
		}
		p := &OrderPage{Total: list.Total, Pages: list.Pages, Orders: make([]Order, len(list.Orders))}
		for i := range list.Orders {
			p.Orders[i] = wireOrder(&list.Orders[i])
		}
		return p, nil
	}
	if ctx, err = s.enter(ctx); err != nil {
		return nil, err
	}
	total, rows, err := listPage(ctx, s.key, q.listQuery(), s.r.copy.Store().OrdersPage)
	if err != nil {
		return nil, err
	}
	p := &OrderPage{Total: total, Pages: pages(total, q.Limit), Orders: make([]Order, len(rows))}
	for i := range rows {
		p.Orders[i] = copyOrder(&rows[i])
	}
	return p, nil
}

// Order is the order numbered nr, with its items. The marketplace has no
// read of one order and no filter by number, so its list is walked until
// the order turns up: from the copy, which knows the order's status, the
// walk reads only the orders in that status (the marketplace's own
// filter), and all of them only when the order is not found there (its
// status changed since the copy read it, or the copy has not seen it
// yet). An order not found is apiclient.ErrNotFound.
func (s *Seller) Order(ctx context.Context, nr string) (*Order, error) {
	status := ""
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	if ok {
		// One indexed row, read outside the page gate: the walk that
		// follows goes to the marketplace.
		rows, err := s.r.copy.Store().Orders(ctx, s.key, copystore.Query{Q: nr, Limit: 20})
		if err != nil {
			return nil, err
		}
		for i := range rows {
			if rows[i].OrderNr == nr {
				status = rows[i].Status
				break
			}
		}
	}
	lctx := s.acc.Live()
	acct := s.acc.Account
	if status != "" {
		o, err := findOrder(lctx, acct, nr, status)
		if o != nil || err != nil {
			return o, err
		}
	}
	o, err := findOrder(lctx, acct, nr, "")
	if err == nil && o == nil {
		err = fmt.Errorf("order %s: %w", nr, apiclient.ErrNotFound)
	}
	return o, err
}

// findOrder walks the orders in status (every order: "") until the one
// numbered nr; nil when it is not there.
func findOrder(ctx context.Context, acct *apiclient.Account, nr, status string) (*Order, error) {
	for o, err := range acct.B2B.AllOrders(ctx, &apiclient.ListOrdersOptions{Limit: 100, Status: status}) {
		if err != nil {
			return nil, err
		}
		if o.OrderNr == nr {
			out := wireOrder(&o)
			out.Items = make([]OrderItem, len(o.Items))
			for i, it := range o.Items {
				out.Items[i] = OrderItem{ID: string(it.ID), SKU: it.SKU, MarketplaceSKU: it.MarketplaceSKU, Description: it.Description,
					Size: it.Size, Status: it.Status, SalePrice: int64(it.SalePrice), PaidPrice: int64(it.PaidPrice)}
			}
			return &out, nil
		}
	}
	return nil, nil
}

func wireOrder(o *apiclient.Order) Order {
	return Order{Nr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod, Currency: o.Currency,
		FullSum: int64(o.FullSum), DeliveryPrice: int64(o.DeliveryPrice), ItemQuantity: o.ItemQuantity,
		Confirmed: o.IsConfirmed, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
}

func copyOrder(o *copystore.Order) Order {
	return Order{Nr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod, Currency: o.Currency,
		FullSum: o.FullSum, DeliveryPrice: o.DeliveryPrice, ItemQuantity: o.ItemQuantity,
		Confirmed: o.IsConfirmed, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
}
