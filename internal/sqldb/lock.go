package sqldb

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Lock takes an exclusive lock on key, shared by every process using the
// same database, and returns the function that releases it (idempotent).
// It waits until the lock is free or ctx is done.
//
// SQLite: an in-process lock per key (one process owns a SQLite file).
//
// PostgreSQL: a session-level advisory lock (pg_advisory_lock) held on a
// connection taken from the pool for as long as the lock is held. Why
// this rather than the alternatives:
//   - A row lock (SELECT ... FOR UPDATE) needs a row to lock, which a first
//     token refresh does not have, and the lock must span a marketplace
//     call, leaving a transaction idle for seconds.
//   - An advisory lock works on any key, holds no transaction open, and
//     PostgreSQL releases it by itself when the holder's connection dies,
//     so a crashed instance cannot wedge a key.
//
// Its cost is one pooled connection per held lock. Two guards keep that
// from starving ordinary queries: an in-process lock per key first (so a
// process sends at most one waiter per key to the database) and a cap on the
// connections held by locks (half the pool).
//
// A wait whose ctx has no deadline is bounded (30 s), so a stuck holder
// cannot pile up waiters forever.
func (db *DB) Lock(ctx context.Context, key string) (unlock func(), err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lockWait)
		defer cancel()
	}
	unlockLocal, err := db.local.lock(ctx, key)
	if err != nil || db.pool == nil {
		return unlockLocal, err
	}
	select {
	case db.lockSlots <- struct{}{}:
	case <-ctx.Done():
		unlockLocal()
		return nil, fmt.Errorf("sqldb: wait for lock: %w", ctx.Err())
	}
	releaseSlot := func() { <-db.lockSlots }

	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		releaseSlot()
		unlockLocal()
		return nil, &redactedError{msg: "sqldb: lock", cause: err}
	}
	k := pgLockKey(db.lockNS, key)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, k); err != nil {
		// The lock may or may not have been granted as the wait was
		// cancelled: closing the connection releases it either way.
		discard(conn)
		releaseSlot()
		unlockLocal()
		return nil, &redactedError{msg: "sqldb: lock", cause: err}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
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

// TryLock takes the lock on key only if it is free at once, on every
// process using the same database (as Lock), and returns the function that
// releases it (idempotent); ok is false, and nothing is held, when another
// holder has it. It is for places that are refused rather than waited for:
// a whole-catalogue export per copy. On PostgreSQL a held place keeps one
// pooled connection (pg_try_advisory_lock), within the same cap as Lock's;
// with the cap reached the place is refused as taken.
func (db *DB) TryLock(ctx context.Context, key string) (unlock func(), ok bool, err error) {
	unlockLocal, ok := db.local.tryLock(key)
	if !ok || db.pool == nil {
		return unlockLocal, ok, nil
	}
	select {
	case db.lockSlots <- struct{}{}:
	default:
		unlockLocal()
		return nil, false, nil
	}
	releaseSlot := func() { <-db.lockSlots }
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		releaseSlot()
		unlockLocal()
		return nil, false, &redactedError{msg: "sqldb: lock", cause: err}
	}
	k := pgLockKey(db.lockNS, key)
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, k).Scan(&got); err != nil || !got {
		if err != nil {
			discard(conn) // the lock may have been granted: closing releases it
		} else {
			conn.Release()
		}
		releaseSlot()
		unlockLocal()
		if err != nil {
			return nil, false, &redactedError{msg: "sqldb: lock", cause: err}
		}
		return nil, false, nil
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			var released bool
			if err := conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, k).Scan(&released); err != nil || !released {
				discard(conn)
			} else {
				conn.Release()
			}
			releaseSlot()
			unlockLocal()
		})
	}, true, nil
}

// lockWait bounds the wait for a lock (DB.Lock) whose context has no
// deadline. Tests shorten it.
var lockWait = 30 * time.Second

// LockSeller takes the seller's lock: one request of the seller to the
// marketplace in flight at a time, on every instance sharing the database,
// whoever sends it (a mass update from a form or a job, a step of the local
// copy's sync, a live list read). It is Lock on the seller's key.
func (db *DB) LockSeller(ctx context.Context, seller int64) (unlock func(), err error) {
	return db.Lock(ctx, sellerLockKey(seller))
}

// sellerLockKey is the key of a seller's lock. It is the key the session
// store made of its application lock "mass-update/<seller>", so that
// instances of either version, side by side during an upgrade, still
// exclude each other.
func sellerLockKey(seller int64) string {
	return "app\x00mass-update/" + strconv.FormatInt(seller, 10)
}

// pgLockKey maps a lock key of schema ns to PostgreSQL's bigint key space.
// The prefix is the one the session store used when it owned this lock, and
// the default schema (public) adds nothing to it, so that an instance of the
// previous version and one of this version, side by side during an upgrade,
// still exclude each other. Any other schema joins the key: advisory locks
// are per database, and deployments in two schemas of one database are not
// each other's.
func pgLockKey(ns, key string) int64 {
	if ns != "" && ns != "public" {
		key = ns + "\x00" + key
	}
	h := sha256.Sum256([]byte("sellerdesk/sessions/lock\x00" + key))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

// discard closes a pooled connection instead of returning it, so that a
// session-level advisory lock it may hold dies with it.
func discard(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	conn.Conn().Close(ctx)
	conn.Release() // the pool drops closed connections
}

// keyedMutex is an in-process lock per key whose waits honour a context.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	ch   chan struct{} // holds one token while the lock is held
	refs int           // holders and waiters; the entry is dropped at zero
}

func (k *keyedMutex) lock(ctx context.Context, key string) (func(), error) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*keyedLock)
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()

	select {
	case l.ch <- struct{}{}:
	case <-ctx.Done():
		k.release(key, l)
		return nil, fmt.Errorf("sqldb: wait for lock: %w", ctx.Err())
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-l.ch
			k.release(key, l)
		})
	}, nil
}

// tryLock takes key's in-process lock if it is free at once.
func (k *keyedMutex) tryLock(key string) (func(), bool) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*keyedLock)
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()
	select {
	case l.ch <- struct{}{}:
	default:
		k.release(key, l)
		return nil, false
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-l.ch
			k.release(key, l)
		})
	}, true
}

func (k *keyedMutex) release(key string, l *keyedLock) {
	k.mu.Lock()
	l.refs--
	if l.refs == 0 {
		delete(k.locks, key)
	}
	k.mu.Unlock()
}
