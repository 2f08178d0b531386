package copystore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Lookup names records of a copy by what a file's rows name: products by
// marketplace SKU, stock records by warehouse and barcode, and every size
// of some product cards.
type Lookup struct {
	SKUs  []string
	Stock []StockKey
	Cards []string
}

// StockKey names a stock record: its warehouse and barcode.
type StockKey struct{ Warehouse, Barcode string }

// lookupBatch is how many values one statement of LookupNomenclature
// binds: far below the drivers' limits, and a short read each.
const lookupBatch = 500

// LookupNomenclature calls fn for every record of k that l names, reading
// by the copy's indexes a few hundred values at a time. Within one
// product, one card or one warehouse's barcodes the records come in list
// order; a record named twice (by its SKU and its card) comes twice. r is
// reused between calls.
func (s *Store) LookupNomenclature(ctx context.Context, k Key, l Lookup, fn func(r *Record) error) error {
	if err := s.checkAccess(ctx, k); err != nil {
		return readable(err)
	}
	if err := s.lookupIn(ctx, k, "marketplace_sku", "", l.SKUs, fn); err != nil {
		return err
	}
	byWarehouse := map[string][]string{}
	for _, sk := range l.Stock {
		byWarehouse[sk.Warehouse] = append(byWarehouse[sk.Warehouse], sk.Barcode)
	}
	for _, wh := range slices.Sorted(maps.Keys(byWarehouse)) {
		if err := s.lookupIn(ctx, k, "barcode", wh, byWarehouse[wh], fn); err != nil {
			return err
		}
	}
	return s.lookupIn(ctx, k, "parent_sku", "", l.Cards, fn)
}

// lookupIn calls fn for the records of k whose col is one of values (and,
// for barcodes, at warehouse), batch by batch, each in list order.
func (s *Store) lookupIn(ctx context.Context, k Key, col, warehouse string, values []string, fn func(r *Record) error) error {
	values = slices.Compact(slices.Sorted(slices.Values(values)))
	for len(values) > 0 {
		batch := values[:min(len(values), lookupBatch)]
		values = values[len(batch):]
		// The ids first, from the named column's index alone (covering):
		// asked for the whole records with their list order, SQLite,
		// without statistics, walks all of the seller's records in id
		// order instead (TestCardPlans).
		query := `SELECT ` + packedRecord + ` FROM catalog_nomenclature WHERE id IN (SELECT id FROM catalog_nomenclature WHERE seller_id = ? AND env = ?`
		args := make([]any, 0, len(batch)+3)
		args = append(args, k.SellerID, k.Env)
		if col == "barcode" {
			query += ` AND warehouse = ?`
			args = append(args, warehouse)
		}
		query += ` AND ` + col + ` IN (?` + strings.Repeat(`, ?`, len(batch)-1) + `)) ORDER BY id`
		for _, v := range batch {
			args = append(args, v)
		}
		if err := s.eachRecord(ctx, s.q(query), args, fn); err != nil {
			return err
		}
	}
	return nil
}

// eachRecord runs a query of packed records and calls fn for each.
func (s *Store) eachRecord(ctx context.Context, query string, args []any, fn func(r *Record) error) error {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	sc := newRecordScanner()
	for rows.Next() {
		if err := sc.scan(rows); err != nil {
			return err
		}
		if err := fn(&sc.r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return nil
}
