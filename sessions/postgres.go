package sessions

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Defaults for PostgreSQL operations.
const pgOperationTimeout = 2 * time.Second

// pgBackend keeps sessions in the PostgreSQL database of a sqldb.DB,
// shared by every dashboard instance. It talks to the DB's pgxpool
// directly rather than through database/sql (sqldb.DB.Reader, a view of the
// same pool): Load runs on every page, and through database/sql it costs
// 69 allocations and 10.3 KiB instead of 41 and 5.6 KiB
// (BenchmarkPostgresLoad). Cross-instance locks are the DB's (advisory
// locks, see sqldb.DB.Lock).
type pgBackend struct {
	db   *sqldb.DB
	pool *pgxpool.Pool
}

// opContext bounds an operation whose caller set no deadline, so that a
// down database fails fast instead of piling up goroutines.
func opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, pgOperationTimeout)
}

func (b *pgBackend) Create(ctx context.Context, rec Record) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, `INSERT INTO sessions (id, payload, created_at, last_seen, expires_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
		rec.ID, rec.Payload, sqldb.Millis(rec.CreatedAt), sqldb.Millis(rec.LastSeen), sqldb.Millis(rec.ExpiresAt))
	if err != nil {
		return unavailable("create", err)
	}
	if tag.RowsAffected() == 0 {
		return errExists
	}
	return nil
}

// loadSQL reads a session and the tokens of the scope asked ($2) in one
// statement (pgx prepares and caches it per connection) and one snapshot.
// The payload comes with the first row only: a session holding many
// accounts has many tokens, and its payload is the largest column.
const loadSQL = `SELECT CASE WHEN row_number() OVER () = 1 THEN s.payload END, s.created_at, s.last_seen, s.expires_at, t.name, t.sealed
		FROM sessions s LEFT JOIN session_tokens t ON t.session_id = s.id AND substr(t.name, 1, length($2)) = $2 WHERE s.id = $1`

func (b *pgBackend) Load(ctx context.Context, id string) (Record, error) {
	ctx, cancel := opContext(ctx)
	defer cancel()
	if comp := sentCompanion(ctx); comp != nil && comp.DB == b.db {
		if rec, ok, err := b.loadWith(ctx, id, comp); ok {
			return rec, err
		}
	}
	rows, err := b.pool.Query(ctx, loadSQL, id, tokenScope(ctx))
	if err != nil {
		return Record{}, unavailable("load", err)
	}
	defer rows.Close()
	return scanLoad(id, rows)
}

// loadWith is Load with the request's companion read in the same batch:
// one round trip. ok is false when the batch failed before the session's
// rows (the companion's statement is prepared first, and may be what
// failed): the companion is told, and the session is loaded alone.
func (b *pgBackend) loadWith(ctx context.Context, id string, comp *Companion) (rec Record, ok bool, err error) {
	batch := &pgx.Batch{}
	batch.Queue(loadSQL, id, tokenScope(ctx))
	batch.Queue(comp.SQL, comp.Args...)
	br := b.pool.SendBatch(ctx, batch)
	defer br.Close()
	rows, err := br.Query()
	if err != nil {
		rows.Close()
		comp.Scan(nil, err)
		return Record{}, false, nil
	}
	rec, err = scanLoad(id, rows)
	rows.Close()
	if err != nil {
		comp.Scan(nil, err)
		return Record{}, true, err
	}
	crows, err := br.Query()
	if err != nil {
		crows.Close()
		comp.Scan(nil, err)
		return rec, true, nil
	}
	comp.Scan(crows, nil)
	crows.Close()
	return rec, true, nil
}

// scanLoad reads loadSQL's rows of session id.
func scanLoad(id string, rows pgx.Rows) (Record, error) {
	rec := Record{ID: id, Tokens: make(map[string][]byte, 2)}
	found := false
	for rows.Next() {
		var created, seen, expires int64
		var name *string
		var payload, sealed []byte
		if err := rows.Scan(&payload, &created, &seen, &expires, &name, &sealed); err != nil {
			return Record{}, unavailable("load", err)
		}
		if payload != nil {
			rec.Payload = payload
		}
		found = true
		rec.CreatedAt, rec.LastSeen, rec.ExpiresAt = sqldb.FromMillis(created), sqldb.FromMillis(seen), sqldb.FromMillis(expires)
		if name != nil {
			rec.Tokens[*name] = sealed
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

func (b *pgBackend) UpdatePayload(ctx context.Context, id string, payload []byte, lastSeen, expiresAt time.Time) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, `UPDATE sessions SET payload = $2, last_seen = $3, expires_at = $4 WHERE id = $1`,
		id, payload, sqldb.Millis(lastSeen), sqldb.Millis(expiresAt))
	if err != nil {
		return unavailable("save", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

func (b *pgBackend) Touch(ctx context.Context, id string, lastSeen, expiresAt time.Time) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	// GREATEST keeps a late, slower instance from moving last_seen back.
	tag, err := b.pool.Exec(ctx, `UPDATE sessions SET last_seen = GREATEST(last_seen, $2), expires_at = GREATEST(expires_at, $3) WHERE id = $1`,
		id, sqldb.Millis(lastSeen), sqldb.Millis(expiresAt))
	if err != nil {
		return unavailable("touch", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

func (b *pgBackend) SaveToken(ctx context.Context, id, name string, sealed []byte, updatedAt time.Time) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	// Inserts only if the session exists. If a logout deletes the session
	// concurrently, the foreign key check waits for it and then fails
	// (23503), or the delete cascades to the new row: either way no token
	// outlives its session.
	tag, err := b.pool.Exec(ctx, `INSERT INTO session_tokens (session_id, name, sealed, updated_at)
		SELECT id, $2, $3, $4 FROM sessions WHERE id = $1
		ON CONFLICT (session_id, name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
		id, name, sealed, sqldb.Millis(updatedAt))
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok && pgErr.Code == "23503" {
		return ErrNotFound
	}
	if err != nil {
		return unavailable("save token", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

func (b *pgBackend) LoadTokens(ctx context.Context, id string) (map[string][]byte, error) {
	ctx, cancel := opContext(ctx)
	defer cancel()
	rows, err := b.pool.Query(ctx, `SELECT t.name, t.sealed FROM sessions s
		LEFT JOIN session_tokens t ON t.session_id = s.id WHERE s.id = $1`, id)
	if err != nil {
		return nil, unavailable("load tokens", err)
	}
	defer rows.Close()
	found := false
	out := make(map[string][]byte)
	for rows.Next() {
		found = true
		var name *string
		var sealed []byte
		if err := rows.Scan(&name, &sealed); err != nil {
			return nil, unavailable("load tokens", err)
		}
		if name != nil {
			out[*name] = sealed
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

func (b *pgBackend) Delete(ctx context.Context, id string) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	_, err := b.pool.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, id)
	return unavailable("delete", err)
}

func (b *pgBackend) Purge(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	ctx, cancel := opContext(ctx)
	defer cancel()
	// SKIP LOCKED: purgers on several instances share the work instead of
	// queueing behind each other, and never wait on a row a request holds.
	tag, err := b.pool.Exec(ctx, `DELETE FROM sessions WHERE id IN (
		SELECT id FROM sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
		sqldb.Millis(now), limit)
	if err != nil {
		return 0, unavailable("purge", err)
	}
	return int(tag.RowsAffected()), nil
}

func (b *pgBackend) Lock(ctx context.Context, key string) (func(), error) {
	return b.db.Lock(ctx, key)
}

func (b *pgBackend) StoredSize(ctx context.Context, id string) (int, error) {
	ctx, cancel := opContext(ctx)
	defer cancel()
	// pg_column_size of a whole row: the tuple as stored, header included.
	var n int64
	err := b.pool.QueryRow(ctx, `SELECT
		COALESCE((SELECT pg_column_size(s.*) FROM sessions s WHERE s.id = $1), 0) +
		COALESCE((SELECT sum(pg_column_size(t.*)) FROM session_tokens t WHERE t.session_id = $1), 0)`, id).Scan(&n)
	if err != nil {
		return 0, unavailable("stored size", err)
	}
	return int(n), nil
}

func (b *pgBackend) Close() error { return nil }
