// Package sqldb is the dashboard's one database layer: it opens the SQLite
// file or the PostgreSQL database every store shares, runs their
// migrations on one table, and takes locks that hold across instances.
//
// SQLite allows one writer at a time. A DB opened on a SQLite file has one
// writer connection (a pool of one whose transactions begin IMMEDIATE), so
// writers of every store queue in Go, bounded by their context, instead of
// in SQLite's busy handler, and a pool of read-only connections that in WAL
// mode never wait for the writer. Open the file once per process and hand
// the DB to every store: two DBs on one file are two writers again.
//
// Reads that walk a whole list (the catalogue exports) have a pool of
// their own, Bulk, of BulkReaders connections. However many bulk reads
// run, and however slowly their clients take the answer, the connections
// of Reader stay free for what every page needs at once: loading the
// session, counting and reading one page of a list.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// ErrUnavailable reports that the database could not be reached or did
// not answer in time.
var ErrUnavailable = errors.New("database unavailable")

// Pool sizes and timeouts.
const (
	// SQLiteReaders is the size of the SQLite read pool.
	SQLiteReaders = 4
	// BulkReaders is the size of the bulk read pool (Bulk): SQLite
	// connections of their own, or at most this many of PostgreSQL's
	// pool. It matches the exports the dashboard runs at once.
	BulkReaders = 2
	// pgDefaultMaxConns sizes the PostgreSQL pool unless the URL sets
	// pool_max_conns.
	pgDefaultMaxConns = 16
	// pgConnectTimeout bounds a connection attempt unless the URL sets
	// connect_timeout.
	pgConnectTimeout = 2 * time.Second
)

// sqlitePragmas are set on every SQLite connection: wait up to
// busyTimeoutMS for a lock held by another process (or a checkpoint),
// enforce foreign keys, and sync at checkpoints only (WAL keeps that
// durable across a crash of the process, which is what a session store
// needs).
func sqlitePragmas() string {
	return "_pragma=busy_timeout(" + strconv.Itoa(busyTimeoutMS) + ")&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
}

// busyTimeoutMS is SQLite's busy timeout. Within the process writers queue
// in Go for the one writer connection and never reach it; tests shorten it
// to show what happens when they do.
var busyTimeoutMS = 5000

// DB is an open database: a SQLite file or a PostgreSQL database. It is
// safe for concurrent use; open one per process and share it.
type DB struct {
	w, r      *sql.DB       // SQLite: one writer connection and a read pool; PostgreSQL: one view of pool
	bulk      *sql.DB       // SQLite: a second read pool; PostgreSQL: a view of pool capped at BulkReaders
	reads     *Stmts        // r's kept statements
	pool      *pgxpool.Pool // PostgreSQL only
	path      string        // SQLite only: the file
	local     keyedMutex
	lockSlots chan struct{} // PostgreSQL: caps the connections held by locks
	lockNS    string        // PostgreSQL: the schema, so two deployments in one database never share a lock
	closeOnce sync.Once
	closeErr  error
}

// IsPostgresURL reports whether url selects PostgreSQL (postgres:// or
// postgresql://) rather than a SQLite file.
func IsPostgresURL(url string) bool {
	u := strings.ToLower(url)
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// Open opens the database url selects. A postgres:// or postgresql:// URL
// opens one pgxpool (16 connections unless the URL sets pool_max_conns,
// connecting within 2 s unless it sets connect_timeout) and checks that the
// server answers. Anything else is a SQLite file: a plain path, or
// sqlite:PATH / sqlite://PATH; the file is created private (0600) if
// missing and put in WAL mode. Errors never contain a password.
func Open(ctx context.Context, url string) (*DB, error) {
	if IsPostgresURL(url) {
		return openPostgres(ctx, url, nil)
	}
	return openSQLite(ctx, url)
}

// SQLitePath returns the file a SQLite url names (a plain path, or
// sqlite:PATH / sqlite://PATH), or why Open would refuse it.
func SQLitePath(url string) (string, error) {
	path := url
	if rest, ok := strings.CutPrefix(path, "sqlite://"); ok {
		path = rest
	} else if rest, ok := strings.CutPrefix(path, "sqlite:"); ok {
		path = rest
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return "", errors.New("sqldb: sqlite needs a file path")
	}
	if strings.ContainsAny(path, "?#") {
		return "", fmt.Errorf("sqldb: sqlite path %q must not contain '?' or '#'", path)
	}
	return path, nil
}

func openSQLite(ctx context.Context, url string) (*DB, error) {
	path, err := SQLitePath(url)
	if err != nil {
		return nil, err
	}
	if err := PrepareSQLiteFile(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", path+"?"+sqlitePragmas()+"&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqldb: open sqlite: %w", err)
	}
	// One writer: the connection is never closed while the DB is open, so
	// its pragmas (and SQLite's page cache) stay.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	db := &DB{w: w, path: path}
	// The writer connects first: it switches the file to WAL before any
	// reader opens it.
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqldb: open sqlite: %w: %w", ErrUnavailable, err)
	}
	r, err := sql.Open("sqlite", path+"?"+sqlitePragmas()+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqldb: open sqlite: %w", err)
	}
	r.SetMaxOpenConns(SQLiteReaders)
	r.SetMaxIdleConns(SQLiteReaders)
	db.r = r
	db.reads = newStmts(r, true)
	if err := r.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqldb: open sqlite: %w: %w", ErrUnavailable, err)
	}
	bulk, err := sql.Open("sqlite", path+"?"+sqlitePragmas()+"&_pragma=query_only(1)")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqldb: open sqlite: %w", err)
	}
	bulk.SetMaxOpenConns(BulkReaders)
	bulk.SetMaxIdleConns(BulkReaders)
	db.bulk = bulk
	return db, nil
}

// OpenPostgresTraced is Open for a PostgreSQL url whose connections report
// each statement to tracer: a test counts the round trips a page makes.
func OpenPostgresTraced(ctx context.Context, url string, tracer pgx.QueryTracer) (*DB, error) {
	if !IsPostgresURL(url) {
		return nil, errors.New("sqldb: OpenPostgresTraced needs a PostgreSQL URL")
	}
	return openPostgres(ctx, url, tracer)
}

func openPostgres(ctx context.Context, url string, tracer pgx.QueryTracer) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// Not wrapped: the parse error may quote the connection string.
		return nil, fmt.Errorf("sqldb: invalid PostgreSQL URL: %s", Redact(err.Error()))
	}
	cfg.ConnConfig.Tracer = tracer
	if !strings.Contains(url, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = pgDefaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("sqldb: open postgres: %w: %s", ErrUnavailable, Redact(err.Error()))
	}
	pctx := ctx
	if t := cfg.ConnConfig.ConnectTimeout; t > 0 { // 0: the URL asked for no timeout
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, t+time.Second)
		defer cancel()
	}
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, &redactedError{msg: "sqldb: open postgres: " + ErrUnavailable.Error(), cause: err}
	}
	// Advisory locks are per database; the schema joins their keys, so
	// deployments (or test suites) in schemas of one database lock apart.
	var schema pgtype.Text
	if err := pool.QueryRow(pctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		pool.Close()
		return nil, &redactedError{msg: "sqldb: open postgres: " + ErrUnavailable.Error(), cause: err}
	}
	view := stdlib.OpenDBFromPool(pool)
	// database/sql keeps 2 idle connections by default: under a team's
	// load it would hand pool connections back and take them again on
	// nearly every query. It keeps up to half the pool instead (the other
	// half stays for locks, see lockSlots), and gives back what a quiet
	// minute did not use.
	view.SetMaxIdleConns(max(2, int(cfg.MaxConns)/2))
	view.SetConnMaxIdleTime(time.Minute)
	bulk := stdlib.OpenDBFromPool(pool)
	bulk.SetMaxOpenConns(BulkReaders)
	return &DB{
		w: view, r: view, bulk: bulk, pool: pool, reads: newStmts(view, false),
		// Half the pool at most for locks, so held locks never starve the
		// queries of the requests that wait for them.
		lockSlots: make(chan struct{}, max(1, int(cfg.MaxConns)/2)),
		lockNS:    schema.String,
	}, nil
}

// Postgres reports whether the database is PostgreSQL.
func (db *DB) Postgres() bool { return db.pool != nil }

// Writer is where every write goes, and reads that must see the writer's
// own state inside a transaction. SQLite: the single writer connection
// (BEGIN IMMEDIATE; a caller holding a transaction holds every writer of
// the process, so keep them short and never wait on another writer while in
// one). PostgreSQL: a database/sql view of the pool.
func (db *DB) Writer() *sql.DB { return db.w }

// Reader is for reads. SQLite: a pool of read-only connections (in WAL
// mode they never wait for the writer). PostgreSQL: the same view as
// Writer.
func (db *DB) Reader() *sql.DB { return db.r }

// Reads runs queries on Reader through kept prepared statements (Stmts):
// what the pages' reads use.
func (db *DB) Reads() *Stmts { return db.reads }

// Bulk is for reads that walk a whole list page after page (exports):
// at most BulkReaders connections, apart from Reader's. SQLite: read-only
// connections of their own; PostgreSQL: a view of the pool that holds at
// most BulkReaders of its connections. A bulk read still releases its
// connection between pages: one waiting on its client holds none.
func (db *DB) Bulk() *sql.DB { return db.bulk }

// Pool is the PostgreSQL pool for code that talks pgx directly, or nil for
// SQLite.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Rebind rewrites '?' placeholders as $1, $2, ... for PostgreSQL and
// returns query unchanged for SQLite. A numbered one, ?N, keeps its
// number; as in SQLite, a '?' takes the number after the largest so far.
// A '?' inside a quoted string literal or identifier is left alone.
func (db *DB) Rebind(query string) string {
	if db.pool == nil || !strings.Contains(query, "?") {
		return query
	}
	return rebind(query)
}

func rebind(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0         // the largest number given so far
	var quote byte // the quote character we are inside, or 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote closes and reopens: same result
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			if j > i+1 {
				if num, err := strconv.Atoi(query[i+1 : j]); err == nil {
					n = max(n, num)
				}
				b.WriteByte('$')
				b.WriteString(query[i+1 : j])
				i = j - 1
				continue
			}
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Close closes the database. It is safe to call more than once. With
// PostgreSQL it waits until every lock taken with Lock is released.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		var errs []error
		if db.reads != nil {
			db.reads.close()
		}
		if db.bulk != nil {
			errs = append(errs, db.bulk.Close())
		}
		if db.pool != nil {
			db.closeErr = errors.Join(append(errs, db.w.Close())...)
			db.pool.Close()
			return
		}
		if db.r != nil {
			errs = append(errs, db.r.Close())
		}
		errs = append(errs, db.w.Close())
		db.closeErr = errors.Join(errs...)
	})
	return db.closeErr
}

// redactedError keeps a driver error for errors.Is and errors.As but
// prints it with passwords removed.
type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg + ": " + Redact(e.cause.Error()) }

func (e *redactedError) Unwrap() []error { return []error{ErrUnavailable, e.cause} }

var (
	// userinfoPassword matches the password part of a URL's userinfo.
	userinfoPassword = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
	// keywordPassword matches password=... in a libpq keyword/value DSN or
	// a URL query.
	keywordPassword = regexp.MustCompile(`(?i)(password=)('[^']*'|[^\s&]*)`)
)

// Redact removes passwords from a driver's error text: pgx does not put
// the password in its errors, and this keeps it so should a version quote
// the DSN.
func Redact(s string) string {
	s = userinfoPassword.ReplaceAllString(s, "${1}xxxxx@")
	return keywordPassword.ReplaceAllString(s, "${1}xxxxx")
}
