// Package loginguard is the login throttle: it counts failed logins per
// client address and per client id, makes repeated failures wait (the wait
// doubling up to a lockout), and bounds its own memory. It knows nothing of
// HTTP: the login handler names the address and the client id of an
// attempt and asks before the marketplace sees the guess.
package loginguard

import (
	"net/netip"
	"sync"
	"time"
)

// Limits tune the guard. Zero fields take the defaults in
// parentheses. The per-IP limits are three times the per-client ones, since
// an office behind one address may hold several honest users.
type Limits struct {
	// Free is how many failed logins in a row a client id may have before
	// it must wait between attempts (3).
	Free int
	// Max is how many failures in a row lock the client id out for Lockout
	// (10).
	Max int
	// BaseDelay is the first wait after Free failures; each further failure
	// doubles it, up to Lockout (1s).
	BaseDelay time.Duration
	// Lockout is how long Max failures refuse every attempt (15m).
	Lockout time.Duration
	// Window forgets failures this long after the last one (15m).
	Window time.Duration
	// MaxEntries bounds the memory of the guard: past it, expired
	// entries are swept; if none has expired, attempts that need a new
	// entry are refused until one does (fail closed: evicting a live entry
	// would let a spray of other keys wipe a lockout) (10,000).
	MaxEntries int
	// MaxClientsPerAddress bounds how many distinct client ids one address
	// may fail to log in to within Window, so one address cannot spread
	// its guesses over many client ids (20). Only failures count: a login
	// that succeeds takes its client id back, so a session adding its 20
	// accounts leaves the address's colleagues their own attempts.
	MaxClientsPerAddress int
}

func (l Limits) withDefaults() Limits {
	if l.Free <= 0 {
		l.Free = 3
	}
	if l.Max <= l.Free {
		l.Max = max(10, l.Free+1)
	}
	if l.BaseDelay <= 0 {
		l.BaseDelay = time.Second
	}
	if l.Lockout <= 0 {
		l.Lockout = 15 * time.Minute
	}
	if l.Window <= 0 {
		l.Window = 15 * time.Minute
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = 10_000
	}
	if l.MaxClientsPerAddress <= 0 {
		l.MaxClientsPerAddress = 20
	}
	return l
}

// Guard counts failed logins per client address and per client id, in
// process (each instance counts on its own; see SECURITY.md). An attempt is
// counted as failed when it starts, so parallel guesses cannot slip past the
// limit, and uncounted again when it turns out not to be a wrong-credentials
// failure.
type Guard struct {
	mu      sync.Mutex
	limits  Limits
	entries map[string]*entry
}

type entry struct {
	failures int
	last     time.Time // last counted attempt
	until    time.Time // no attempt before this
	// clients are the client ids an address failed to log in to (or is
	// trying now), with its last try (address entries only).
	clients map[string]clientTries
}

// clientTries are the attempts of one address at one client id counted as
// failed and not taken back (Succeeded, Uncount), and the last of them.
type clientTries struct {
	n    int
	last time.Time
}

// Reason says why an attempt must wait.
type Reason int

const (
	// TooManyFailures: the client id or the address failed too often.
	TooManyFailures Reason = iota + 1
	// TooManyClients: the address failed at MaxClientsPerAddress other
	// client ids within the window.
	TooManyClients
	// Full: the guard tracks as many keys as it may (MaxEntries).
	Full
)

// expiry is when the entry may be forgotten: its window has passed and no
// wait is running.
func (e *entry) expiry(window time.Duration) time.Time {
	if t := e.last.Add(window); t.After(e.until) {
		return t
	}
	return e.until
}

// Keys name the counters of one login attempt: its client address and
// its client id.
type Keys struct {
	ip, client string
}

// NewKeys are the keys of an attempt from address ip (the zero Addr when
// unknown: the client id alone is counted) at client id clientID. An IPv6
// address counts for its /64.
func NewKeys(ip netip.Addr, clientID string) Keys {
	k := Keys{client: "client\x00" + clientID}
	if ip.IsValid() {
		if ip.Is6() {
			// One host usually holds a whole /64.
			ip = netip.PrefixFrom(ip, 64).Masked().Addr()
		}
		k.ip = "ip\x00" + ip.String()
	}
	return k
}

// New returns a guard with limits l (zero fields take the defaults).
func New(l Limits) *Guard {
	return &Guard{limits: l.withDefaults(), entries: map[string]*entry{}}
}

// rule returns the free and max failures of a key.
func (t *Guard) rule(key string) (free, most int) {
	if len(key) > 3 && key[:3] == "ip\x00" {
		return 3 * t.limits.Free, 3 * t.limits.Max
	}
	return t.limits.Free, t.limits.Max
}

// Limits are the guard's limits, defaults filled in.
func (t *Guard) Limits() Limits { return t.limits }

// Begin starts an attempt: it returns the time before which no attempt is
// allowed (and counts nothing) when a key is waiting, the table is full or
// the address has failed at too many client ids, else counts the attempt
// as failed and returns the zero time.
func (t *Guard) Begin(k Keys, now time.Time) time.Time {
	until, _ := t.BeginWhy(k, now)
	return until
}

// BeginWhy is Begin, and says why an attempt must wait.
func (t *Guard) BeginWhy(k Keys, now time.Time) (time.Time, Reason) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if until := t.blockedUntil(k, now); !until.IsZero() {
		return until, TooManyFailures
	}
	if until, why := t.room(k, now); !until.IsZero() {
		return until, why
	}
	for _, key := range k.list() {
		e := t.entries[key]
		if e == nil {
			e = &entry{}
			t.entries[key] = e
		}
		if now.Sub(e.last) > t.limits.Window {
			e.failures = 0
		}
		if key == k.ip {
			if e.clients == nil {
				e.clients = map[string]clientTries{}
			}
			c := e.clients[k.client]
			if now.Sub(c.last) > t.limits.Window {
				c.n = 0
			}
			e.clients[k.client] = clientTries{n: c.n + 1, last: now}
		}
		e.failures++
		e.last = now
		free, most := t.rule(key)
		switch {
		case e.failures >= most:
			e.until = now.Add(t.limits.Lockout)
		case e.failures > free:
			e.until = now.Add(min(t.limits.BaseDelay<<min(e.failures-free-1, 20), t.limits.Lockout))
		}
	}
	return time.Time{}, 0
}

// WaitUntil reports until when the keys must wait (zero: no wait).
func (t *Guard) WaitUntil(k Keys, now time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.blockedUntil(k, now)
}

// blockedUntil is the latest wait among the keys (zero: none). The caller
// holds mu.
func (t *Guard) blockedUntil(k Keys, now time.Time) time.Time {
	var until time.Time
	for _, key := range k.list() {
		if e := t.entries[key]; e != nil && e.until.After(now) && e.until.After(until) {
			until = e.until
		}
	}
	return until
}

// Succeeded forgets the failures of the client id that logged in and takes
// this one attempt back from its address. The address keeps every other
// failure: one valid login must not wipe the guesses made at other client
// ids from the same address.
func (t *Guard) Succeeded(k Keys) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, k.client)
	if k.ip != "" {
		t.uncountKeys(k.ip)
		t.uncountClient(k)
	}
}

// Uncount takes back an attempt that failed for another reason than wrong
// credentials (marketplace busy, seller not accessible).
func (t *Guard) Uncount(k Keys) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.uncountKeys(k.list()...)
	t.uncountClient(k)
}

// uncountClient takes one attempt at k's client id back from k's
// address: a client id none of whose attempts failed is not counted
// against the address's bound. The caller holds mu.
func (t *Guard) uncountClient(k Keys) {
	e := t.entries[k.ip]
	if k.ip == "" || e == nil {
		return
	}
	if c, ok := e.clients[k.client]; ok {
		if c.n--; c.n <= 0 {
			delete(e.clients, k.client)
		} else {
			e.clients[k.client] = c
		}
	}
	if e.failures <= 0 && len(e.clients) == 0 {
		delete(t.entries, k.ip)
	}
}

// uncountKeys takes one counted attempt back from each key. The caller
// holds mu.
func (t *Guard) uncountKeys(keys ...string) {
	for _, key := range keys {
		e := t.entries[key]
		if e == nil {
			continue
		}
		e.failures--
		if free, _ := t.rule(key); e.failures <= free {
			e.until = time.Time{}
		}
		if e.failures <= 0 && len(e.clients) == 0 {
			delete(t.entries, key)
		}
	}
}

func (k Keys) list() []string {
	if k.ip == "" {
		return []string{k.client}
	}
	return []string{k.ip, k.client}
}

// room reports until when an attempt must wait because the guard
// cannot track it (zero: it can), and why: the table is full of entries
// that have not expired, or the address has failed at too many other
// client ids within the window. Nothing is ever evicted before it
// expires. The caller holds mu.
func (t *Guard) room(k Keys, now time.Time) (time.Time, Reason) {
	need := 0
	for _, key := range k.list() {
		if t.entries[key] == nil {
			need++
		}
	}
	if need > 0 && len(t.entries)+need > t.limits.MaxEntries {
		var next time.Time
		for key, e := range t.entries {
			if exp := e.expiry(t.limits.Window); !exp.After(now) {
				delete(t.entries, key)
			} else if next.IsZero() || exp.Before(next) {
				next = exp
			}
		}
		if len(t.entries)+need > t.limits.MaxEntries {
			return next, Full
		}
	}
	if e := t.entries[k.ip]; k.ip != "" && e != nil {
		var oldest time.Time
		for id, c := range e.clients {
			if now.Sub(c.last) > t.limits.Window {
				delete(e.clients, id)
			} else if oldest.IsZero() || c.last.Before(oldest) {
				oldest = c.last
			}
		}
		if _, known := e.clients[k.client]; !known && len(e.clients) >= t.limits.MaxClientsPerAddress {
			return oldest.Add(t.limits.Window), TooManyClients
		}
	}
	return time.Time{}, 0
}

// size is the number of tracked keys (for tests).
func (t *Guard) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}
