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

// counts reads every count of the copy of k: list to status to rows.
// Statuses whose count fell to 0 are left out, as a GROUP BY would.
func (s *Store) counts(ctx context.Context, k Key) (map[string]map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT list, status, n FROM catalog_counts WHERE seller_id = ? AND env = ? AND n > 0`), k.SellerID, k.Env)
	if err != nil {
		return nil, fmt.Errorf("copystore: counts: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]int{countNomenclature: {}, countZeroStock: {}, countOrders: {}, countBoxes: {}}
	for rows.Next() {
		var list, status string
		var n int
		if err := rows.Scan(&list, &status, &n); err != nil {
			return nil, fmt.Errorf("copystore: counts: %w", err)
		}
		if out[list] == nil {
			out[list] = map[string]int{}
		}
		out[list][status] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: counts: %w", err)
	}
	return out, nil
}

// keptCount answers the count of rows of list the filter status selects
// ("" = every status) from catalog_counts, after the access check
// (ErrRevoked), both in one statement.
func (s *Store) keptCount(ctx context.Context, k Key, list, status string) (int, error) {
	if c := checksOf(ctx, k); c != nil {
		return c.kept(list, status)
	}
	query := `SELECT ` + revokedColumn + `, COALESCE(SUM(n), 0) FROM catalog_counts WHERE seller_id = ? AND env = ? AND list = ?`
	args := []any{k.SellerID, k.Env, k.SellerID, k.Env, list}
	if status != "" {
		query, args = query+` AND status = ?`, append(args, status)
	}
	var revoked, n int
	if err := s.r.QueryRowContext(ctx, s.q(query), args...).Scan(&revoked, &n); err != nil {
		return 0, fmt.Errorf("copystore: count: %w", err)
	}
	if revoked != 0 {
		return 0, ErrRevoked
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
