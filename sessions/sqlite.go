package sessions

import (
	"context"
	"database/sql"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// sqliteBackend keeps sessions in the SQLite file of a sqldb.DB. Writes go
// through the DB's single writer connection, shared with every other store
// of the process, whose transactions begin IMMEDIATE: writers queue in Go
// (bounded by ctx), not in SQLite's busy handler. Reads use the DB's read
// pool: in WAL mode readers never wait for the writer. Locks are the DB's,
// in-process: one process owns a SQLite file.
type sqliteBackend struct {
	db   *sqldb.DB
	w, r *sql.DB
	// load is Load's statement, prepared once: SQLite's parser and
	// planner otherwise cost as much as the read itself, on every page.
	load *sql.Stmt
}

// loadQuery reads a session and its tokens whose names start with the
// scope (WithTokenScope; "" for all): one row per token, or one row with
// NULL token columns for a session without such tokens. The payload comes
// with the first row only (a session holding many accounts has many
// tokens, and its payload is the largest column).
const loadQuery = `SELECT CASE WHEN row_number() OVER () = 1 THEN s.payload END, s.created_at, s.last_seen, s.expires_at, t.name, t.sealed
	FROM sessions s LEFT JOIN session_tokens t ON t.session_id = s.id AND substr(t.name, 1, length(?)) = ? WHERE s.id = ?`

func newSQLiteBackend(ctx context.Context, db *sqldb.DB) (*sqliteBackend, error) {
	b := &sqliteBackend{db: db, w: db.Writer(), r: db.Reader()}
	var err error
	if b.load, err = b.r.PrepareContext(ctx, loadQuery); err != nil {
		return nil, unavailable("prepare", err)
	}
	return b, nil
}

func (b *sqliteBackend) Create(ctx context.Context, rec Record) error {
	res, err := b.w.ExecContext(ctx, `INSERT INTO sessions (id, payload, created_at, last_seen, expires_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		rec.ID, rec.Payload, sqldb.Millis(rec.CreatedAt), sqldb.Millis(rec.LastSeen), sqldb.Millis(rec.ExpiresAt))
	if err != nil {
		return unavailable("create", err)
	}
	return mustAffect(res, errExists)
}

func (b *sqliteBackend) Load(ctx context.Context, id string) (Record, error) {
	scope := tokenScope(ctx)
	rows, err := b.load.QueryContext(ctx, scope, scope, id)
	if err != nil {
		return Record{}, unavailable("load", err)
	}
	defer rows.Close()
	rec := Record{ID: id, Tokens: make(map[string][]byte, 2)}
	found := false
	// One set of scan variables and one destination list for the rows: a
	// page reads this on every request. Each row's byte slices are its
	// own (Scan copies them), so keeping them is safe.
	var created, seen, expires int64
	var name sql.NullString
	var payload, sealed []byte
	dest := []any{&payload, &created, &seen, &expires, &name, &sealed}
	for rows.Next() {
		payload, sealed = nil, nil
		if err := rows.Scan(dest...); err != nil {
			return Record{}, unavailable("load", err)
		}
		if payload != nil {
			rec.Payload = payload
		}
		found = true
		rec.CreatedAt, rec.LastSeen, rec.ExpiresAt = sqldb.FromMillis(created), sqldb.FromMillis(seen), sqldb.FromMillis(expires)
		if name.Valid {
			rec.Tokens[name.String] = sealed
		}
	}
	if err := rows.Err(); err != nil {
		return Record{}, unavailable("load", err)
	}
	if !found {
		return Record{}, ErrNotFound
	}
	return rec, nil
}

func (b *sqliteBackend) UpdatePayload(ctx context.Context, id string, payload []byte, lastSeen, expiresAt time.Time) error {
	res, err := b.w.ExecContext(ctx, `UPDATE sessions SET payload = ?, last_seen = ?, expires_at = ? WHERE id = ?`,
		payload, sqldb.Millis(lastSeen), sqldb.Millis(expiresAt), id)
	if err != nil {
		return unavailable("save", err)
	}
	return mustAffect(res, ErrNotFound)
}

func (b *sqliteBackend) Touch(ctx context.Context, id string, lastSeen, expiresAt time.Time) error {
	res, err := b.w.ExecContext(ctx, `UPDATE sessions SET last_seen = ?, expires_at = ? WHERE id = ?`,
		sqldb.Millis(lastSeen), sqldb.Millis(expiresAt), id)
	if err != nil {
		return unavailable("touch", err)
	}
	return mustAffect(res, ErrNotFound)
}

func (b *sqliteBackend) SaveToken(ctx context.Context, id, name string, sealed []byte, updatedAt time.Time) error {
	// One statement that inserts only if the session exists: with a single
	// writer connection nothing can delete the session in between.
	res, err := b.w.ExecContext(ctx, `INSERT INTO session_tokens (session_id, name, sealed, updated_at)
		SELECT id, ?, ?, ? FROM sessions WHERE id = ?
		ON CONFLICT (session_id, name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
		name, sealed, sqldb.Millis(updatedAt), id)
	if err != nil {
		return unavailable("save token", err)
	}
	return mustAffect(res, ErrNotFound)
}

func (b *sqliteBackend) LoadTokens(ctx context.Context, id string) (map[string][]byte, error) {
	// A LEFT JOIN tells a session without tokens from a missing session
	// in one consistent read.
	rows, err := b.r.QueryContext(ctx, `SELECT t.name, t.sealed FROM sessions s
		LEFT JOIN session_tokens t ON t.session_id = s.id WHERE s.id = ?`, id)
	if err != nil {
		return nil, unavailable("load tokens", err)
	}
	defer rows.Close()
	found := false
	out := make(map[string][]byte)
	for rows.Next() {
		found = true
		var name sql.NullString
		var sealed []byte
		if err := rows.Scan(&name, &sealed); err != nil {
			return nil, unavailable("load tokens", err)
		}
		if name.Valid {
			out[name.String] = sealed
		}
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("load tokens", err)
	}
	if !found {
		return nil, ErrNotFound
	}
	return out, nil
}

func (b *sqliteBackend) Delete(ctx context.Context, id string) error {
	tx, err := b.w.BeginTx(ctx, nil)
	if err != nil {
		return unavailable("delete", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM session_tokens WHERE session_id = ?`, id); err != nil {
		return unavailable("delete", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id); err != nil {
		return unavailable("delete", err)
	}
	return unavailable("delete", tx.Commit())
}

func (b *sqliteBackend) Purge(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tx, err := b.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, unavailable("purge", err)
	}
	defer tx.Rollback()
	// Inside the IMMEDIATE transaction both subqueries see the same rows.
	const batch = `SELECT id FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?`
	if _, err := tx.ExecContext(ctx, `DELETE FROM session_tokens WHERE session_id IN (`+batch+`)`, sqldb.Millis(now), limit); err != nil {
		return 0, unavailable("purge", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id IN (`+batch+`)`, sqldb.Millis(now), limit)
	if err != nil {
		return 0, unavailable("purge", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, unavailable("purge", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, unavailable("purge", err)
	}
	return int(n), nil
}

func (b *sqliteBackend) Lock(ctx context.Context, key string) (func(), error) {
	return b.db.Lock(ctx, key)
}

func (b *sqliteBackend) StoredSize(ctx context.Context, id string) (int, error) {
	// Column bytes as SQLite stores them, plus 8 per integer column (an
	// upper bound of its variable-length integers).
	var n int
	err := b.r.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT length(id) + length(payload) + 24 FROM sessions WHERE id = ?), 0) +
		(SELECT COALESCE(SUM(length(session_id) + length(name) + length(sealed) + 8), 0) FROM session_tokens WHERE session_id = ?)`,
		id, id).Scan(&n)
	if err != nil {
		return 0, unavailable("stored size", err)
	}
	return n, nil
}

func (b *sqliteBackend) Close() error {
	return b.load.Close()
}

// mustAffect returns ifNone when a statement changed no row.
func mustAffect(res sql.Result, ifNone error) error {
	n, err := res.RowsAffected()
	if err != nil {
		return unavailable("rows affected", err)
	}
	if n == 0 {
		return ifNone
	}
	return nil
}
