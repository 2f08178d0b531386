package copystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// A forget is two steps. MarkForgotten hides the copy at once, in one
// short transaction: the copy's record becomes a tombstone whose purge
// flag makes every read of the copy answer nothing (accessColumn), its
// small tables (sync states, kept counts, promotions) are deleted, and its
// epoch moves so a pass begun before it writes nothing more. Purge then
// deletes the large tables' rows, purgeChunk of one table a transaction,
// so SQLite's one writer is never held long (the pages of other copies
// keep reading and writing between the chunks), and clears the flag last.
// The flag lives in the database: a purge cut short (a crash, a restart)
// is finished by the next manager (Manager, at start and daily) or by the
// next pass of the copy, which finishes it before it stores anything, so
// a new copy of the same seller never mixes with what is left of the old.

// purgeChunkOf is how many rows a transaction of Purge deletes. On SQLite
// each costs about 300 µs (its indexes, the full-text index's 'delete' of
// its search text, the count and version triggers), so a chunk of 200
// holds the one writer for tens of milliseconds. PostgreSQL's writers do
// not wait for each other's rows, and a transaction costs it more than a
// row (its statement triggers, the commit): larger chunks.
func purgeChunkOf(postgres bool) int {
	if postgres {
		return 20_000
	}
	return 200
}

// purgeTables are the tables Purge deletes the rows of k from, a chunk at
// a time by their id, the records first (what an Accept racing the purge
// reads to observe prices).
var purgeTables = []string{"catalog_nomenclature", "catalog_orders", "catalog_boxes", "catalog_price_points"}

// errPurged ends a purge whose copy another purge finished meanwhile.
var errPurged = errors.New("copystore: the copy's purge is finished")

// MarkForgotten forgets the copy of k at once: from the moment it returns
// no read of the copy shows anything of it (as of a copy never made), its
// record stays as a tombstone, a pass begun before it writes nothing more
// (its epoch is gone), and none begins until Remember ("refresh now") or
// Grant (a login), and then only after Purge. The tombstone keeps the use
// time, so the 30-day expiry deletes it too. The copy's rows are left to
// Purge.
func (s *Store) MarkForgotten(ctx context.Context, k Key) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		// The record first: it waits for (or ends) a pass's transaction.
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_copies (seller_id, env, used_at, revoked, epoch, forgotten, purge) VALUES (?, ?, ?, 0, 1, 1, 1)
			ON CONFLICT (seller_id, env) DO UPDATE SET forgotten = 1, purge = 1, epoch = catalog_copies.epoch + 1`), k.SellerID, k.Env, sqldb.Millis(s.now())); err != nil {
			return fmt.Errorf("copystore: forget: %w", err)
		}
		// The counts remembered under the copy's version (countCache)
		// are of rows no longer shown.
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_versions (seller_id, env, v) VALUES (?, ?, 1)
			ON CONFLICT (seller_id, env) DO UPDATE SET v = catalog_versions.v + 1`), k.SellerID, k.Env); err != nil {
			return fmt.Errorf("copystore: forget: %w", err)
		}
		return s.deleteRows(ctx, tx, k, "catalog_sync", "catalog_counts", "catalog_promotion_cards", "catalog_promotions")
	})
}

// Purge deletes the rows a forget of k left (MarkForgotten), a chunk a
// transaction, and then clears the copy's purge flag; it returns at once
// when there is nothing to purge. Several purges of one copy may run at
// once (instances, a pass): each chunk checks the flag under the copy's
// record lock, so none deletes a row stored after another finished.
func (s *Store) Purge(ctx context.Context, k Key) error {
	chunk := s.purgeChunk
	if chunk <= 0 {
		chunk = purgeChunkOf(s.pg)
	}
	for _, t := range purgeTables {
		for {
			n, err := s.purgeStep(ctx, k, t, chunk)
			if errors.Is(err, errPurged) {
				return nil
			}
			if err != nil {
				return err
			}
			if n < int64(chunk) {
				break
			}
		}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_copies SET purge = 0 WHERE seller_id = ? AND env = ? AND purge <> 0`), k.SellerID, k.Env); err != nil {
			return fmt.Errorf("copystore: purge: %w", err)
		}
		return s.deleteRows(ctx, tx, k, "catalog_counts")
	})
}

// purgeStep deletes up to chunk rows of k from table in one transaction
// and returns how many it deleted; errPurged when k has nothing to purge.
func (s *Store) purgeStep(ctx context.Context, k Key, table string, chunk int) (n int64, _ error) {
	if s.beforePurgeChunk != nil {
		if err := s.beforePurgeChunk(); err != nil {
			return 0, err
		}
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		// The flag under the record's lock (the no-op UPDATE): a purge
		// that finished, and a pass that began after it, wait for this
		// transaction or are seen by it.
		res, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_copies SET purge = purge WHERE seller_id = ? AND env = ? AND purge <> 0`), k.SellerID, k.Env)
		if err != nil {
			return fmt.Errorf("copystore: purge: %w", err)
		}
		if locked, err := res.RowsAffected(); err != nil || locked != 1 {
			return errPurged
		}
		res, err = tx.ExecContext(ctx, s.q(`DELETE FROM `+table+` WHERE id IN (SELECT id FROM `+table+` WHERE seller_id = ? AND env = ? LIMIT ?)`),
			k.SellerID, k.Env, chunk)
		if err != nil {
			return fmt.Errorf("copystore: purge: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("copystore: purge: %w", err)
		}
		// PostgreSQL's statement triggers wrote the delete's negative
		// counts; the copy shows none until a new pass counts anew.
		return s.deleteRows(ctx, tx, k, "catalog_counts")
	})
	return n, err
}

// PurgePending reports whether rows of a forgotten copy of k are still to
// be deleted (Purge).
func (s *Store) PurgePending(ctx context.Context, k Key) (bool, error) {
	var purge int
	err := s.r.QueryRowContext(ctx, s.q(`SELECT purge FROM catalog_copies WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&purge)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("copystore: %w", err)
	}
	return purge != 0, nil
}

// pendingPurges are the copies whose forget left rows to delete.
func (s *Store) pendingPurges(ctx context.Context) ([]Key, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seller_id, env FROM catalog_copies WHERE purge <> 0`)
	if err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	var keys []Key
	for rows.Next() {
		var k Key
		if err := rows.Scan(&k.SellerID, &k.Env); err != nil {
			rows.Close()
			return nil, fmt.Errorf("copystore: %w", err)
		}
		keys = append(keys, k)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	return keys, nil
}
