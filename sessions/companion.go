package sessions

import (
	"context"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Rows are the rows a Companion's statement answers (pgx.Rows and
// *sql.Rows both are).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Companion is a read sent to the database in the same round trip as a
// session's row, on PostgreSQL in one batch with it: a request's own
// checks, saving it a round trip of its own. Its statement is PostgreSQL's
// ($1 placeholders). Scan is called with its rows once the session's row
// is read; an error of the statement or of Scan is Scan's to keep (the
// session loads all the same), so Scan may be called with nil rows and
// the error. A backend without batches (SQLite) never sends it, nor does
// one on another database than DB: the caller reads on its own what Scan
// was not called for.
type Companion struct {
	// DB is the database the statement reads.
	DB   *sqldb.DB
	SQL  string
	Args []any
	Scan func(rows Rows, err error)
}

type companionKey struct{}

// WithCompanion is ctx asking the session's Load to send the read pick
// returns along with the session's row. pick is given the payload this
// process last decoded of the session (nil when none is kept, and then
// nothing is sent): a guess of what the session holds, which the caller
// must hold against the session as loaded before it trusts the answer;
// pick must not change it. pick returning nil sends nothing.
func WithCompanion(ctx context.Context, pick func(last *Data) *Companion) context.Context {
	return context.WithValue(ctx, companionKey{}, pick)
}

// companionOf is the read ctx asks to send with session id's row, or nil.
func (st *Store) companionOf(ctx context.Context, id string) *Companion {
	pick, _ := ctx.Value(companionKey{}).(func(*Data) *Companion)
	if pick == nil {
		return nil
	}
	last := st.decoded.last(id)
	if last == nil {
		return nil
	}
	return pick(last)
}

type sentCompanionKey struct{}

// withSentCompanion is ctx carrying the companion a backend's Load sends.
func withSentCompanion(ctx context.Context, c *Companion) context.Context {
	if c == nil {
		return ctx
	}
	return context.WithValue(ctx, sentCompanionKey{}, c)
}

// sentCompanion is the companion a backend's Load is to send, or nil.
func sentCompanion(ctx context.Context) *Companion {
	c, _ := ctx.Value(sentCompanionKey{}).(*Companion)
	return c
}
