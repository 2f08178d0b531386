package sessions

import (
	"bytes"
	"maps"
	"net/url"
	"slices"
	"sync"
)

// decodedCache keeps, per session, the payload this process last opened
// and decoded or sealed and wrote, under the sealed bytes stored for it:
// a session holding twenty accounts is read on every page, and while its
// stored payload is byte for byte the one kept, the page takes a copy of
// the decoded payload instead of opening, inflating and decoding it
// again. The session row is still read on every request (a logout, an
// expiry or a change by another instance is seen at once); only the
// decoding of a payload already decoded is saved. Bounded in bytes; a
// session deleted here is forgotten with its secrets.
type decodedCache struct {
	mu      sync.Mutex
	entries map[string]*decodedEntry
	size    int
}

// decodedEntry is one session's decoded payload. Never changed once kept:
// a page works on a clone of data.
type decodedEntry struct {
	sealed  []byte // the payload as stored
	plain   []byte // its plaintext, as Save compares it
	data    *Data
	current bool // sealed under the first key (else Save reseals)
}

// decodedCacheBytes bounds what the cache keeps: its entries' sealed
// payloads and plaintexts (the decoded copy is about the plaintext's size
// again); at about 5 KB an entry for a session of twenty accounts, some
// 400 such sessions.
const decodedCacheBytes = 4 << 20

func (e *decodedEntry) bytes() int { return 2*len(e.plain) + len(e.sealed) }

// get returns the entry of session id if its sealed payload is sealed.
func (c *decodedCache) get(id string, sealed []byte) (*decodedEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok || !bytes.Equal(e.sealed, sealed) {
		return nil, false
	}
	return e, true
}

// put keeps e for session id, dropping other entries (any: the map's
// order) while the cache would exceed its bound.
func (c *decodedCache) put(id string, e *decodedEntry) {
	if e.bytes() > decodedCacheBytes/16 {
		c.drop(id) // a payload this large is rare (drafts): decode it each time
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[string]*decodedEntry)
	}
	if old, ok := c.entries[id]; ok {
		c.size -= old.bytes()
	}
	for other, old := range c.entries {
		if c.size+e.bytes() <= decodedCacheBytes {
			break
		}
		if other != id {
			c.size -= old.bytes()
			delete(c.entries, other)
		}
	}
	c.entries[id] = e
	c.size += e.bytes()
}

// drop forgets session id.
func (c *decodedCache) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[id]; ok {
		c.size -= old.bytes()
		delete(c.entries, id)
	}
}

// last is the payload kept for session id, whatever its sealed bytes,
// or nil; never to be changed.
func (c *decodedCache) last(id string) *Data {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[id]; ok {
		return e.data
	}
	return nil
}

// has reports whether session id is kept.
func (c *decodedCache) has(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[id]
	return ok
}

// clone is a copy of d sharing nothing a page may change (the strings
// are shared: they cannot change).
func (d *Data) clone() *Data {
	c := *d
	c.Accounts = slices.Clone(d.Accounts)
	if d.AddAgain != nil {
		a := *d.AddAgain
		c.AddAgain = &a
	}
	c.Flashes = slices.Clone(d.Flashes)
	if d.Drafts != nil {
		c.Drafts = make(map[string]url.Values, len(d.Drafts))
		for name, v := range d.Drafts {
			cv := make(url.Values, len(v))
			for k, vs := range v {
				cv[k] = slices.Clone(vs)
			}
			c.Drafts[name] = cv
		}
	}
	c.Values = maps.Clone(d.Values)
	return &c
}

// equal reports whether d and o are the same payload field by field, so
// that Save finds an unchanged payload without encoding it. Equal
// payloads encode alike; unequal ones may still (nil against empty), and
// Save encodes those to compare.
func (d *Data) equal(o *Data) bool {
	return d.ClientID == o.ClientID && d.ClientSecret == o.ClientSecret && d.Environment == o.Environment &&
		d.DisplayName == o.DisplayName && d.SellerID == o.SellerID && d.home == o.home &&
		slices.Equal(d.Accounts, o.Accounts) &&
		(d.AddAgain == nil) == (o.AddAgain == nil) && (d.AddAgain == nil || *d.AddAgain == *o.AddAgain) &&
		slices.Equal(d.Flashes, o.Flashes) && d.ReturnTo == o.ReturnTo &&
		maps.EqualFunc(d.Drafts, o.Drafts, func(a, b url.Values) bool {
			return maps.EqualFunc(a, b, func(x, y []string) bool { return slices.Equal(x, y) })
		}) &&
		maps.Equal(d.Values, o.Values)
}
