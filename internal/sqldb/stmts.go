package sqldb

import (
	"context"
	"database/sql"
	"sync"
)

// maxStmts bounds the statements a Stmts keeps. The stores build their
// queries from a handful of filters and sorts, so a few hundred shapes
// cover them all; a statement past the bound (a list of ids of a new
// length, say) runs unprepared.
const maxStmts = 256

// Stmts runs read queries on a pool through statements prepared once and
// kept: database/sql prepares a kept statement on each connection the
// first time it runs there and reuses it after. On SQLite this skips the
// parser and planner on every page, which otherwise cost about as much as
// the reads themselves. On PostgreSQL queries go to the pool unchanged:
// pgx already keeps a cache of prepared statements per connection.
//
// A query that cannot be prepared runs unprepared, so its error is the
// database's own, as it would be without the cache.
type Stmts struct {
	db      *sql.DB
	prepare bool

	mu     sync.RWMutex
	stmts  map[string]*sql.Stmt
	closed bool
}

func newStmts(db *sql.DB, prepare bool) *Stmts {
	return &Stmts{db: db, prepare: prepare, stmts: map[string]*sql.Stmt{}}
}

// QueryContext runs query on the pool, prepared (see Stmts).
func (s *Stmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.db.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query on the pool, prepared (see Stmts).
func (s *Stmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.db.QueryRowContext(ctx, query, args...)
}

// Len is how many statements are kept.
func (s *Stmts) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.stmts)
}

// stmt is query's kept statement, prepared now if there is room; nil when
// the query is to run unprepared.
func (s *Stmts) stmt(ctx context.Context, query string) *sql.Stmt {
	if !s.prepare {
		return nil
	}
	s.mu.RLock()
	st, ok := s.stmts[query]
	full := len(s.stmts) >= maxStmts || s.closed
	s.mu.RUnlock()
	if ok || full {
		return st
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.stmts[query]; ok {
		// Another caller prepared it first: keep one.
		st.Close()
		return kept
	}
	if s.closed || len(s.stmts) >= maxStmts {
		st.Close()
		return nil
	}
	s.stmts[query] = st
	return st
}

// close closes the kept statements; queries after it run unprepared.
func (s *Stmts) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = map[string]*sql.Stmt{}
	s.closed = true
}
