package copystore

import (
	"context"
	"database/sql"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// countWrites is how many rows of catalog_counts tx has inserted or
// updated so far (PostgreSQL's statistics of the current transaction).
func countWrites(t *testing.T, tx *sql.Tx) int64 {
	t.Helper()
	var n int64
	if err := tx.QueryRow(`SELECT COALESCE(SUM(n_tup_ins + n_tup_upd), 0) FROM pg_stat_xact_user_tables
		WHERE relid = 'catalog_counts'::regclass`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// mixedUpdate changes the records of k in one statement per table: a
// fifth change status, a fifth cross quantity 0, a fifth only their price,
// a fifth status and quantity across 0, a fifth quantity on the same side
// of 0; half the orders and a third of the boxes change status, the
// others only another column.
const (
	mixedNomenclature = `UPDATE catalog_nomenclature SET
		status = CASE WHEN id % 5 IN (0, 3) THEN CASE status WHEN 'online' THEN 'offline' WHEN 'offline' THEN 'rejected' ELSE 'online' END ELSE status END,
		quantity = CASE WHEN id % 5 IN (1, 3) THEN CASE WHEN quantity <= 0 THEN 3 ELSE 0 END
			WHEN id % 5 = 4 THEN CASE WHEN quantity <= 0 THEN quantity - 1 ELSE quantity + 5 END ELSE quantity END,
		price = CASE WHEN id % 5 = 2 THEN price + 100 ELSE price END
		WHERE seller_id = ? AND env = ?`
	mixedOrders = `UPDATE catalog_orders SET status = CASE WHEN id % 2 = 0 THEN 'cancelled' ELSE status END,
		full_sum = full_sum + 1 WHERE seller_id = ? AND env = ?`
	mixedBoxes = `UPDATE catalog_boxes SET status = CASE WHEN id % 3 = 0 THEN 'shipped' ELSE status END,
		item_quantity = item_quantity + 1 WHERE seller_id = ? AND env = ?`
)

// TestCountsMixedUpdate: one statement whose rows change in different ways
// (status, stock across 0, status and stock, stock alone, price alone)
// leaves the counts equal to a recount, on both databases.
func TestCountsMixedUpdate(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k, other := testKey(5151), testKey(5152)
		y := &Syncer{Store: s, Lock: b.lock}
		for key, n := range map[Key]int{k: 1200, other: 120} {
			if err := y.Run(ctx, key, catalogue(n, 0)); err != nil {
				t.Fatal(err)
			}
		}
		for _, q := range []string{mixedNomenclature, mixedOrders, mixedBoxes} {
			if _, err := s.w.ExecContext(ctx, s.q(q), k.SellerID, k.Env); err != nil {
				t.Fatal(err)
			}
		}
		checkCounts(t, s, k, "after a mixed update")
		checkCounts(t, s, other, "the other copy")
	})
}

// TestCountsPerStatementPostgres: on PostgreSQL the counts are kept by
// statement triggers (no row trigger is left on the counted tables), so
// deleting a copy of thousands of records writes each of its counts once,
// an update of prices writes none and a mixed update one per count it
// moves; counts that fall to 0 stay as rows of 0. A pass dropping most of
// the copy, then a forget, leave exact counts, and another copy's alone.
func TestCountsPerStatementPostgres(t *testing.T) {
	t.Parallel()
	b := newBackend(t, sqldbtest.PostgresURL(t))
	ctx := context.Background()
	s := b.open()
	var rowTriggers []string
	rows, err := s.r.QueryContext(ctx, `SELECT tgrelid::regclass::text || '.' || tgname FROM pg_trigger
		WHERE tgrelid IN ('catalog_nomenclature'::regclass, 'catalog_orders'::regclass, 'catalog_boxes'::regclass)
		AND NOT tgisinternal AND tgtype & 1 = 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		rowTriggers = append(rowTriggers, name)
	}
	if rows.Close(); len(rowTriggers) > 0 {
		t.Errorf("row triggers left on the counted tables: %v", rowTriggers)
	}

	k, other := testKey(6161), testKey(6162)
	y := &Syncer{Store: s, Lock: b.lock}
	if err := y.Run(ctx, other, catalogue(90, 1)); err != nil {
		t.Fatal(err)
	}
	if err := y.Run(ctx, k, catalogue(4000, 0)); err != nil {
		t.Fatal(err)
	}
	// The counts of k: 5 statuses in the nomenclature and in zero_stock,
	// 4 of orders, 3 of boxes.
	const nomenclatureCounts, orderCounts, boxCounts = 2 * 5, 4, 3

	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// exec runs q on k in tx and reports how many count rows it wrote.
	exec := func(q string) int64 {
		t.Helper()
		before := countWrites(t, tx)
		if _, err := tx.ExecContext(ctx, s.q(q), k.SellerID, k.Env); err != nil {
			t.Fatal(err)
		}
		return countWrites(t, tx) - before
	}
	if n := exec(`UPDATE catalog_nomenclature SET price = price + 1, sale_price = sale_price + 1 WHERE seller_id = ? AND env = ?`); n != 0 {
		t.Errorf("an update of 4000 prices wrote %d count rows, want 0", n)
	}
	if n := exec(mixedNomenclature); n == 0 || n > nomenclatureCounts {
		t.Errorf("a mixed update of 4000 records wrote %d count rows, want 1 to %d", n, nomenclatureCounts)
	}
	for q, most := range map[string]int64{
		`DELETE FROM catalog_nomenclature WHERE seller_id = ? AND env = ?`: nomenclatureCounts,
		`DELETE FROM catalog_orders WHERE seller_id = ? AND env = ?`:       orderCounts,
		`DELETE FROM catalog_boxes WHERE seller_id = ? AND env = ?`:        boxCounts,
	} {
		if n := exec(q); n == 0 || n > most {
			t.Errorf("%s wrote %d count rows, want 1 to %d", q, n, most)
		}
	}
	var countRows, nonZero int
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*), COUNT(*) FILTER (WHERE n <> 0) FROM catalog_counts WHERE seller_id = ? AND env = ?`),
		k.SellerID, k.Env).Scan(&countRows, &nonZero); err != nil {
		t.Fatal(err)
	}
	if countRows != nomenclatureCounts+orderCounts+boxCounts || nonZero != 0 {
		t.Errorf("with the copy deleted, %d count rows, %d of them not 0; want %d rows of 0", countRows, nonZero, nomenclatureCounts+orderCounts+boxCounts)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, k, "after the rolled back deletes")

	if err := y.Run(ctx, k, catalogue(300, 1)); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, k, "after a pass dropping most records")
	if n := sum(recount(t, s, k)["nomenclature"]); n != 300 {
		t.Fatalf("the copy holds %d records, want 300", n)
	}
	if err := s.Forget(ctx, k); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, k, "after a forget")
	checkCounts(t, s, other, "the other copy")
}
