package copystore

import (
	"context"
	"fmt"
)

// The lists of catalog_counts: the rows of each table by status, and the
// nomenclature records out of stock (quantity at most 0) by status.
const (
	countNomenclature = "nomenclature"
	countZeroStock    = "zero_stock"
	countOrders       = "orders"
	countBoxes        = "boxes"
)

// keptCount answers the count of rows of list the filter status selects
// ("" = every status) from catalog_counts, after the access check
// (ErrRevoked, errGone), both in one statement.
func (s *Store) keptCount(ctx context.Context, k Key, list, status string) (int, error) {
	if c := checksOf(ctx, k); c != nil {
		return c.kept(list, status)
	}
	query := `SELECT ` + accessColumn + `, COALESCE(SUM(n), 0) FROM catalog_counts WHERE seller_id = ? AND env = ? AND list = ?`
	args := []any{k.SellerID, k.Env, k.SellerID, k.Env, list}
	if status != "" {
		query, args = query+` AND status = ?`, append(args, status)
	}
	var access int64
	var n int
	if err := s.r.QueryRowContext(ctx, s.q(query), args...).Scan(&access, &n); err != nil {
		return 0, fmt.Errorf("copystore: count: %w", err)
	}
	if err := accessErr(access); err != nil {
		return 0, err
	}
	return n, nil
}

// nomenclatureFacet reports which kept count answers the count of q, if
// one does: q filters by status and out-of-stock only.
func nomenclatureFacet(q Query) (list string, ok bool) {
	if len(queryWords(q.Q)) > 0 || q.Warehouse != "" || q.PriceMin > 0 || q.PriceMax > 0 {
		return "", false
	}
	switch {
	case q.StockMax == nil:
		return countNomenclature, true
	case *q.StockMax == 0:
		return countZeroStock, true
	}
	return "", false
}

// ordersFacet reports whether the kept counts answer the count of q: q
// filters orders by status only.
func ordersFacet(q Query) bool {
	return len(queryWords(q.Q)) == 0 && q.From.IsZero() && q.To.IsZero() && q.PriceMin == 0 && q.PriceMax == 0
}

// boxesFacet reports whether the kept counts answer the count of q: q
// filters return boxes by status only.
func boxesFacet(q Query) bool { return len(queryWords(q.Q)) == 0 }
