package copystore

import (
	"context"
	"fmt"
)

// RunningCopies counts the copies with a pass running now, in one
// statement: a consistent snapshot across sellers, which sampling each
// seller's SyncStates in turn is not (a pass that ends between two reads
// and the next one that starts would both be counted).
func (s *Store) RunningCopies(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM (SELECT DISTINCT seller_id, env FROM catalog_sync WHERE running <> 0) AS r`)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	return n, nil
}
