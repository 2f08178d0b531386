package sessions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Options configures a Store. Only Keys is required.
type Options struct {
	// Keys are session keys of KeySize bytes each (see ParseKeys). The
	// first seals and signs; the others only open and verify, so a key is
	// rotated by putting the new one first and removing the old one once
	// its sessions have expired. Cookies and payloads of a removed key are
	// rejected.
	Keys [][]byte
	// CookieName is the session cookie's name; default "sd_session".
	CookieName string
	// IdleTimeout ends a session not used for this long; default 8h.
	IdleTimeout time.Duration
	// AbsoluteTimeout ends a session this long after login, used or not;
	// default 7 days.
	AbsoluteTimeout time.Duration
	// Now is the clock; nil means time.Now. Tests inject one.
	Now func() time.Time
	// Logger receives debug lines about rejected cookies and expired
	// sessions (never cookie values or session ids); nil discards.
	Logger *slog.Logger
	// TrustProxyHeaders marks the cookie Secure when X-Forwarded-Proto is
	// "https". Set it only behind a proxy that sets that header itself.
	TrustProxyHeaders bool
	// OperationTimeout bounds each database operation, so that a down or
	// slow database yields ErrUnavailable quickly; default 2s.
	OperationTimeout time.Duration
	// PurgeBatchSize is how many expired sessions one purge statement
	// deletes; default 500.
	PurgeBatchSize int
	// Failed, when set, is called with the operation's name ("load",
	// "save", "load tokens", ...: a fixed set) each time the database
	// fails one (ErrUnavailable; a session not found is no failure), for
	// metrics. It must not block.
	Failed func(op string)
}

// Defaults of Options.
const (
	DefaultCookieName       = "sd_session"
	DefaultIdleTimeout      = 8 * time.Hour
	DefaultAbsoluteTimeout  = 7 * 24 * time.Hour
	DefaultOperationTimeout = 2 * time.Second
	DefaultPurgeBatchSize   = 500
)

// touchInterval is how stale last_seen may get before a read refreshes it:
// the idle timeout slides without a write on every request.
const touchInterval = time.Minute

// Store is the server-side session store. It implements gorilla's
// sessions.Store and offers the typed API (Load, Session.Save) that the
// dashboard uses. A Store is safe for concurrent use. It does not own its
// Backend: the caller closes that.
type Store struct {
	backend Backend
	keys    *keyring
	opts    Options
	log     *slog.Logger
	// decoded keeps the payloads last decoded or written, by session.
	decoded decodedCache
	// decodes and encodes count the payloads decoded by Load and encoded
	// by Save (for tests).
	decodes, encodes atomic.Int64
}

// NewStore returns a Store keeping sessions in b.
func NewStore(b Backend, opts Options) (*Store, error) {
	if b == nil {
		return nil, errors.New("sessions: nil backend")
	}
	if opts.CookieName == "" {
		opts.CookieName = DefaultCookieName
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.AbsoluteTimeout <= 0 {
		opts.AbsoluteTimeout = DefaultAbsoluteTimeout
	}
	if opts.OperationTimeout <= 0 {
		opts.OperationTimeout = DefaultOperationTimeout
	}
	if opts.PurgeBatchSize <= 0 {
		opts.PurgeBatchSize = DefaultPurgeBatchSize
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if !validCookieName(opts.CookieName) {
		return nil, fmt.Errorf("sessions: invalid cookie name %q", opts.CookieName)
	}
	// The cookie's own signed timestamp is checked against the absolute
	// lifetime too (real clock, with a day's slack for clock skew), so a
	// cookie is worthless after it even if a database row survived.
	kr, err := newKeyring(opts.Keys, int((opts.AbsoluteTimeout + 24*time.Hour).Seconds()))
	if err != nil {
		return nil, err
	}
	return &Store{backend: b, keys: kr, opts: opts, log: log}, nil
}

func validCookieName(name string) bool {
	c := &http.Cookie{Name: name, Value: "x"}
	return c.Valid() == nil
}

func (st *Store) now() time.Time { return st.opts.Now() }

// expiresAt is when a session created at created and last seen at lastSeen
// dies: the earlier of its absolute and idle deadlines.
func (st *Store) expiresAt(created, lastSeen time.Time) time.Time {
	abs := created.Add(st.opts.AbsoluteTimeout)
	idle := lastSeen.Add(st.opts.IdleTimeout)
	if idle.Before(abs) {
		return idle
	}
	return abs
}

// idBytes is the entropy of a session id: 256 bits.
const idBytes = 32

func newID() string {
	b := make([]byte, idBytes)
	rand.Read(b) // never returns an error (crypto/rand, Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// idTag is a short, one-way tag of a session id for log correlation: the id
// itself is a bearer secret and never logged.
func idTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:6])
}

// payloadAD and tokenAD bind sealed values to their session (and token
// name), so that a row copied into another session does not open.
func payloadAD(id string) []byte { return []byte("payload\x00" + id) }

func tokenAD(id, name string) []byte { return []byte("token\x00" + id + "\x00" + name) }

// Load returns the request's session. A missing, tampered, truncated,
// garbage, foreign-key, expired or unknown cookie yields a new, empty
// session, never an error; the only errors are database failures, wrapping
// ErrUnavailable.
func (st *Store) Load(r *http.Request) (*Session, error) {
	return st.load(r, st.opts.CookieName)
}

func (st *Store) newSession(name string) *Session {
	return &Session{store: st, cookieName: name, id: newID(), isNew: true, data: &Data{}}
}

func (st *Store) load(r *http.Request, name string) (*Session, error) {
	ctx := r.Context()
	c, err := r.Cookie(name)
	if err != nil {
		return st.newSession(name), nil
	}
	raw, cookieCurrent, err := st.keys.decodeCookie(name, c.Value)
	if err != nil || len(raw) != idBytes {
		reason := "wrong length"
		if err != nil {
			reason = err.Error() // securecookie's messages never quote the value
		}
		st.log.DebugContext(ctx, "sessions: cookie rejected", "reason", reason, "cookie_length", len(c.Value))
		return st.newSession(name), nil
	}
	id := base64.RawURLEncoding.EncodeToString(raw)

	rec, err := st.loadRecord(withSentCompanion(ctx, st.companionOf(ctx, id)), id)
	if errors.Is(err, ErrNotFound) {
		st.log.DebugContext(ctx, "sessions: unknown session", "session", idTag(id))
		st.decoded.drop(id) // logged out or expired elsewhere
		return st.newSession(name), nil
	}
	if err != nil {
		return nil, err
	}

	now := st.now()
	if !now.Before(rec.CreatedAt.Add(st.opts.AbsoluteTimeout)) ||
		!now.Before(rec.LastSeen.Add(st.opts.IdleTimeout)) ||
		!now.Before(rec.ExpiresAt) {
		st.log.DebugContext(ctx, "sessions: session expired", "session", idTag(id))
		if err := st.delete(ctx, id); err != nil {
			// The row is already unusable and the purger will get it.
			st.log.DebugContext(ctx, "sessions: delete expired session", "err", err)
		}
		return st.newSession(name), nil
	}

	kept, ok := st.decoded.get(id, rec.Payload)
	if !ok {
		plain, current, err := st.keys.open(rec.Payload, payloadAD(id))
		if err == nil {
			plain, err = unpackPayload(plain)
		}
		if err != nil {
			// Sealed under a removed key, or altered in the database.
			st.log.DebugContext(ctx, "sessions: payload cannot be opened", "session", idTag(id))
			return st.newSession(name), nil
		}
		data, err := st.decodePayload(plain)
		if err != nil {
			st.log.DebugContext(ctx, "sessions: payload cannot be decoded", "session", idTag(id))
			return st.newSession(name), nil
		}
		kept = &decodedEntry{sealed: rec.Payload, plain: plain, data: data, current: current}
		st.decoded.put(id, kept)
	}

	if now.Sub(rec.LastSeen) >= touchInterval {
		err := st.touch(ctx, id, now, st.expiresAt(rec.CreatedAt, now))
		if errors.Is(err, ErrNotFound) {
			st.decoded.drop(id)
			return st.newSession(name), nil // deleted since we read it
		}
		if err != nil {
			return nil, err
		}
	}

	return &Session{
		store:       st,
		cookieName:  name,
		id:          id,
		persisted:   true,
		createdAt:   rec.CreatedAt,
		data:        kept.data.clone(),
		snapshot:    kept.data,
		loaded:      kept.plain,
		stale:       !kept.current,
		cookieStale: !cookieCurrent,
		readTokens:  &readTokens{sealed: rec.Tokens},
	}, nil
}

// isSecure reports whether the request reached us over TLS.
func (st *Store) isSecure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return st.opts.TrustProxyHeaders && strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}

func (st *Store) setCookie(w http.ResponseWriter, r *http.Request, name, id string) error {
	raw, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil {
		return fmt.Errorf("sessions: malformed session id")
	}
	v, err := st.keys.encodeCookie(name, raw)
	if err != nil {
		return fmt.Errorf("sessions: encode cookie: %w", err)
	}
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    v,
		Path:     "/",
		MaxAge:   int(st.opts.AbsoluteTimeout.Seconds()),
		HttpOnly: true,
		Secure:   st.isSecure(r),
		SameSite: http.SameSiteLaxMode,
	})
	return nil
}

func (st *Store) expireCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    "",
		Path:     "/",
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   st.isSecure(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// LoadTokens returns the tokens stored with a session by name. Tokens that
// no configured key opens (sealed under a removed key) are left out. It
// returns ErrNotFound when the session does not exist.
func (st *Store) LoadTokens(ctx context.Context, sessionID string) (map[string]StoredToken, error) {
	if sessionID == "" {
		return nil, ErrNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	sealed, err := st.backend.LoadTokens(ctx, sessionID)
	if err != nil {
		return nil, st.fail("load tokens", err)
	}
	out := make(map[string]StoredToken, len(sealed))
	for name, b := range sealed {
		if t, ok := st.openToken(ctx, sessionID, name, b); ok {
			out[name] = t
		}
	}
	return out, nil
}

// openToken unseals one stored token; ok is false (and the reason logged)
// when no configured key opens it or it does not decode.
func (st *Store) openToken(ctx context.Context, sessionID, name string, sealed []byte) (StoredToken, bool) {
	plain, _, err := st.keys.open(sealed, tokenAD(sessionID, name))
	if err != nil {
		st.log.DebugContext(ctx, "sessions: token cannot be opened", "session", idTag(sessionID), "token", name)
		return StoredToken{}, false
	}
	t, err := decodeToken(plain)
	if err != nil {
		st.log.DebugContext(ctx, "sessions: token cannot be decoded", "session", idTag(sessionID), "token", name)
		return StoredToken{}, false
	}
	return t, true
}

// LoadToken returns one token of a session; ok is false when the session
// has no such token. It returns ErrNotFound when the session does not exist.
func (st *Store) LoadToken(ctx context.Context, sessionID, name string) (t StoredToken, ok bool, err error) {
	if sessionID == "" {
		return StoredToken{}, false, ErrNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	sealed, err := st.backend.LoadTokens(ctx, sessionID)
	if err != nil {
		return StoredToken{}, false, st.fail("load tokens", err)
	}
	b, ok := sealed[name]
	if !ok {
		return StoredToken{}, false, nil
	}
	// Only the token asked for is opened: a session holding many
	// accounts stores many.
	t, ok = st.openToken(ctx, sessionID, name, b)
	return t, ok, nil
}

// SaveToken stores a token of a session under name, independently of the
// payload: a later Session.Save by another request never undoes it. It
// returns ErrNotFound, writing nothing, when the session no longer exists
// (logged out or expired), so a slow refresh cannot resurrect a session. A
// new or renewed session exists only after its Save (see Session.SetToken).
func (st *Store) SaveToken(ctx context.Context, sessionID, name string, t StoredToken) error {
	if sessionID == "" {
		return ErrNotFound
	}
	if name == "" {
		return errors.New("sessions: empty token name")
	}
	plain := encodeToken(t)
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	err := st.backend.SaveToken(ctx, sessionID, name, st.keys.seal(plain, tokenAD(sessionID, name)), st.now())
	return st.fail("save token", err)
}

// LockTokenRefresh serialises the refresh of one token of one session
// across every process sharing the database, so that concurrent requests
// (or instances) ask the marketplace for one new token, not one each. The
// wait is bounded by ctx (30 s when ctx has no deadline). Call unlock when
// done, always: with PostgreSQL a held lock occupies a pooled connection.
func (st *Store) LockTokenRefresh(ctx context.Context, sessionID, name string) (unlock func(), err error) {
	return st.lock(ctx, "token\x00"+sessionID+"\x00"+name)
}

// defaultLockWait bounds a lock wait whose context has no deadline, so a
// stuck holder cannot pile up waiting requests forever.
const defaultLockWait = 30 * time.Second

func (st *Store) lock(ctx context.Context, key string) (func(), error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultLockWait)
		defer cancel()
	}
	unlock, err := st.backend.Lock(ctx, key)
	if err != nil {
		return nil, st.fail("lock", err)
	}
	return unlock, nil
}

// PurgeExpired deletes expired sessions in batches of
// Options.PurgeBatchSize until none is left or ctx is done, and reports how
// many it deleted. Each batch is its own short transaction, so requests are
// never blocked behind a large delete.
func (st *Store) PurgeExpired(ctx context.Context) (int, error) {
	total := 0
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		opCtx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
		n, err := st.backend.Purge(opCtx, st.now(), st.opts.PurgeBatchSize)
		cancel()
		total += n
		if err != nil {
			return total, st.fail("purge", err)
		}
		if n < st.opts.PurgeBatchSize {
			return total, nil
		}
	}
}

// StartPurger purges expired sessions now and then every interval, until
// ctx is done; the returned channel is closed when it has stopped. Errors
// are logged and retried at the next tick.
func (st *Store) StartPurger(ctx context.Context, every time.Duration) <-chan struct{} {
	if every <= 0 {
		every = 10 * time.Minute
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			n, err := st.PurgeExpired(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				st.log.WarnContext(ctx, "sessions: purge expired sessions", "err", err, "purged", n)
			case n > 0:
				st.log.DebugContext(ctx, "sessions: purged expired sessions", "purged", n)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return done
}

// The backend calls below bound each operation by OperationTimeout and
// turn driver errors into ErrUnavailable.

func (st *Store) loadRecord(ctx context.Context, id string) (Record, error) {
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	rec, err := st.backend.Load(ctx, id)
	return rec, st.fail("load", err)
}

func (st *Store) create(ctx context.Context, rec Record) error {
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	return st.fail("create", st.backend.Create(ctx, rec))
}

func (st *Store) updatePayload(ctx context.Context, id string, payload []byte, lastSeen, expiresAt time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	return st.fail("save", st.backend.UpdatePayload(ctx, id, payload, lastSeen, expiresAt))
}

func (st *Store) touch(ctx context.Context, id string, lastSeen, expiresAt time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	return st.fail("touch", st.backend.Touch(ctx, id, lastSeen, expiresAt))
}

func (st *Store) delete(ctx context.Context, id string) error {
	st.decoded.drop(id)
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	return st.fail("delete", st.backend.Delete(ctx, id))
}

// decodePayload decodes a payload's plaintext.
func (st *Store) decodePayload(plain []byte) (*Data, error) {
	st.decodes.Add(1)
	data := &Data{}
	if err := json.Unmarshal(plain, data); err != nil {
		return nil, err
	}
	return data, nil
}

// fail is unavailable, telling Options.Failed of a failure of the
// database.
func (st *Store) fail(op string, err error) error {
	err = unavailable(op, err)
	if err != nil && st.opts.Failed != nil && errors.Is(err, ErrUnavailable) {
		st.opts.Failed(op)
	}
	return err
}
