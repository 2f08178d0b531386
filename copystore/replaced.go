package copystore

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Replaced is what the last change of each part of a record that the
// marketplace accepted through the dashboard replaced (Accept): kept
// until the next accepted change of that part, whatever the reads since
// showed, so that an import of a file exported before the change can
// tell a row that would undo it. A part never changed through the
// dashboard is nil.
type Replaced struct {
	Price    *Replacement[Prices]
	Quantity *Replacement[int]
	Status   *Replacement[string]
}

// Replacement is one accepted change of a part: the value it replaced
// (Was), the value it set (To) and when the marketplace accepted it.
type Replacement[T comparable] struct {
	Was, To T
	At      time.Time
}

// Prices are a record's price and sale price in kopecks (sale 0: none).
type Prices struct{ Price, Sale int64 }

// Replacements reads what the last accepted changes of the records of k
// at keys replaced (Replaced), for the records with any kept; the others
// are not in the map. Keys are read a few hundred at a time.
func (s *Store) Replacements(ctx context.Context, k Key, keys []StockKey) (map[StockKey]Replaced, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return map[StockKey]Replaced{}, readable(err)
	}
	out := map[StockKey]Replaced{}
	byWarehouse := map[string][]string{}
	for _, sk := range keys {
		byWarehouse[sk.Warehouse] = append(byWarehouse[sk.Warehouse], sk.Barcode)
	}
	for _, wh := range slices.Sorted(maps.Keys(byWarehouse)) {
		barcodes := slices.Compact(slices.Sorted(slices.Values(byWarehouse[wh])))
		for len(barcodes) > 0 {
			batch := barcodes[:min(len(barcodes), lookupBatch)]
			barcodes = barcodes[len(batch):]
			args := make([]any, 0, len(batch)+3)
			args = append(args, k.SellerID, k.Env, wh)
			for _, b := range batch {
				args = append(args, b)
			}
			if err := s.readReplaced(ctx, wh, args, len(batch), out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// readReplaced reads the kept changes of n barcodes at warehouse wh
// (args: seller, environment, warehouse, the barcodes) into out.
func (s *Store) readReplaced(ctx context.Context, wh string, args []any, n int, out map[StockKey]Replaced) error {
	rows, err := s.r.QueryContext(ctx, s.q(replacedQuery(n)), args...)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var bc string
		var pw, sw, pt, st, pat, qw, qt, qat, sat sql.NullInt64
		var stw, stt sql.NullString
		if err := rows.Scan(&bc, &pw, &sw, &pt, &st, &pat, &qw, &qt, &qat, &stw, &stt, &sat); err != nil {
			return fmt.Errorf("copystore: %w", err)
		}
		var r Replaced
		if pat.Valid {
			r.Price = &Replacement[Prices]{Was: Prices{pw.Int64, sw.Int64}, To: Prices{pt.Int64, st.Int64}, At: sqldb.FromMillis(pat.Int64)}
		}
		if qat.Valid {
			r.Quantity = &Replacement[int]{Was: int(qw.Int64), To: int(qt.Int64), At: sqldb.FromMillis(qat.Int64)}
		}
		if sat.Valid {
			r.Status = &Replacement[string]{Was: stw.String, To: stt.String, At: sqldb.FromMillis(sat.Int64)}
		}
		out[StockKey{Warehouse: wh, Barcode: bc}] = r
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return nil
}

// replacedQuery reads the kept changes of n barcodes of one warehouse
// (readReplaced's arguments), through the records' unique key
// (TestCardPlans).
func replacedQuery(n int) string {
	return `SELECT barcode, price_was, sale_was, price_to, sale_to, price_changed_at,
		quantity_was, quantity_to, quantity_changed_at, status_was, status_to, status_changed_at
		FROM catalog_nomenclature WHERE seller_id = ? AND env = ? AND warehouse = ? AND barcode IN (?` + strings.Repeat(`, ?`, n-1) + `)
		AND (price_changed_at IS NOT NULL OR quantity_changed_at IS NOT NULL OR status_changed_at IS NOT NULL)`
}
