package copystore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Box is one return box of the copy.
type Box struct {
	Code, Status, Dimension string
	ItemQuantity            int
	CreatedAt, UpdatedAt    time.Time
	ShippedAt               time.Time // zero until shipped
}

// Boxes returns one page of the return boxes of k that q selects, newest
// first unless sorted.
func (s *Store) Boxes(ctx context.Context, k Key, q Query) ([]Box, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return nil, readable(err)
	}
	return s.boxes(ctx, k, q)
}

// BoxesPage returns what CountBoxes and Boxes return for q, under the
// count's access check: the total and one page.
func (s *Store) BoxesPage(ctx context.Context, k Key, q Query) (int, []Box, error) {
	return countedPage(ctx, k, q, s.countBoxes, s.boxes)
}

func (s *Store) boxes(ctx context.Context, k Key, q Query) ([]Box, error) {
	ob, err := orderBy(q.Sort, BoxSorts, "created_at DESC, id DESC")
	if err != nil {
		return nil, err
	}
	w := boxesWhere(k, q)
	lim, largs := sqldb.Limit(q.limits())
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT code, status, dimension, item_quantity, created_at, updated_at, shipped_at
		FROM catalog_boxes`+w.sql.String()+ob+lim), append(w.args, largs...)...)
	if err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	var out []Box
	for rows.Next() {
		var b Box
		var created, updated int64
		var shipped sql.NullInt64
		if err := rows.Scan(&b.Code, &b.Status, &b.Dimension, &b.ItemQuantity, &created, &updated, &shipped); err != nil {
			return nil, fmt.Errorf("copystore: %w", err)
		}
		b.CreatedAt, b.UpdatedAt, b.ShippedAt = sqldb.FromMillis(created), sqldb.FromMillis(updated), sqldb.FromMillis(shipped.Int64)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	return out, nil
}

func boxesWhere(k Key, q Query) *where {
	w := &where{}
	w.sql.WriteString(" WHERE seller_id = ? AND env = ?")
	w.args = append(w.args, k.SellerID, k.Env)
	prefixRange(w, q.Q)
	if q.Status != "" {
		w.add("status = ?", q.Status)
	}
	return w
}

// CountBoxes counts the return boxes of k that q selects, as CountOrders
// counts orders.
func (s *Store) CountBoxes(ctx context.Context, k Key, q Query) (int, error) {
	n, err := s.countBoxes(ctx, k, q)
	return n, readable(err)
}

// countBoxes is CountBoxes failing with errGone for a forgotten copy.
func (s *Store) countBoxes(ctx context.Context, k Key, q Query) (int, error) {
	if boxesFacet(q) {
		return s.keptCount(ctx, k, countBoxes, q.Status)
	}
	if err := s.checkAccess(ctx, k); err != nil {
		return 0, err
	}
	w := boxesWhere(k, q)
	var n int
	if err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM catalog_boxes`+w.sql.String()), w.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	return n, nil
}
