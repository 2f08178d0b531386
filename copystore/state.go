package copystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// SyncState is where the sync of one kind of list of a copy stands. It
// lives in the database, so a restarted instance resumes from NextPage.
type SyncState struct {
	Kind string
	// Gen counts the passes; the rows a finished pass did not see (gen
	// below its own) are deleted when it finishes.
	Gen int64
	// NextPage is the page the running pass reads next (1-based).
	NextPage int
	// Pages and Total are the marketplace's counts as of the last page.
	Pages, Total int
	// Running reports a pass that started and has not finished (it may be
	// running elsewhere, or interrupted and waiting to be resumed).
	Running               bool
	StartedAt, ProgressAt time.Time
	// CompletedAt is when the last full pass finished; zero until the
	// first one does.
	CompletedAt time.Time
	// WaitUntil is set while the sync waits out a 429 or 503; Waits counts
	// the waits of the running pass.
	WaitUntil time.Time
	Waits     int
	// LastError is why the pass failed: a Stop reason when it was
	// stopped (Running false, not complete), else the last read error.
	LastError string

	// epoch is the copy's epoch the pass began under (beginPass): a
	// forget moves it on, and every later write of the pass is a no-op.
	epoch int64
}

// Reasons a pass was stopped, kept in LastError (the view words them).
const (
	// StopUnauthorized: the marketplace rejected the credentials (a 401
	// a new token did not cure); nothing is read with them again until
	// a login with them succeeds.
	StopUnauthorized = "stopped:unauthorized"
	// StopForbidden: the marketplace refused the account this seller's
	// lists (403); the copy is revoked until the next login.
	StopForbidden = "stopped:forbidden"
)

// Stopped reports a pass that ended on a refusal of the marketplace
// rather than finishing: it is not running and LastError says why.
func (st SyncState) Stopped() bool {
	return !st.Running && (st.LastError == StopUnauthorized || st.LastError == StopForbidden)
}

// errPassGone ends a pass whose copy was forgotten (or deleted) after it
// began: its writes are rolled back, and it stops quietly.
var errPassGone = errors.New("copystore: the copy was forgotten during the pass")

// Complete reports whether a full pass ever finished.
func (st SyncState) Complete() bool { return !st.CompletedAt.IsZero() }

const stateCols = `kind, gen, next_page, pages, total, running, started_at, progress_at, completed_at, wait_until, waits, last_error`

func scanState(sc interface{ Scan(...any) error }) (SyncState, error) {
	var st SyncState
	var running int
	var started, progress, completed, wait int64
	err := sc.Scan(&st.Kind, &st.Gen, &st.NextPage, &st.Pages, &st.Total, &running, &started, &progress, &completed, &wait, &st.Waits, &st.LastError)
	st.Running = running != 0
	st.StartedAt, st.ProgressAt, st.CompletedAt, st.WaitUntil = sqldb.FromMillis(started), sqldb.FromMillis(progress), sqldb.FromMillis(completed), sqldb.FromMillis(wait)
	return st, err
}

// packedState is stateCols as one text value (packedRecord).
var packedState = func() string {
	var b strings.Builder
	for i, c := range strings.Split(stateCols, ", ") {
		if i > 0 {
			b.WriteString(" || '" + fieldSep + "' || ")
		}
		b.WriteString("CAST(" + c + " AS TEXT)")
	}
	return b.String()
}()

// unpackState reads a row of packedState.
func unpackState(p string) (SyncState, error) {
	var st SyncState
	var f [12]string
	for i := range f {
		var ok bool
		if i == len(f)-1 {
			f[i], ok = p, true // last_error: bound, so without fieldSep
		} else {
			f[i], p, ok = strings.Cut(p, fieldSep)
		}
		if !ok {
			return st, errPacked
		}
	}
	var n [10]int64
	for i := range n {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return st, errPacked
		}
		n[i] = v
	}
	st.Kind, st.Gen, st.NextPage, st.Pages, st.Total, st.Running = f[0], n[0], int(n[1]), int(n[2]), int(n[3]), n[4] != 0
	st.StartedAt, st.ProgressAt, st.CompletedAt, st.WaitUntil = sqldb.FromMillis(n[5]), sqldb.FromMillis(n[6]), sqldb.FromMillis(n[7]), sqldb.FromMillis(n[8])
	st.Waits, st.LastError = int(n[9]), f[11]
	return st, nil
}

// SyncStates returns the sync state of every kind of k that has one.
func (s *Store) SyncStates(ctx context.Context, k Key) (map[string]SyncState, error) {
	// Every page served from the copy reads this: one packed value a row
	// (packedRecord says why), not twelve.
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+packedState+` FROM catalog_sync WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env)
	if err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	out := make(map[string]SyncState, len(Kinds))
	var packed string
	for rows.Next() {
		if err := rows.Scan(&packed); err != nil {
			return nil, fmt.Errorf("copystore: %w", err)
		}
		st, err := unpackState(packed)
		if err != nil {
			return nil, err
		}
		out[st.Kind] = st
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	return out, nil
}

// beginPass starts a pass of kind, or resumes the one an interrupted
// instance left running: then NextPage is the first page not stored. A
// pass that finished less than minAge ago, or since since (another
// instance did the work asked for), is not repeated: skip; a stopped one
// is. A forgotten copy is not copied again (skip) until Remember or
// Grant, nor a revoked one (its reads would be refused again) until Grant.
// The pass is bound to the copy's epoch (guard). What a forget left to
// delete is deleted first (Purge): a new copy starts empty.
func (s *Store) beginPass(ctx context.Context, k Key, kind string, minAge time.Duration, since time.Time) (st SyncState, skip bool, _ error) {
	if pending, err := s.PurgePending(ctx, k); err != nil {
		return st, false, err
	} else if pending {
		if err := s.Purge(ctx, k); err != nil {
			return st, false, err
		}
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := sqldb.Millis(s.now())
		// The copy's record first: no row is ever stored without it. It
		// stays locked until tx ends (the no-op UPDATE), so a forget
		// waits for the pass's sync row or deletes it after.
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_copies (seller_id, env, used_at, revoked, epoch, forgotten)
			VALUES (?, ?, ?, 0, 0, 0) ON CONFLICT (seller_id, env) DO NOTHING`), k.SellerID, k.Env, now); err != nil {
			return fmt.Errorf("copystore: begin sync: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_copies SET epoch = epoch WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env); err != nil {
			return fmt.Errorf("copystore: begin sync: %w", err)
		}
		var epoch int64
		var forgotten, revoked, purge int
		if err := tx.QueryRowContext(ctx, s.q(`SELECT epoch, forgotten, revoked, purge FROM catalog_copies WHERE seller_id = ? AND env = ?`),
			k.SellerID, k.Env).Scan(&epoch, &forgotten, &revoked, &purge); err != nil {
			return fmt.Errorf("copystore: begin sync: %w", err)
		}
		if forgotten != 0 || revoked != 0 || purge != 0 {
			skip = true
			return nil
		}
		defer func() { st.epoch = epoch }()
		var err error
		st, err = scanState(tx.QueryRowContext(ctx, s.q(`SELECT `+stateCols+` FROM catalog_sync WHERE seller_id = ? AND env = ? AND kind = ?`), k.SellerID, k.Env, kind))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			st = SyncState{Kind: kind, Gen: 1, NextPage: 1, Running: true, StartedAt: sqldb.FromMillis(now)}
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO catalog_sync (seller_id, env, kind, gen, next_page, pages, total, running,
				started_at, progress_at, completed_at, wait_until, waits, last_error) VALUES (?, ?, ?, 1, 1, 0, 0, 1, ?, ?, 0, 0, 0, '')`),
				k.SellerID, k.Env, kind, now, now)
		case err != nil:
		case st.Running:
			return nil // resume
		case st.Stopped():
			// A stopped pass is begun again, however fresh the last
			// full one: the refusal it recorded must not stand.
			st, err = s.newPass(ctx, tx, k, kind, st, now)
		case minAge > 0 && s.now().Sub(st.CompletedAt) < minAge, !since.IsZero() && !st.CompletedAt.Before(since):
			skip = true
			return nil
		default:
			st, err = s.newPass(ctx, tx, k, kind, st, now)
		}
		if err != nil {
			return fmt.Errorf("copystore: begin sync: %w", err)
		}
		return nil
	})
	return st, skip, err
}

// newPass begins the pass after st, at now (Unix ms), in tx.
func (s *Store) newPass(ctx context.Context, tx *sql.Tx, k Key, kind string, st SyncState, now int64) (SyncState, error) {
	st.Gen++
	st.NextPage, st.Running, st.StartedAt, st.Waits, st.LastError = 1, true, sqldb.FromMillis(now), 0, ""
	_, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_sync SET gen = ?, next_page = 1, running = 1, started_at = ?, progress_at = ?,
		wait_until = 0, waits = 0, last_error = '' WHERE seller_id = ? AND env = ? AND kind = ?`), st.Gen, now, now, k.SellerID, k.Env, kind)
	return st, err
}

// guard binds tx to the copy as the pass of epoch found it: it fails with
// errPassGone when the copy was forgotten or deleted since, so the pass's
// writes are rolled back. It locks the copy's record (an UPDATE) until tx
// ends, so a forget either waits for tx or is seen by it, on PostgreSQL as
// on SQLite (one writer).
func (s *Store) guard(ctx context.Context, tx *sql.Tx, k Key, epoch int64) error {
	res, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_copies SET epoch = epoch WHERE seller_id = ? AND env = ? AND epoch = ? AND forgotten = 0`),
		k.SellerID, k.Env, epoch)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errPassGone
	}
	return nil
}

// putPages stores pages read in pass st, in order, and moves the pass past
// the last of them, in one transaction: a restart resumes after the last
// stored page.
func (s *Store) putPages(ctx context.Context, k Key, st *SyncState, pages []page) error {
	last := pages[len(pages)-1]
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.guard(ctx, tx, k, st.epoch); err != nil {
			return err
		}
		u := upserts{}
		defer u.close()
		for _, p := range pages {
			var err error
			switch d := p.data.(type) {
			case []Record:
				err = s.putNomenclatureWith(ctx, tx, u, k, st.Gen, st.StartedAt, d)
			case []Order:
				err = s.putOrders(ctx, tx, k, st.Gen, d)
			case []Box:
				err = s.putBoxes(ctx, tx, k, st.Gen, d)
			case nil:
			default:
				err = fmt.Errorf("copystore: unknown page %T", p.data)
			}
			if err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_sync SET next_page = ?, pages = ?, total = ?, progress_at = ?, wait_until = 0
			WHERE seller_id = ? AND env = ? AND kind = ? AND gen = ?`), last.num+1, last.pages, last.total, sqldb.Millis(s.now()), k.SellerID, k.Env, st.Kind, st.Gen)
		if err != nil {
			return fmt.Errorf("copystore: sync state: %w", err)
		}
		if s.beforeCommit != nil {
			return s.beforeCommit(pages[0].num, last.num)
		}
		return nil
	})
	if err == nil {
		st.NextPage, st.Pages, st.Total = last.num+1, last.pages, last.total
	}
	return err
}

// putPage stores page number n of pass st (putPages of one page).
func (s *Store) putPage(ctx context.Context, k Key, st *SyncState, n, pages, total int, data any) error {
	return s.putPages(ctx, k, st, []page{{num: n, data: data, pages: pages, total: total}})
}

var kindTable = map[string]string{KindNomenclature: "catalog_nomenclature", KindOrders: "catalog_orders", KindBoxes: "catalog_boxes"}

// finishPass deletes the rows pass st did not see and records the pass as
// complete. On PostgreSQL the first complete pass of a copy then vacuums
// and analyzes its table: a copy's first pass fills it with up to every
// row it will hold, and until autovacuum gets to it the planner takes the
// table for nearly empty and may pick an index whose order it must then
// sort (a status page sorting every record of the status), every read
// visits the rows themselves rather than the index alone, and a search
// scans the full-text index's list of pending entries. Later passes
// change little at a time, which autovacuum follows.
func (s *Store) finishPass(ctx context.Context, k Key, st SyncState) error {
	if err := s.recordFinish(ctx, k, st); err != nil {
		return err
	}
	if s.pg && !st.Complete() {
		if _, err := s.w.ExecContext(ctx, `VACUUM (ANALYZE) `+kindTable[st.Kind]); err != nil {
			return fmt.Errorf("copystore: vacuum after the first pass: %w", err)
		}
	}
	return nil
}

// recordFinish is finishPass's transaction.
func (s *Store) recordFinish(ctx context.Context, k Key, st SyncState) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.guard(ctx, tx, k, st.epoch); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+kindTable[st.Kind]+` WHERE seller_id = ? AND env = ? AND seen_gen < ?`), k.SellerID, k.Env, st.Gen); err != nil {
			return fmt.Errorf("copystore: finish sync: %w", err)
		}
		now := sqldb.Millis(s.now())
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_sync SET running = 0, completed_at = ?, progress_at = ?, wait_until = 0
			WHERE seller_id = ? AND env = ? AND kind = ? AND gen = ?`), now, now, k.SellerID, k.Env, st.Kind, st.Gen); err != nil {
			return fmt.Errorf("copystore: finish sync: %w", err)
		}
		return nil
	})
}

// recordWait records that the pass waits until until (a 429 or 503).
func (s *Store) recordWait(ctx context.Context, k Key, kind string, until time.Time) error {
	_, err := s.w.ExecContext(ctx, s.q(`UPDATE catalog_sync SET wait_until = ?, waits = waits + 1 WHERE seller_id = ? AND env = ? AND kind = ?`),
		sqldb.Millis(until), k.SellerID, k.Env, kind)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return nil
}

// recordError records why the pass stopped (bounded, never the data).
func (s *Store) recordError(ctx context.Context, k Key, kind, msg string) error {
	_, err := s.w.ExecContext(ctx, s.q(`UPDATE catalog_sync SET last_error = ?, wait_until = 0 WHERE seller_id = ? AND env = ? AND kind = ?`),
		bound(msg, maxFieldBytes), k.SellerID, k.Env, kind)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return nil
}

// stopPass ends pass st without finishing it, for reason (a Stop
// constant): the freshness line shows why instead of a pass that seems to
// go on, and the next pass begins afresh.
func (s *Store) stopPass(ctx context.Context, k Key, st SyncState, reason string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.guard(ctx, tx, k, st.epoch); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE catalog_sync SET running = 0, last_error = ?, wait_until = 0, progress_at = ?
			WHERE seller_id = ? AND env = ? AND kind = ? AND gen = ?`), reason, sqldb.Millis(s.now()), k.SellerID, k.Env, st.Kind, st.Gen); err != nil {
			return fmt.Errorf("copystore: stop sync: %w", err)
		}
		return nil
	})
}
