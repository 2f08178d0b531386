package sessions

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// postgresMigrations are applied in order; the schema_version table records
// how many ran. Never edit one that shipped: append a new one.
var postgresMigrations = []string{
	// 1: sessions and their tokens. Deleting a session cascades to its
	// tokens, and the foreign key makes a token insert racing a delete
	// fail instead of leaving an orphan (see SaveToken).
	`CREATE TABLE sessions (
		id         text        PRIMARY KEY,
		payload    bytea       NOT NULL,
		created_at timestamptz NOT NULL,
		last_seen  timestamptz NOT NULL,
		expires_at timestamptz NOT NULL
	);
	CREATE INDEX sessions_expires_at ON sessions (expires_at);
	CREATE TABLE session_tokens (
		session_id text        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
		name       text        NOT NULL,
		sealed     bytea       NOT NULL,
		updated_at timestamptz NOT NULL,
		PRIMARY KEY (session_id, name)
	);`,
}

// Advisory lock keys. The migration lock uses the two-int4 form and the
// application locks the bigint form: PostgreSQL keeps those key spaces
// apart, so a hashed application key can never collide with the migration
// lock.
const (
	pgLockClassSellerDesk = 0x5344 // "SD"
	pgLockMigrateSessions = 1
)

// Defaults for the PostgreSQL pool.
const (
	pgOperationTimeout = 2 * time.Second
	pgConnectTimeout   = 2 * time.Second
	pgDefaultMaxConns  = 16
)

// pgBackend keeps sessions in PostgreSQL, shared by every dashboard
// instance.
//
// Cross-instance locks (LockTokenRefresh) are session-level advisory locks
// (pg_advisory_lock) held on a connection taken from the pool for the
// duration of the lock. Why this rather than the alternatives:
//   - A row lock (SELECT ... FOR UPDATE) needs a row to lock, but the first
//     token of a session has none yet, and the lock must span the
//     marketplace call, leaving a transaction idle for seconds (and subject
//     to idle_in_transaction_session_timeout).
//   - Compare-and-swap on a token version lets both instances call the
//     marketplace and discards one result; the issue asks for one token
//     request, not one write.
//   - An advisory lock works on any key (also "one mass update per
//     seller"), holds no transaction open, and PostgreSQL releases it by
//     itself when the holder's connection dies, so a crashed instance
//     cannot wedge a session.
//
// Its cost is one pooled connection per held lock. Two guards keep that from
// starving ordinary queries: an in-process mutex per key (so one process
// sends at most one waiter per key to the database) and a cap on the
// connections used for locks (half the pool).
type pgBackend struct {
	pool      *pgxpool.Pool
	local     keyedMutex
	lockSlots chan struct{}
	closeOnce sync.Once
}

// IsPostgresURL reports whether databaseURL selects PostgreSQL
// (postgres:// or postgresql://) rather than a SQLite path.
func IsPostgresURL(databaseURL string) bool {
	u := strings.ToLower(databaseURL)
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// Open opens the session backend that databaseURL selects: PostgreSQL for
// postgres:// and postgresql:// URLs, otherwise a SQLite file at that path.
func Open(ctx context.Context, databaseURL string) (Backend, error) {
	if IsPostgresURL(databaseURL) {
		return OpenPostgres(ctx, databaseURL)
	}
	return OpenSQLite(ctx, databaseURL)
}

// OpenPostgres connects to PostgreSQL at dsn and migrates the session
// schema; several instances may start at once. Connecting is bounded by a
// 2 s timeout unless the DSN sets connect_timeout, the pool holds up to 16
// connections unless it sets pool_max_conns. Errors never contain the
// password.
func OpenPostgres(ctx context.Context, dsn string) (Backend, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// Not wrapped: the parse error carries the connection string.
		return nil, fmt.Errorf("sessions: invalid PostgreSQL URL: %s", redact(err.Error()))
	}
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = pgDefaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, unavailable("open postgres", err)
	}
	slots := max(1, int(cfg.MaxConns)/2)
	b := &pgBackend{pool: pool, lockSlots: make(chan struct{}, slots)}
	if err := b.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return b, nil
}

// opContext bounds an operation whose caller set no deadline, so that a
// down database fails fast instead of piling up goroutines.
func opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, pgOperationTimeout)
}

func (b *pgBackend) migrate(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return unavailable("migrate", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// Instances starting together queue here; the lock ends with the
	// transaction, so a crashed migrator releases it.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, pgLockClassSellerDesk, pgLockMigrateSessions); err != nil {
		return unavailable("migrate", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		component text    PRIMARY KEY,
		version   integer NOT NULL
	)`); err != nil {
		return unavailable("migrate", err)
	}
	var version int
	err = tx.QueryRow(ctx, `SELECT version FROM schema_version WHERE component = 'sessions'`).Scan(&version)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return unavailable("migrate", err)
	}
	if version > len(postgresMigrations) {
		return fmt.Errorf("sessions: database schema version %d is newer than this program knows (%d)", version, len(postgresMigrations))
	}
	for i := version; i < len(postgresMigrations); i++ {
		if _, err := tx.Exec(ctx, postgresMigrations[i]); err != nil {
			return fmt.Errorf("sessions: migration %d: %s", i+1, redact(err.Error()))
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_version (component, version) VALUES ('sessions', $1)
		ON CONFLICT (component) DO UPDATE SET version = excluded.version`, len(postgresMigrations)); err != nil {
		return unavailable("migrate", err)
	}
	return unavailable("migrate", tx.Commit(ctx))
}

func (b *pgBackend) Create(ctx context.Context, rec Record) error {
	ctx, cancel := opContext(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, `INSERT INTO sessions (id, payload, created_at, last_seen, expires_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
		rec.ID, rec.Payload, rec.CreatedAt, rec.LastSeen, rec.ExpiresAt)
	if err != nil {
		return unavailable("create", err)
	}
	if tag.RowsAffected() == 0 {
		return errExists
	}
	return nil
}

func (b *pgBackend) Load(ctx context.Context, id string) (Record, error) {
	ctx, cancel := opContext(ctx)
	defer cancel()
	// One statement (pgx prepares and caches it per connection): the
	// session and its tokens in one round trip and one snapshot.
	rows, err := b.pool.Query(ctx, `SELECT s.payload, s.created_at, s.last_seen, s.expires_at, t.name, t.sealed
		FROM sessions s LEFT JOIN session_tokens t ON t.session_id = s.id WHERE s.id = $1`, id)
	if err != nil {
		return Record{}, unavailable("load", err)
	}
	defer rows.Close()
	rec := Record{ID: id, Tokens: make(map[string][]byte, 2)}
	found := false
	for rows.Next() {
		var name *string
		var sealed []byte
		if err := rows.Scan(&rec.Payload, &rec.CreatedAt, &rec.LastSeen, &rec.ExpiresAt, &name, &sealed); err != nil {
			return Record{}, unavailable("load", err)
		}
		found = true
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
		id, payload, lastSeen, expiresAt)
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
		id, lastSeen, expiresAt)
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
		id, name, sealed, updatedAt)
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
		now, limit)
	if err != nil {
		return 0, unavailable("purge", err)
	}
	return int(tag.RowsAffected()), nil
}

// pgLockKey maps an application lock key to PostgreSQL's bigint key space.
func pgLockKey(key string) int64 {
	h := sha256.Sum256([]byte("sellerdesk/sessions/lock\x00" + key))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

func (b *pgBackend) LockTokenRefresh(ctx context.Context, key string) (func(), error) {
	unlockLocal, err := b.local.lock(ctx, key)
	if err != nil {
		return nil, err
	}
	select {
	case b.lockSlots <- struct{}{}:
	case <-ctx.Done():
		unlockLocal()
		return nil, fmt.Errorf("sessions: wait for lock: %w", ctx.Err())
	}
	releaseSlot := func() { <-b.lockSlots }

	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		releaseSlot()
		unlockLocal()
		return nil, unavailable("lock", err)
	}
	k := pgLockKey(key)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, k); err != nil {
		// The lock may or may not have been granted as the wait was
		// cancelled: closing the connection releases it either way.
		discard(conn)
		releaseSlot()
		unlockLocal()
		return nil, unavailable("lock", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), pgOperationTimeout)
			defer cancel()
			var released bool
			if err := conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, k).Scan(&released); err != nil || !released {
				discard(conn) // closing the connection releases the lock
			} else {
				conn.Release()
			}
			releaseSlot()
			unlockLocal()
		})
	}, nil
}

// discard closes a pooled connection instead of returning it, so that a
// session-level advisory lock it may hold dies with it.
func discard(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	conn.Conn().Close(ctx)
	conn.Release() // the pool drops closed connections
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

func (b *pgBackend) Close() error {
	b.closeOnce.Do(b.pool.Close)
	return nil
}
