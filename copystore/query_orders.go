package copystore

import (
	"context"
	"fmt"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Order is one order of the copy, at list level.
type Order struct {
	OrderNr, Status, PaymentMethod, Currency string
	FullSum, DeliveryPrice                   int64
	ItemQuantity                             int
	IsConfirmed                              bool
	CreatedAt, UpdatedAt                     time.Time
}

func (s *Store) ordersWhere(k Key, q Query) *where {
	w := &where{}
	w.sql.WriteString(" WHERE seller_id = ? AND env = ?")
	w.args = append(w.args, k.SellerID, k.Env)
	prefixRange(w, q.Q)
	if q.Status != "" {
		w.add("status = ?", q.Status)
	}
	if !q.From.IsZero() {
		w.add("created_at >= ?", sqldb.Millis(q.From))
	}
	if !q.To.IsZero() {
		w.add("created_at < ?", sqldb.Millis(q.To))
	}
	if q.PriceMin > 0 {
		w.add("full_sum >= ?", q.PriceMin)
	}
	if q.PriceMax > 0 {
		w.add("full_sum <= ?", q.PriceMax)
	}
	return w
}

// Orders returns one page of the orders of k that q selects, newest first
// unless sorted.
func (s *Store) Orders(ctx context.Context, k Key, q Query) ([]Order, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return nil, readable(err)
	}
	return s.orders(ctx, k, q)
}

// OrdersPage returns what CountOrders and Orders return for q, under the
// count's access check: the total and one page.
func (s *Store) OrdersPage(ctx context.Context, k Key, q Query) (int, []Order, error) {
	return countedPage(ctx, k, q, s.countOrders, s.orders)
}

func (s *Store) orders(ctx context.Context, k Key, q Query) ([]Order, error) {
	ob, err := orderBy(q.Sort, OrderSorts, "created_at DESC, id DESC")
	if err != nil {
		return nil, err
	}
	w := s.ordersWhere(k, q)
	limit, offset := q.limits()
	lim, largs := sqldb.Limit(limit, offset)
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT order_nr, status, payment_method, currency, full_sum, delivery_price, item_quantity,
		is_confirmed, created_at, updated_at FROM catalog_orders`+w.sql.String()+ob+lim), append(w.args, largs...)...)
	if err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	out := make([]Order, 0, min(limit, 64))
	for rows.Next() {
		var o Order
		var confirmed int
		var created, updated int64
		if err := rows.Scan(&o.OrderNr, &o.Status, &o.PaymentMethod, &o.Currency, &o.FullSum, &o.DeliveryPrice, &o.ItemQuantity,
			&confirmed, &created, &updated); err != nil {
			return nil, fmt.Errorf("copystore: %w", err)
		}
		o.IsConfirmed, o.CreatedAt, o.UpdatedAt = confirmed != 0, sqldb.FromMillis(created), sqldb.FromMillis(updated)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	return out, nil
}

// CountOrders counts the orders of k that q selects, after the access
// check (ErrRevoked); a count the kept counts answer is one statement
// with the check.
func (s *Store) CountOrders(ctx context.Context, k Key, q Query) (int, error) {
	n, err := s.countOrders(ctx, k, q)
	return n, readable(err)
}

// countOrders is CountOrders failing with errGone for a forgotten copy.
func (s *Store) countOrders(ctx context.Context, k Key, q Query) (int, error) {
	if ordersFacet(q) {
		return s.keptCount(ctx, k, countOrders, q.Status)
	}
	if err := s.checkAccess(ctx, k); err != nil {
		return 0, err
	}
	w := s.ordersWhere(k, q)
	var n int
	if err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM catalog_orders`+w.sql.String()), w.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	return n, nil
}
