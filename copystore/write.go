package copystore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Kinds of list the copy holds; each has its own sync state.
const (
	KindNomenclature = "nomenclature"
	KindOrders       = "orders"
	KindBoxes        = "boxes"
)

// Kinds lists the kinds in the order a sync reads them.
var Kinds = []string{KindNomenclature, KindOrders, KindBoxes}

func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return nil
}

// upserts holds the statements of one transaction storing records, by
// record count: the pages of a batch share the statement of a full page.
type upserts map[int]*sql.Stmt

func (u upserts) close() {
	for _, st := range u {
		st.Close()
	}
}

// putNomenclatureWith upserts one page of records read in pass gen, in
// tx, preparing each statement once in u (nil: one statement a call). A
// pending price change is confirmed (cleared) when the read shows its
// prices, and dropped when a read that started after it shows the
// marketplace finished with other prices (the change was refused); an
// accepted quantity or status holds until a read that started after it.
func (s *Store) putNomenclatureWith(ctx context.Context, tx *sql.Tx, u upserts, k Key, gen int64, passStart time.Time, recs []Record) error {
	// One statement per page: the per-statement cost of the driver, not
	// the rows, dominated the time of a page stored row by row.
	recs = uniqueRecords(recs)
	for len(recs) > 0 {
		chunk := recs[:min(len(recs), nomenclatureBatch)]
		recs = recs[len(chunk):]
		if !s.unobserved {
			if err := s.observeChunk(ctx, tx, u, k, sqldb.Millis(s.now()), sqldb.Millis(passStart), chunk); err != nil {
				return err
			}
		}
		args := make([]any, 0, len(chunk)*18)
		for i := range chunk {
			r := &chunk[i]
			name := bound(r.Name, maxNameBytes)
			brand := bound(r.Brand, maxFieldBytes)
			sku, ssku, bc := bound(r.MarketplaceSKU, maxFieldBytes), bound(r.SellerSKU, maxFieldBytes), bound(r.Barcode, maxFieldBytes)
			args = append(args, k.SellerID, k.Env, bound(r.Warehouse, maxFieldBytes), bc, sku, bound(r.ParentSKU, maxFieldBytes), ssku,
				name, brand, bound(r.Size, maxFieldBytes), r.Price, r.SalePrice, r.Quantity,
				bound(r.Status, maxFieldBytes), bound(r.PriceStatus, maxFieldBytes), sqldb.Millis(r.UpdatedAt), gen,
				searchDoc(sku, ssku, bc, name, brand))
		}
		if u == nil {
			if _, err := tx.ExecContext(ctx, s.q(nomenclatureUpsert(len(chunk), sqldb.Millis(passStart))), args...); err != nil {
				return fmt.Errorf("copystore: store records: %w", err)
			}
			continue
		}
		st := u[len(chunk)]
		if st == nil {
			var err error
			if st, err = tx.PrepareContext(ctx, s.q(nomenclatureUpsert(len(chunk), sqldb.Millis(passStart)))); err != nil {
				return fmt.Errorf("copystore: store records: %w", err)
			}
			u[len(chunk)] = st
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("copystore: store records: %w", err)
		}
	}
	return nil
}

// nomenclatureBatch is the most records one statement stores (18
// parameters each, well under SQLite's 32,766).
const nomenclatureBatch = 100

// nomenclatureUpsert is the statement storing n records read by a pass
// that started at started (Unix ms, a number the store made, inlined).
// A pending price change is confirmed (cleared) when the read shows its
// prices, and dropped when a read that started after it shows the
// marketplace finished with other prices (the change was refused). An
// accepted quantity or status holds until a read that started after it.
func nomenclatureUpsert(n int, started int64) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO catalog_nomenclature
		(seller_id, env, warehouse, barcode, marketplace_sku, parent_sku, seller_sku, name, brand, size,
		 price, sale_price, quantity, status, price_status, updated_at, seen_gen, search) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	st := strconv.FormatInt(started, 10)
	confirmed := `catalog_nomenclature.pending_price = excluded.price AND catalog_nomenclature.pending_sale = excluded.sale_price AND excluded.price_status <> 'PROCESSING'`
	refused := `catalog_nomenclature.pending_at < ` + st + ` AND excluded.price_status <> 'PROCESSING'`
	b.WriteString(`
		ON CONFLICT (seller_id, env, warehouse, barcode) DO UPDATE SET
		 marketplace_sku = excluded.marketplace_sku, parent_sku = excluded.parent_sku, seller_sku = excluded.seller_sku,
		 name = excluded.name, brand = excluded.brand, size = excluded.size, price = excluded.price,
		 sale_price = excluded.sale_price,
		 price_status = excluded.price_status, updated_at = excluded.updated_at, seen_gen = excluded.seen_gen,
		 search = excluded.search`)
	for _, col := range []string{"pending_price", "pending_sale", "pending_at"} {
		b.WriteString(",\n\t\t " + col + " = CASE WHEN " + confirmed + " THEN NULL WHEN " + refused + " THEN NULL ELSE catalog_nomenclature." + col + " END")
	}
	// An accepted quantity or status is kept against a read that started
	// before it was accepted (the read may predate it); a read that
	// started after it is the marketplace's word, and clears the mark.
	for _, col := range []string{"quantity", "status"} {
		held := `catalog_nomenclature.` + col + `_pending_at >= ` + st
		b.WriteString(",\n\t\t " + col + " = CASE WHEN " + held + " THEN catalog_nomenclature." + col + " ELSE excluded." + col + " END")
		b.WriteString(",\n\t\t " + col + "_pending_at = CASE WHEN " + held + " THEN catalog_nomenclature." + col + "_pending_at ELSE NULL END")
	}
	return b.String()
}

func (s *Store) putOrders(ctx context.Context, tx *sql.Tx, k Key, gen int64, orders []Order) error {
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO catalog_orders
		(seller_id, env, order_nr, status, payment_method, currency, full_sum, delivery_price, item_quantity,
		 is_confirmed, created_at, updated_at, seen_gen, search)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (seller_id, env, order_nr) DO UPDATE SET
		 status = excluded.status, payment_method = excluded.payment_method, currency = excluded.currency,
		 full_sum = excluded.full_sum, delivery_price = excluded.delivery_price, item_quantity = excluded.item_quantity,
		 is_confirmed = excluded.is_confirmed, created_at = excluded.created_at, updated_at = excluded.updated_at,
		 seen_gen = excluded.seen_gen, search = excluded.search`))
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	defer stmt.Close()
	for i := range orders {
		o := &orders[i]
		nr := bound(o.OrderNr, maxFieldBytes)
		confirmed := 0
		if o.IsConfirmed {
			confirmed = 1
		}
		if _, err := stmt.ExecContext(ctx, k.SellerID, k.Env, nr, bound(o.Status, maxFieldBytes),
			bound(o.PaymentMethod, maxFieldBytes), bound(o.Currency, maxFieldBytes), o.FullSum,
			o.DeliveryPrice, o.ItemQuantity, confirmed, sqldb.Millis(o.CreatedAt), sqldb.Millis(o.UpdatedAt), gen,
			strings.TrimSpace(string(appendFolded(nil, nr)))); err != nil {
			return fmt.Errorf("copystore: store order: %w", err)
		}
	}
	return nil
}

func (s *Store) putBoxes(ctx context.Context, tx *sql.Tx, k Key, gen int64, boxes []Box) error {
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO catalog_boxes
		(seller_id, env, code, status, dimension, item_quantity, created_at, updated_at, shipped_at, seen_gen, search)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (seller_id, env, code) DO UPDATE SET
		 status = excluded.status, dimension = excluded.dimension, item_quantity = excluded.item_quantity,
		 created_at = excluded.created_at, updated_at = excluded.updated_at, shipped_at = excluded.shipped_at,
		 seen_gen = excluded.seen_gen, search = excluded.search`))
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	defer stmt.Close()
	for i := range boxes {
		b := &boxes[i]
		code := bound(b.Code, maxFieldBytes)
		var shipped any
		if !b.ShippedAt.IsZero() {
			shipped = sqldb.Millis(b.ShippedAt)
		}
		if _, err := stmt.ExecContext(ctx, k.SellerID, k.Env, code, bound(b.Status, maxFieldBytes),
			bound(b.Dimension, maxFieldBytes), b.ItemQuantity, sqldb.Millis(b.CreatedAt), sqldb.Millis(b.UpdatedAt), shipped, gen,
			strings.TrimSpace(string(appendFolded(nil, code)))); err != nil {
			return fmt.Errorf("copystore: store box: %w", err)
		}
	}
	return nil
}

// Change is one change the marketplace accepted through the dashboard, as
// the copy takes it: the records it names and the parts it set. A price
// change names every record of a marketplace SKU, or of a product card
// (its parent SKU), in SKU; a stock or status change names one record by
// Warehouse and Barcode. A part not set (nil, "") is left as it is.
type Change struct {
	SKU                string
	Warehouse, Barcode string
	// Price and SalePrice are the new prices in kopecks (SalePrice 0:
	// none); a price change sets Price.
	Price     *int64
	SalePrice int64
	Quantity  *int
	Status    string
}

// Accept writes the changes the marketplace accepted into the copy of k,
// keeping with each part changed what it replaced and when (Replacements),
// in one transaction, each marked pending from now until a read confirms
// it: new prices beside the last prices read (Record.Pending), a new
// quantity or status into the record itself, so the counts (kept by
// triggers in this transaction), the filters and the sorts see it at once
// (Record.QuantityPending, Record.StatusPending). A pass that started
// before now keeps them; one that starts after takes what it reads.
// Prices are written a batch of SKUs at a time, as if one change after
// the other; a record named in one batch both by its SKU and by its card
// (no form sends both) takes the change of its SKU, replacing the prices
// it showed before the batch.
func (s *Store) Accept(ctx context.Context, k Key, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	at := sqldb.Millis(s.now())
	batches := priceBatches(changes)
	// Their statements are prepared before the transaction takes the
	// writer's connection (SQLite has one).
	for _, batch := range batches {
		if _, _, err := s.acceptStatements(ctx, len(batch)); err != nil {
			return err
		}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		stmts := map[string]*sql.Stmt{}
		defer func() {
			for _, st := range stmts {
				st.Close()
			}
		}()
		exec := func(query string, args ...any) error {
			st := stmts[query]
			if st == nil {
				var err error
				if st, err = tx.PrepareContext(ctx, s.q(query)); err != nil {
					return fmt.Errorf("copystore: accept: %w", err)
				}
				stmts[query] = st
			}
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("copystore: accept: %w", err)
			}
			return nil
		}
		for _, batch := range batches {
			if err := s.acceptPrices(ctx, tx, k, at, batch); err != nil {
				return err
			}
		}
		for _, c := range changes {
			if c.Quantity == nil && c.Status == "" || c.Barcode == "" {
				continue
			}
			var set []string
			var args []any
			if c.Quantity != nil {
				set = append(set, "quantity_was = quantity, quantity_to = ?, quantity_changed_at = ?, quantity = ?, quantity_pending_at = ?")
				args = append(args, *c.Quantity, at, *c.Quantity, at)
			}
			if c.Status != "" {
				st := bound(c.Status, maxFieldBytes)
				set = append(set, "status_was = status, status_to = ?, status_changed_at = ?, status = ?, status_pending_at = ?")
				args = append(args, st, at, st, at)
			}
			args = append(args, k.SellerID, k.Env, c.Warehouse, c.Barcode)
			if err := exec(`UPDATE catalog_nomenclature SET `+strings.Join(set, ", ")+`
				WHERE seller_id = ? AND env = ? AND warehouse = ? AND barcode = ?`, args...); err != nil {
				return err
			}
		}
		return nil
	})
}

// acceptBatch bounds the price changes one statement of Accept writes:
// three parameters each, far below SQLite's (32,766) and PostgreSQL's
// (65,535) limits, and a chunk of the engine's (500) in one batch.
const acceptBatch = 500

// acceptScalars is how many arguments of acceptPrices' statements come
// before the batch's table (acceptedPrices).
const acceptScalars = 3

// acceptSizes are the sizes of acceptedPrices' table: a batch takes the
// smallest that holds it, the rest of its rows NULL (they match no
// record), so that a few statements, prepared once, serve every batch.
var acceptSizes = []int{8, 64, acceptBatch}

// acceptedPrices is the prices of a batch of n rows at most: a table v of
// (pos, sku, price, sale), in the batch's order, leading each statement
// of acceptPrices. Every statement of acceptPrices takes the same
// arguments (acceptArgs): ?1 the seller, ?2 the environment, ?3 the time
// accepted, then the table's rows. The three are named first, in k, which
// no statement reads, so that they are SQLite's first parameters: SQLite
// tracks the parameters past the 31st as one, and where a comparison with
// one of them may steer a plan (seller_id = ?), binding any of them to a
// different kind of value (a row of the table left NULL after a longer
// batch, a sale price of 0) makes it compile the statement again at its
// next run (TestAcceptStatementsStayCompiled). The table's parameters
// stay unnumbered: the driver looks each numbered one up by name.
func acceptedPrices(n int) string {
	var b strings.Builder
	b.WriteString("WITH k (seller, env, at) AS (SELECT CAST(?1 AS BIGINT), CAST(?2 AS TEXT), CAST(?3 AS BIGINT)), v (pos, sku, price, sale) AS (VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + strconv.Itoa(i) + ", CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT))")
	}
	b.WriteString(") ")
	return b.String()
}

// priceBatches is the price changes of changes in batches of distinct
// SKUs, in order, of acceptBatch at most: a SKU named again starts the
// next batch, so that a later change still replaces an earlier one.
func priceBatches(changes []Change) [][]Change {
	var out [][]Change
	var batch []Change
	seen := map[string]bool{}
	for _, c := range changes {
		if c.Price == nil || c.SKU == "" {
			continue
		}
		if seen[c.SKU] || len(batch) == acceptBatch {
			out, batch = append(out, batch), nil
			clear(seen)
		}
		seen[c.SKU] = true
		batch = append(batch, c)
	}
	if len(batch) > 0 {
		out = append(out, batch)
	}
	return out
}

// acceptPricesBySKU and acceptPricesByCard replace the prices of every
// record of a batch's SKUs: the prices replaced are those the record
// showed (a change still pending, else the prices read). The first finds
// the records by their own SKU, the second those whose card (parent SKU)
// the batch names and whose own SKU it does not: each of the batch's SKUs
// through its index into a table of their ids and new prices, m, which
// each record is then updated from by its id. Both follow acceptedPrices'
// head (the batch's table, v), adding m to its WITH; m is materialized so
// that SQLite does not fold it into the update and read the whole table
// to match it (TestCardPlans).
const (
	acceptPricesBySKU = `, m AS MATERIALIZED (SELECT n.id, v.price, v.sale FROM v CROSS JOIN catalog_nomenclature n
		WHERE n.seller_id = ?1 AND n.env = ?2 AND n.marketplace_sku = v.sku)
	UPDATE catalog_nomenclature SET
	price_was = COALESCE(pending_price, catalog_nomenclature.price),
	sale_was = CASE WHEN pending_price IS NULL THEN sale_price ELSE pending_sale END,
	price_to = m.price, sale_to = m.sale, pending_price = m.price, pending_sale = m.sale,
	price_changed_at = ?3, pending_at = ?3
	FROM m WHERE catalog_nomenclature.id = m.id`
	acceptPricesByCard = `, m AS MATERIALIZED (SELECT n.id, v.price, v.sale FROM v CROSS JOIN catalog_nomenclature n
		WHERE n.seller_id = ?1 AND n.env = ?2 AND n.parent_sku = v.sku
		AND n.marketplace_sku NOT IN (SELECT sku FROM v WHERE sku IS NOT NULL))
	UPDATE catalog_nomenclature SET
	price_was = COALESCE(pending_price, catalog_nomenclature.price),
	sale_was = CASE WHEN pending_price IS NULL THEN sale_price ELSE pending_sale END,
	price_to = m.price, sale_to = m.sale, pending_price = m.price, pending_sale = m.sale,
	price_changed_at = ?3, pending_at = ?3
	FROM m WHERE catalog_nomenclature.id = m.id`
)

// acceptedIDs selects the ids of the records a batch's SKUs name, by
// their own SKU or by their card, reading the batch's table first
// (CROSS JOIN keeps SQLite's join in that order): each SKU is then found
// through its index, where SQLite, without statistics, would otherwise
// read all of the seller's records for the batch (TestCardPlans). A
// record named both ways comes twice. Its arguments are acceptPrices':
// ?1 the seller, ?2 the environment.
const acceptedIDs = `SELECT m.id FROM v CROSS JOIN catalog_nomenclature m WHERE m.seller_id = ?1 AND m.env = ?2 AND m.marketplace_sku = v.sku
	UNION ALL SELECT m.id FROM v CROSS JOIN catalog_nomenclature m WHERE m.seller_id = ?1 AND m.env = ?2 AND m.parent_sku = v.sku`

// acceptPrices writes, in tx, a batch of price changes, each naming a
// different SKU, in four statements whatever its size: the baseline
// points, the prices (by SKU, by card), the points of the prices
// replaced.
func (s *Store) acceptPrices(ctx context.Context, tx *sql.Tx, k Key, at int64, batch []Change) error {
	size, prepared, err := s.acceptStatements(ctx, len(batch))
	if err != nil {
		return err
	}
	args := acceptArgs(k, at, size, batch)
	for _, st := range prepared {
		if _, err := tx.StmtContext(ctx, st).ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("copystore: accept: %w", err)
		}
	}
	return nil
}

// acceptArgs is the arguments of acceptPrices' statements for a batch in a
// table of size rows (acceptedPrices): the seller, the environment, the
// time, then each row's SKU, price and sale price, the rows past the
// batch NULL.
func acceptArgs(k Key, at int64, size int, batch []Change) []any {
	args := make([]any, acceptScalars+3*size)
	args[0], args[1], args[2] = k.SellerID, k.Env, at
	for i, c := range batch {
		p := acceptScalars + 3*i
		args[p], args[p+1], args[p+2] = c.SKU, *c.Price, c.SalePrice
	}
	return args
}

// acceptStatements is the size of the table of a batch of n changes
// (acceptSizes) and acceptPrices' statements for it, prepared on
// the writer's pool at their first use: with its table of 500 rows, a
// statement takes SQLite longer to parse than to run.
func (s *Store) acceptStatements(ctx context.Context, n int) (int, [4]*sql.Stmt, error) {
	size := acceptSizes[len(acceptSizes)-1]
	for _, max := range acceptSizes {
		if n <= max {
			size = max
			break
		}
	}
	s.acceptMu.Lock()
	defer s.acceptMu.Unlock()
	if st, ok := s.accepts[size]; ok {
		return size, st, nil
	}
	var out [4]*sql.Stmt
	head := acceptedPrices(size)
	for i, query := range []string{acceptedBaseline, acceptPricesBySKU, acceptPricesByCard, observeAccepted} {
		st, err := s.w.PrepareContext(ctx, s.q(head+query))
		if err != nil {
			for _, p := range out[:i] {
				p.Close()
			}
			return 0, out, fmt.Errorf("copystore: accept: %w", err)
		}
		out[i] = st
	}
	if s.accepts == nil {
		s.accepts = map[int][4]*sql.Stmt{}
	}
	s.accepts[size] = out
	return size, out, nil
}

// Confirm records what a read of the marketplace outside a pass (a bulk
// job's read-back), started at readAt, shows of recs, as a pass would for
// the changes accepted through the dashboard before readAt: the read is
// the marketplace's word on them, so their pending marks are cleared and
// the values read kept (prices only once the marketplace no longer shows
// them processing). A change accepted after readAt, or a record with
// nothing pending, is left to the next pass.
func (s *Store) Confirm(ctx context.Context, k Key, readAt time.Time, read []apiclient.Nomenclature) error {
	if len(read) == 0 {
		return nil
	}
	recs := mapAll(read, recordOf)
	at := sqldb.Millis(readAt)
	return s.tx(ctx, func(tx *sql.Tx) error {
		const where = ` WHERE seller_id = ? AND env = ? AND warehouse = ? AND barcode = ?`
		var stmts [3]*sql.Stmt
		for i, q := range []string{
			`UPDATE catalog_nomenclature SET price = ?, sale_price = ?, price_status = ?, pending_price = NULL, pending_sale = NULL, pending_at = NULL` +
				where + ` AND pending_at <= ?`,
			`UPDATE catalog_nomenclature SET quantity = ?, quantity_pending_at = NULL` + where + ` AND quantity_pending_at <= ?`,
			`UPDATE catalog_nomenclature SET status = ?, status_pending_at = NULL` + where + ` AND status_pending_at <= ?`,
		} {
			st, err := tx.PrepareContext(ctx, s.q(q))
			if err != nil {
				return fmt.Errorf("copystore: confirm: %w", err)
			}
			defer st.Close()
			stmts[i] = st
		}
		for i := range recs {
			r := &recs[i]
			wh, bc := bound(r.Warehouse, maxFieldBytes), bound(r.Barcode, maxFieldBytes)
			if r.PriceStatus != "PROCESSING" {
				if _, err := stmts[0].ExecContext(ctx, r.Price, r.SalePrice, bound(r.PriceStatus, maxFieldBytes),
					k.SellerID, k.Env, wh, bc, at); err != nil {
					return fmt.Errorf("copystore: confirm: %w", err)
				}
			}
			if _, err := stmts[1].ExecContext(ctx, r.Quantity, k.SellerID, k.Env, wh, bc, at); err != nil {
				return fmt.Errorf("copystore: confirm: %w", err)
			}
			if _, err := stmts[2].ExecContext(ctx, bound(r.Status, maxFieldBytes), k.SellerID, k.Env, wh, bc, at); err != nil {
				return fmt.Errorf("copystore: confirm: %w", err)
			}
		}
		return nil
	})
}

// Forget forgets the copy of k (MarkForgotten: nothing of it readable
// from its first statement on) and deletes its rows (Purge) before it
// returns. The manager's forget (Manager.Forget) leaves the deletes to the
// background instead.
func (s *Store) Forget(ctx context.Context, k Key) error {
	if err := s.MarkForgotten(ctx, k); err != nil {
		return err
	}
	return s.Purge(ctx, k)
}

// deleteRows deletes the rows of k from tables, in tx.
func (s *Store) deleteRows(ctx context.Context, tx *sql.Tx, k Key, tables ...string) error {
	for _, t := range tables {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+t+` WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env); err != nil {
			return fmt.Errorf("copystore: forget: %w", err)
		}
	}
	return nil
}

// Remember undoes Forget's hold: the user asked for the copy again
// ("refresh now"), so passes may begin.
func (s *Store) Remember(ctx context.Context, k Key) error {
	_, err := s.w.ExecContext(ctx, s.q(`UPDATE catalog_copies SET forgotten = 0 WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env)
	if err != nil {
		return fmt.Errorf("copystore: remember: %w", err)
	}
	return nil
}

// touchEvery is how often a copy's use is written: the use time serves
// the expiry of unused copies (UnusedFor), so a page view within
// touchEvery of the last use this store wrote writes nothing, and page
// views do not queue for the database's writer.
const touchEvery = time.Minute

// Touch records that a session of k used the copy now, at most once per
// touchEvery for each copy.
func (s *Store) Touch(ctx context.Context, k Key) error {
	now := s.now()
	s.touchMu.Lock()
	last, ok := s.touched[k]
	s.touchMu.Unlock()
	if ok && !now.Before(last) && now.Sub(last) < touchEvery {
		return nil
	}
	_, err := s.w.ExecContext(ctx, s.q(`INSERT INTO catalog_copies (seller_id, env, used_at, revoked) VALUES (?, ?, ?, 0)
		ON CONFLICT (seller_id, env) DO UPDATE SET used_at = excluded.used_at`), k.SellerID, k.Env, sqldb.Millis(now))
	if err != nil {
		return fmt.Errorf("copystore: touch: %w", err)
	}
	s.touchMu.Lock()
	if s.touched == nil {
		s.touched = make(map[Key]time.Time)
	}
	s.touched[k] = now
	s.touchMu.Unlock()
	return nil
}

// untouch forgets when k's use was last written: its record was deleted.
func (s *Store) untouch(k Key) {
	s.touchMu.Lock()
	delete(s.touched, k)
	s.touchMu.Unlock()
}

// Grant records a login the marketplace accepted for k with cred: the
// copy is used now, readable again if a 403 had revoked it, copied again
// if it was forgotten, and cred is no longer marked rejected.
func (s *Store) Grant(ctx context.Context, k Key, cred Credential) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_copies (seller_id, env, used_at, revoked) VALUES (?, ?, ?, 0)
			ON CONFLICT (seller_id, env) DO UPDATE SET used_at = excluded.used_at, revoked = 0, forgotten = 0`), k.SellerID, k.Env, sqldb.Millis(s.now())); err != nil {
			return fmt.Errorf("copystore: grant: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM catalog_credentials WHERE fingerprint = ?`), string(cred)); err != nil {
			return fmt.Errorf("copystore: grant: %w", err)
		}
		return nil
	})
}

// Credential is the fingerprint of one secret of a marketplace client: a
// one-way hash of the client id, the environment and the secret, so that
// a refusal of one secret concerns exactly that secret. A client whose
// secret was rotated has two fingerprints, and the refusal of the old
// one leaves the sessions holding the new one alone. The secret itself
// is never stored (secrets are long random strings, which the hash does
// not make guessable).
type Credential string

// CredentialOf is the fingerprint of secret of clientID in env.
func CredentialOf(clientID, env, secret string) Credential {
	h := sha256.New()
	for _, part := range []string{"sellerdesk credential secret", env, clientID, secret} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return Credential(hex.EncodeToString(h.Sum(nil)))
}

// ErrCredentialRejected is returned for credentials the marketplace
// rejected (RejectCredential): nothing is sent with them again.
var ErrCredentialRejected = errors.New("copystore: the marketplace rejected these credentials")

// RejectCredential records that the marketplace rejected cred (a 401 a
// new token did not cure): every session holding it loses access at once,
// and no sync reads with it, until a login with it succeeds (Grant).
func (s *Store) RejectCredential(ctx context.Context, cred Credential) error {
	_, err := s.w.ExecContext(ctx, s.q(`INSERT INTO catalog_credentials (fingerprint, revoked_at) VALUES (?, ?)
		ON CONFLICT (fingerprint) DO UPDATE SET revoked_at = excluded.revoked_at`), string(cred), sqldb.Millis(s.now()))
	if err != nil {
		return fmt.Errorf("copystore: reject credential: %w", err)
	}
	return nil
}

// CredentialRejected reports whether the marketplace rejected cred since
// the last login with it.
func (s *Store) CredentialRejected(ctx context.Context, cred Credential) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM catalog_credentials WHERE fingerprint = ?`), string(cred)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("copystore: %w", err)
	}
	return n > 0, nil
}

// Revoke cuts access to the copy of k at once: the marketplace answered 403
// for its credential. Reads fail with ErrRevoked until the next Grant (a
// login the marketplace accepted).
func (s *Store) Revoke(ctx context.Context, k Key) error {
	_, err := s.w.ExecContext(ctx, s.q(`INSERT INTO catalog_copies (seller_id, env, used_at, revoked) VALUES (?, ?, ?, 1)
		ON CONFLICT (seller_id, env) DO UPDATE SET revoked = 1`), k.SellerID, k.Env, sqldb.Millis(s.now()))
	if err != nil {
		return fmt.Errorf("copystore: revoke: %w", err)
	}
	return nil
}

// UnusedFor is how long a copy no session used is kept.
const UnusedFor = 30 * 24 * time.Hour

// DeleteUnused deletes every copy no session has used for UnusedFor and
// returns how many it deleted: as a forget does (the copy hidden at once,
// its rows deleted a chunk a transaction, so a large copy never holds the
// writer long), then its record.
func (s *Store) DeleteUnused(ctx context.Context) (int, error) {
	rows, err := s.w.QueryContext(ctx, s.q(`SELECT seller_id, env FROM catalog_copies WHERE used_at < ?`), sqldb.Millis(s.now().Add(-UnusedFor)))
	if err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	var keys []Key
	for rows.Next() {
		var k Key
		if err := rows.Scan(&k.SellerID, &k.Env); err != nil {
			rows.Close()
			return 0, fmt.Errorf("copystore: %w", err)
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	for _, k := range keys {
		s.untouch(k)
		// The record's epoch moves first, so a running pass stops (guard).
		if err := s.MarkForgotten(ctx, k); err != nil {
			return 0, err
		}
		if err := s.Purge(ctx, k); err != nil {
			return 0, err
		}
		if _, err := s.w.ExecContext(ctx, s.q(`DELETE FROM catalog_copies WHERE seller_id = ? AND env = ? AND purge = 0`), k.SellerID, k.Env); err != nil {
			return 0, fmt.Errorf("copystore: %w", err)
		}
	}
	return len(keys), nil
}
