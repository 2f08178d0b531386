package handlers

import (
	"net/netip"
	"sync"
	"time"
)

// LoginLimits tune the login throttle. Zero fields take the defaults in
// parentheses. The per-IP limits are three times the per-client ones, since
// an office behind one address may hold several honest users.
type LoginLimits struct {
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
	// MaxEntries bounds the memory of the throttle: past it, expired
	// entries are swept and then the stalest is evicted (10,000).
	MaxEntries int
}

func (l LoginLimits) withDefaults() LoginLimits {
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
	return l
}

// loginThrottle counts failed logins per client IP and per client id, in
// process (each instance counts on its own; see SECURITY.md). An attempt is
// counted as failed when it starts, so parallel guesses cannot slip past the
// limit, and uncounted again when it turns out not to be a wrong-credentials
// failure.
type loginThrottle struct {
	mu      sync.Mutex
	limits  LoginLimits
	entries map[string]*throttleEntry
}

type throttleEntry struct {
	failures int
	last     time.Time // last counted attempt
	until    time.Time // no attempt before this
}

// throttleKeys names the counters of one login attempt.
type throttleKeys struct {
	ip, client string
}

func newThrottleKeys(ip netip.Addr, clientID string) throttleKeys {
	k := throttleKeys{client: "client\x00" + clientID}
	if ip.IsValid() {
		if ip.Is6() {
			// One host usually holds a whole /64.
			ip = netip.PrefixFrom(ip, 64).Masked().Addr()
		}
		k.ip = "ip\x00" + ip.String()
	}
	return k
}

func newLoginThrottle(l LoginLimits) *loginThrottle {
	return &loginThrottle{limits: l.withDefaults(), entries: map[string]*throttleEntry{}}
}

// rule returns the free and max failures of a key.
func (t *loginThrottle) rule(key string) (free, most int) {
	if len(key) > 3 && key[:3] == "ip\x00" {
		return 3 * t.limits.Free, 3 * t.limits.Max
	}
	return t.limits.Free, t.limits.Max
}

// begin starts an attempt: it returns the time before which no attempt is
// allowed (and counts nothing) when a key is waiting, else counts the
// attempt as failed and returns the zero time.
func (t *loginThrottle) begin(k throttleKeys, now time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if until := t.blockedUntil(k, now); !until.IsZero() {
		return until
	}
	for _, key := range k.list() {
		e := t.entry(key, now)
		if now.Sub(e.last) > t.limits.Window {
			e.failures = 0
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
	return time.Time{}
}

// waitUntil reports until when the keys must wait (zero: no wait).
func (t *loginThrottle) waitUntil(k throttleKeys, now time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.blockedUntil(k, now)
}

// blockedUntil is the latest wait among the keys (zero: none). The caller
// holds mu.
func (t *loginThrottle) blockedUntil(k throttleKeys, now time.Time) time.Time {
	var until time.Time
	for _, key := range k.list() {
		if e := t.entries[key]; e != nil && e.until.After(now) && e.until.After(until) {
			until = e.until
		}
	}
	return until
}

// succeeded forgets the failures of both keys.
func (t *loginThrottle) succeeded(k throttleKeys) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, key := range k.list() {
		delete(t.entries, key)
	}
}

// uncount takes back an attempt that failed for another reason than wrong
// credentials (marketplace busy, seller not accessible).
func (t *loginThrottle) uncount(k throttleKeys) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, key := range k.list() {
		e := t.entries[key]
		if e == nil {
			continue
		}
		e.failures--
		if free, _ := t.rule(key); e.failures <= free {
			e.until = time.Time{}
		}
		if e.failures <= 0 {
			delete(t.entries, key)
		}
	}
}

func (k throttleKeys) list() []string {
	if k.ip == "" {
		return []string{k.client}
	}
	return []string{k.ip, k.client}
}

// entry returns the key's entry, making room when the table is full.
func (t *loginThrottle) entry(key string, now time.Time) *throttleEntry {
	if e := t.entries[key]; e != nil {
		return e
	}
	if len(t.entries) >= t.limits.MaxEntries {
		for k, e := range t.entries {
			if now.Sub(e.last) > t.limits.Window && !e.until.After(now) {
				delete(t.entries, k)
			}
		}
	}
	if len(t.entries) >= t.limits.MaxEntries {
		var stalest string
		var at time.Time
		for k, e := range t.entries {
			if stalest == "" || e.last.Before(at) {
				stalest, at = k, e.last
			}
		}
		delete(t.entries, stalest)
	}
	e := &throttleEntry{}
	t.entries[key] = e
	return e
}

// size is the number of tracked keys (for tests).
func (t *loginThrottle) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}
