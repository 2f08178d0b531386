package audit

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// An entry may be written along the change it records (Store.Begin): begun
// before the change is sent, its items appended as the marketplace answers
// them, its outcome, counts and message written when the change is done
// (Open.Finish). The finished entry holds what Record writes for the same
// change. Until then it is open, and the history does not show it: an
// entry half written would read as a change that stopped half way.
//
// An entry still open after OpenFor was left by a dashboard that stopped
// while sending (a crash, a restart). It is shown then, as it stands: the
// items it recorded, each sent and answered, and as its outcome "unknown"
// with a message that says the change was interrupted and that the rows
// not listed may or may not have been applied. Hiding it would lose the
// record of changes the marketplace made.

// OpenFor is how long an open entry is taken for one being written: longer
// than any form's send (20 chunks, each bounded by its upstream timeout
// and retry budget, 90 s by default).
const OpenFor = time.Hour

// shown is the condition on an entry e that the history shows it: finished,
// or open for longer than OpenFor (bound to shownSince).
const shown = `(e.finished = 1 OR e.at < ?)`

// shownSince is the time before which an open entry is shown.
func (s *Store) shownSince() int64 { return sqldb.Millis(s.now().Add(-OpenFor)) }

// Open is an entry being written along its change (Store.Begin). Its
// methods are called from one goroutine at a time.
type Open struct {
	s       *Store
	id      int64
	seq     int // items stored
	dropped int // items beyond MaxItems, counted
	counts  outcomes
}

// interrupted is the message of an entry until it is finished: what the
// history says of one whose dashboard stopped while sending.
var interrupted = i18n.Of(i18n.M("history.interrupted", nil))

// Begin starts the entry e, without items, as open (see OpenFor); its
// items follow with Append and its outcome and message with Finish. The
// entry is bounded as Record bounds it; a zero At means now.
func (s *Store) Begin(ctx context.Context, e Entry) (_ *Open, err error) {
	defer failed(&err)
	e.Items = nil
	e.Clean()
	if e.At.IsZero() {
		e.At = s.now()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	o := &Open{s: s, dropped: e.Dropped}
	err = s.w.QueryRowContext(ctx, s.q(`INSERT INTO audit_entries (at, client_id, user_name, seller_id, environment, kind, ref, outcome, message, item_count, dropped, finished)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0) RETURNING id`),
		sqldb.Millis(e.At), e.ClientID, e.UserName, e.SellerID, e.Environment, e.Kind, e.Ref, Unknown, interrupted, o.dropped).Scan(&o.id)
	if err != nil {
		return nil, fmt.Errorf("audit: begin: %w", err)
	}
	return o, nil
}

// Append adds items to the entry, after those already there, bounded as
// Record bounds them (beyond MaxItems they are counted, not kept), in one
// transaction with the entry's count, so an entry left open holds every
// item appended.
func (o *Open) Append(ctx context.Context, items []Item) (err error) {
	defer failed(&err)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return o.append(ctx, nil, inserts{}, items)
}

// append adds items in tx through ins, or, when tx is nil, in a
// transaction of its own through inserts it prepares first.
func (o *Open) append(ctx context.Context, tx *sql.Tx, ins inserts, items []Item) error {
	if room := MaxItems - o.seq; len(items) > room {
		o.dropped += len(items) - room
		items = items[:room]
	}
	if len(items) == 0 {
		return nil
	}
	kept := make([]Item, len(items))
	copy(kept, items)
	for i := range kept {
		kept[i].clean()
	}
	own := tx == nil
	if own {
		var err error
		if ins, err = o.s.itemsStatements(ctx, len(kept)); err != nil {
			return err
		}
		if tx, err = o.s.w.BeginTx(ctx, nil); err != nil {
			return fmt.Errorf("audit: append: %w", err)
		}
		defer tx.Rollback()
	}
	if err := o.s.insertItems(ctx, tx, ins, o.id, o.seq, kept); err != nil {
		return err
	}
	if own {
		if _, err := tx.ExecContext(ctx, o.s.q(`UPDATE audit_entries SET item_count = ?, dropped = ? WHERE id = ?`), o.seq+len(kept), o.dropped, o.id); err != nil {
			return fmt.Errorf("audit: append: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("audit: append: %w", err)
		}
	}
	o.seq += len(kept)
	o.counts.add(kept)
	return nil
}

// Finish appends the last items and writes the entry's outcome (that of
// all its items, as OutcomeOf sums them), its message and counts, and at
// as its time (zero: now), in one transaction: the entry is then what
// Record writes for the same change, and the history shows it.
func (o *Open) Finish(ctx context.Context, at time.Time, items []Item, message i18n.Msgs) (err error) {
	defer failed(&err)
	if at.IsZero() {
		at = o.s.now()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	// Prepared before the transaction takes SQLite's one writer.
	ins, err := o.s.itemsStatements(ctx, min(len(items), MaxItems-o.seq))
	if err != nil {
		return err
	}
	tx, err := o.s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("audit: finish: %w", err)
	}
	defer tx.Rollback()
	seq, dropped, counts := o.seq, o.dropped, o.counts
	counts.counts = maps.Clone(counts.counts)
	if err := o.append(ctx, tx, ins, items); err != nil {
		o.seq, o.dropped, o.counts = seq, dropped, counts // not stored: a retry appends them again
		return err
	}
	_, err = tx.ExecContext(ctx, o.s.q(`UPDATE audit_entries SET at = ?, outcome = ?, message = ?, item_count = ?, dropped = ?, finished = 1 WHERE id = ?`),
		sqldb.Millis(at), Bound(o.counts.outcome(), 20), BoundMsgs(message, MaxMessage), o.seq, o.dropped, o.id)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		o.seq, o.dropped, o.counts = seq, dropped, counts
		return fmt.Errorf("audit: finish: %w", err)
	}
	return nil
}
