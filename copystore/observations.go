package copystore

// The copy keeps only each record's current prices; a product's page draws
// how they moved. So whenever a pass of the catalogue or an accepted change
// (Accept) finds a record's price or sale price different from the one the
// copy shows, it appends the new prices with the time it saw them to
// catalog_price_points, in the transaction of the write. The points are
// bounded: PrunePricePoints deletes those older than PricePointsKeep and,
// per record, those beyond PricePointsPerRecord, in batches.

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Bounds of the price points: the newest PricePointsPerRecord of each
// record within PricePointsKeep are kept.
const (
	PricePointsKeep      = 400 * 24 * time.Hour
	PricePointsPerRecord = 500
	// pricePointsBatch is the most points one pruning statement deletes,
	// so a prune never holds the writer long.
	pricePointsBatch = 2000
)

// migrationPricePoints is step 16: the observed prices of the records.
// SKU and card are kept beside the record's key so a product's page reads
// its points by index.
func migrationPricePoints(id string) string {
	return `CREATE TABLE catalog_price_points (
		id              ` + id + `,
		seller_id       BIGINT NOT NULL,
		env             TEXT   NOT NULL,
		warehouse       TEXT   NOT NULL,
		barcode         TEXT   NOT NULL,
		marketplace_sku TEXT   NOT NULL,
		parent_sku      TEXT   NOT NULL,
		price           BIGINT NOT NULL,
		sale_price      BIGINT NOT NULL,
		observed_at     BIGINT NOT NULL
	);
	CREATE INDEX catalog_price_points_sku ON catalog_price_points (seller_id, env, marketplace_sku, observed_at);
	CREATE INDEX catalog_price_points_card ON catalog_price_points (seller_id, env, parent_sku, observed_at);
	CREATE INDEX catalog_price_points_record ON catalog_price_points (seller_id, env, warehouse, barcode, observed_at);
	CREATE INDEX catalog_price_points_at ON catalog_price_points (observed_at)`
}

// PricePoint is a product's prices as seen at a time (kopecks; SalePrice
// 0: no sale).
type PricePoint struct {
	At               time.Time
	Price, SalePrice int64
}

// observeChunk appends, in tx, a point for every record of chunk (records
// read at now by a pass that started at started) whose shown prices the
// read changes, as nomenclatureUpsert decides: without a pending change,
// prices other than the last read; with one, a read that refuses it
// (started after it, not processing) showing prices other than it. A read
// confirming a pending change, or one it does not settle, is no change:
// the change has its point already (Accept).
//
// The changed records are found by a read (observeStatement), and the
// points written only when there are some: on SQLite a statement that
// may write several rows opens a statement journal, which makes the
// full-text index flush what the transaction's earlier pages wrote to it,
// a segment and a merge for every page, so a write that finds nothing to
// write still cost a first copy most of its store.
func (s *Store) observeChunk(ctx context.Context, tx *sql.Tx, u upserts, k Key, now, started int64, chunk []Record) error {
	args := make([]any, 0, len(chunk)*5+4)
	args = append(args, now, k.SellerID, k.Env, started)
	for i := range chunk {
		r := &chunk[i]
		args = append(args, bound(r.Warehouse, maxFieldBytes), bound(r.Barcode, maxFieldBytes), r.Price, r.SalePrice,
			bound(r.PriceStatus, maxFieldBytes))
	}
	// The statement shares the upserts' cache under a negative size.
	slot := -len(chunk)
	var st *sql.Stmt
	if u != nil {
		st = u[slot]
	}
	if st == nil {
		var err error
		if st, err = tx.PrepareContext(ctx, s.q(observeStatement(len(chunk)))); err != nil {
			return fmt.Errorf("copystore: observe prices: %w", err)
		}
		if u != nil {
			u[slot] = st
		} else {
			defer st.Close()
		}
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return fmt.Errorf("copystore: observe prices: %w", err)
	}
	var changed, baselines []any
	for rows.Next() {
		var wh, bc, sku, card string
		var price, sale, wasPrice, wasSale, updated int64
		var baseline bool
		if err := rows.Scan(&wh, &bc, &sku, &card, &price, &sale, &wasPrice, &wasSale, &updated, &baseline); err != nil {
			rows.Close()
			return fmt.Errorf("copystore: observe prices: %w", err)
		}
		changed = append(changed, k.SellerID, k.Env, wh, bc, sku, card, price, sale, now)
		if baseline {
			baselines = append(baselines, k.SellerID, k.Env, wh, bc, sku, card, wasPrice, wasSale, updated)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("copystore: observe prices: %w", err)
	}
	if len(changed) == 0 {
		return nil
	}
	// The new prices first, then the prices the first change of a record
	// replaced (the baseline), in the records' order on the page.
	points := slices.Concat(changed, baselines)
	if _, err := tx.ExecContext(ctx, s.q(pointsInsert(len(points)/pointColumns)), points...); err != nil {
		return fmt.Errorf("copystore: observe prices: %w", err)
	}
	return nil
}

// pointColumns is the number of columns pointsInsert writes a point.
const pointColumns = 9

// pointsInsert is the statement appending n points.
func pointsInsert(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO catalog_price_points (seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, observed_at) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	}
	return b.String()
}

// observeStatement is observeChunk's read for n records: the records whose
// shown prices the read changes, in the page's order, with their new
// prices and, in the last column, whether the change is the record's
// first, with no point before the read's time: then the prices it
// replaced since the marketplace last changed the record (its
// updated_at) are kept too, so the first change is drawn as a step.
//
// The page's values drive the join (CROSS JOIN: SQLite keeps the order
// written), each looking its record up by its unique key: left to itself,
// SQLite's planner takes a page of 50 or more values for the larger side
// and scans every record of the seller for each page, so a first copy's
// store grew with the square of the catalogue.
//
// Its arguments: ?1 the read's time, ?2 the seller, ?3 the environment,
// ?4 the pass's start, named first in k as acceptedPrices names its own
// (a statement run for page after page is then compiled once, however
// its sale prices change), then the page's values.
func observeStatement(n int) string {
	var b strings.Builder
	b.WriteString(`WITH k (now, seller, env, started) AS (SELECT CAST(?1 AS BIGINT), CAST(?2 AS BIGINT), CAST(?3 AS TEXT), CAST(?4 AS BIGINT)),
	v (i, warehouse, barcode, price, sale_price, price_status) AS (VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`(` + strconv.Itoa(i) + `, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT))`)
	}
	// The baseline's condition is evaluated last, so only a changed
	// record looks for its points.
	b.WriteString(`)
	SELECT n.warehouse, n.barcode, n.marketplace_sku, n.parent_sku, v.price, v.sale_price,
	COALESCE(n.pending_price, n.price), CASE WHEN n.pending_price IS NULL THEN n.sale_price ELSE n.pending_sale END, n.updated_at,
	CASE WHEN n.updated_at > 0 AND n.updated_at < ?1 AND NOT EXISTS (SELECT 1 FROM catalog_price_points p
		WHERE p.seller_id = n.seller_id AND p.env = n.env AND p.warehouse = n.warehouse AND p.barcode = n.barcode
		AND p.observed_at < ?1) THEN TRUE ELSE FALSE END
	FROM v CROSS JOIN catalog_nomenclature n
	WHERE n.seller_id = ?2 AND n.env = ?3 AND n.warehouse = v.warehouse AND n.barcode = v.barcode
	AND (n.pending_price IS NULL AND (n.price <> v.price OR n.sale_price <> v.sale_price)
		OR n.pending_price IS NOT NULL AND n.pending_at < ?4 AND v.price_status <> 'PROCESSING'
		AND (n.pending_price <> v.price OR n.pending_sale <> v.sale_price))
	ORDER BY v.i`)
	return b.String()
}

// noPoints is the condition that the record n has no point yet.
const noPoints = `NOT EXISTS (SELECT 1 FROM catalog_price_points p
		WHERE p.seller_id = n.seller_id AND p.env = n.env AND p.warehouse = n.warehouse AND p.barcode = n.barcode)`

// acceptedBaseline appends, in tx, before Accept replaces the prices of a
// batch's SKUs (acceptMatch), the prices replaced since the marketplace
// last changed each of their records that has no point yet
// (observeStatement's baseline).
const acceptedBaseline = `INSERT INTO catalog_price_points (seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, observed_at)
	SELECT n.seller_id, n.env, n.warehouse, n.barcode, n.marketplace_sku, n.parent_sku,
	COALESCE(n.pending_price, n.price), CASE WHEN n.pending_price IS NULL THEN n.sale_price ELSE n.pending_sale END, n.updated_at
	FROM catalog_nomenclature n WHERE n.id IN (` + acceptedIDs + `)
	AND n.updated_at > 0 AND n.updated_at < ?3 AND ` + noPoints

// observeAccepted appends, in tx, a point for every record of a batch's
// SKUs (products or cards) whose shown prices the accepted change just
// replaced with others (Accept sets price_was and sale_was beside the new
// price_to and sale_to first).
const observeAccepted = `INSERT INTO catalog_price_points (seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, observed_at)
	SELECT seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, price_to, sale_to, ?3 FROM catalog_nomenclature
	WHERE id IN (` + acceptedIDs + `)
	AND (price_was <> price_to OR sale_was <> sale_to)`

// PricePoints returns the prices observed for a product of k, oldest
// first: by marketplace SKU, or with card by its card (parent SKU). The
// records of one product share their prices, so one point per time is
// returned (the lowest price seen at it), and a point repeating the
// prices before it is left out (records of one product first changed at
// different times); at most PricePointsPerRecord, the newest.
func (s *Store) PricePoints(ctx context.Context, k Key, sku string, card bool) ([]PricePoint, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return nil, readable(err)
	}
	col := "marketplace_sku"
	if card {
		col = "parent_sku"
	}
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT observed_at, MIN(price), MIN(sale_price) FROM catalog_price_points
		WHERE seller_id = ? AND env = ? AND `+col+` = ? GROUP BY observed_at ORDER BY observed_at DESC LIMIT ?`),
		k.SellerID, k.Env, sku, PricePointsPerRecord)
	if err != nil {
		return nil, fmt.Errorf("copystore: price points: %w", err)
	}
	defer rows.Close()
	var out []PricePoint
	for rows.Next() {
		var at int64
		var p PricePoint
		if err := rows.Scan(&at, &p.Price, &p.SalePrice); err != nil {
			return nil, fmt.Errorf("copystore: price points: %w", err)
		}
		p.At = sqldb.FromMillis(at)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: price points: %w", err)
	}
	slices.Reverse(out)
	return slices.CompactFunc(out, func(a, b PricePoint) bool { return a.Price == b.Price && a.SalePrice == b.SalePrice }), nil
}

// PrunePricePoints deletes the points older than PricePointsKeep and, per
// record, those beyond the newest PricePointsPerRecord, a batch at a time,
// and returns how many it deleted.
func (s *Store) PrunePricePoints(ctx context.Context) (int, error) {
	return s.prunePricePoints(ctx, PricePointsKeep, PricePointsPerRecord, pricePointsBatch)
}

func (s *Store) prunePricePoints(ctx context.Context, keep time.Duration, perRecord, batch int) (int, error) {
	cutoff := sqldb.Millis(s.now().Add(-keep))
	deleted := 0
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM catalog_price_points WHERE id IN (SELECT id FROM catalog_price_points WHERE observed_at < ? LIMIT ?)`, []any{cutoff, batch}},
		{`DELETE FROM catalog_price_points WHERE id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (
			PARTITION BY seller_id, env, warehouse, barcode ORDER BY observed_at DESC, id DESC) AS rn FROM catalog_price_points) ranked
			WHERE rn > ? LIMIT ?)`, []any{perRecord, batch}},
	} {
		for {
			res, err := s.w.ExecContext(ctx, s.q(q.sql), q.args...)
			if err != nil {
				return deleted, fmt.Errorf("copystore: prune price points: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return deleted, fmt.Errorf("copystore: prune price points: %w", err)
			}
			deleted += int(n)
			if int(n) < batch {
				break
			}
		}
	}
	return deleted, nil
}
