package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Record is one stored session as a backend sees it. The payload is sealed
// by the Store; backends never see plaintext.
type Record struct {
	// ID is the session id (43 characters, base64url of 32 random bytes).
	ID string
	// Payload is the sealed Data.
	Payload []byte
	// CreatedAt starts the absolute lifetime.
	CreatedAt time.Time
	// LastSeen starts the idle timeout; refreshed at most once a minute.
	LastSeen time.Time
	// ExpiresAt is when the session dies unless seen again: the earlier of
	// the absolute and the idle deadline. Purge deletes by it.
	ExpiresAt time.Time
	// Tokens are the session's sealed tokens by name, as Load read them
	// in the same consistent read as the payload (never nil after Load).
	// Create ignores them: tokens are saved with SaveToken.
	Tokens map[string][]byte
}

// Backend stores sessions and their tokens. NewBackend builds the one for
// a database (SQLite or PostgreSQL). Every method is bounded by its
// ctx; database failures are reported as errors wrapping ErrUnavailable, a
// missing session as ErrNotFound. The shared contract test suite in
// contract_test.go defines the expected behaviour.
type Backend interface {
	// Create inserts a new session. It is the only method that creates a
	// row, so nothing else can resurrect a deleted session.
	Create(ctx context.Context, rec Record) error
	// Load returns the session with the given id and its tokens, in one
	// read (a page needs both; one round trip instead of two), or
	// ErrNotFound.
	Load(ctx context.Context, id string) (Record, error)
	// UpdatePayload replaces the payload and the activity times of an
	// existing session. It returns ErrNotFound, writing nothing, when the
	// session no longer exists.
	UpdatePayload(ctx context.Context, id string, payload []byte, lastSeen, expiresAt time.Time) error
	// Touch records activity (sliding idle timeout) without changing the
	// payload. It returns ErrNotFound when the session no longer exists.
	Touch(ctx context.Context, id string, lastSeen, expiresAt time.Time) error
	// SaveToken inserts or replaces one sealed token of an existing session.
	// It returns ErrNotFound, writing nothing, when the session does not
	// exist, also when it is deleted concurrently.
	SaveToken(ctx context.Context, id, name string, sealed []byte, updatedAt time.Time) error
	// LoadTokens returns the sealed tokens of a session by name, or
	// ErrNotFound when the session does not exist.
	LoadTokens(ctx context.Context, id string) (map[string][]byte, error)
	// Delete removes a session and its tokens. Deleting a missing session
	// is not an error.
	Delete(ctx context.Context, id string) error
	// Purge deletes at most limit sessions (with their tokens) whose
	// ExpiresAt is at or before now, and reports how many it deleted.
	Purge(ctx context.Context, now time.Time, limit int) (int, error)
	// Lock takes an exclusive lock on key, shared by every process using
	// the same database (sqldb.DB.Lock), and returns the function that
	// releases it. It waits until the lock is free or ctx is done.
	Lock(ctx context.Context, key string) (unlock func(), err error)
	// StoredSize reports the bytes a session occupies in the database
	// (session row and token rows), as the database measures them.
	StoredSize(ctx context.Context, id string) (int, error)
	// Close releases what the backend holds (prepared statements), not the
	// database: whoever opened the sqldb.DB closes it.
	Close() error
}

// migrations are the session tables' steps, recorded in sqldb's migrations
// table under the component "sessions". Times are Unix milliseconds
// (sqldb.Millis) on both databases. Never edit a step that shipped: append
// a new one.
var migrations = sqldb.Migrations(
	// 1: sessions and their tokens. Deleting a session cascades to its
	// tokens, and the foreign key makes a token insert racing a delete
	// fail instead of leaving an orphan (see SaveToken). The dialects
	// differ in their types and SQLite's WITHOUT ROWID; PostgreSQL took
	// timestamptz, which step 2 converts.
	sqldb.Step{
		SQLite: `CREATE TABLE sessions (
			id         TEXT    PRIMARY KEY,
			payload    BLOB    NOT NULL,
			created_at INTEGER NOT NULL,
			last_seen  INTEGER NOT NULL,
			expires_at INTEGER NOT NULL
		) WITHOUT ROWID;
		CREATE INDEX sessions_expires_at ON sessions (expires_at);
		CREATE TABLE session_tokens (
			session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
			name       TEXT    NOT NULL,
			sealed     BLOB    NOT NULL,
			updated_at INTEGER NOT NULL,
			PRIMARY KEY (session_id, name)
		) WITHOUT ROWID;`,
		Postgres: `CREATE TABLE sessions (
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
	},
	// 2: PostgreSQL's times become Unix milliseconds like every other
	// table's, converted in place so that existing sessions stay valid
	// (floor: what time.Time.UnixMilli gives). SQLite's already are.
	sqldb.Step{
		Postgres: `ALTER TABLE sessions
			ALTER COLUMN created_at TYPE bigint USING ` + pgMillis("created_at") + `,
			ALTER COLUMN last_seen  TYPE bigint USING ` + pgMillis("last_seen") + `,
			ALTER COLUMN expires_at TYPE bigint USING ` + pgMillis("expires_at") + `;
		ALTER TABLE session_tokens
			ALTER COLUMN updated_at TYPE bigint USING ` + pgMillis("updated_at") + `;`,
	},
)

// pgMillis is the PostgreSQL expression turning the timestamptz column col
// into Unix milliseconds.
func pgMillis(col string) string {
	return "floor(extract(epoch FROM " + col + ") * 1000)::bigint"
}

// NewBackend migrates the session tables in db and returns the backend for
// its dialect. Several instances may start at once on one PostgreSQL
// database.
func NewBackend(ctx context.Context, db *sqldb.DB) (Backend, error) {
	if err := db.Migrate(ctx, "sessions", migrations); err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	if db.Postgres() {
		return &pgBackend{db: db, pool: db.Pool()}, nil
	}
	return newSQLiteBackend(ctx, db)
}
