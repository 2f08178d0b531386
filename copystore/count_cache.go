package copystore

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// maxCountCache bounds how many counts a store remembers; past it, an
// arbitrary one is forgotten for each new one.
const maxCountCache = 1024

// countKey names the count of a filter on one copy: the query's folded
// words and its other filters (paging and order do not change a count).
type countKey struct {
	k                  Key
	words              string
	status, warehouse  string
	stockMax           int
	hasStock           bool
	priceMin, priceMax int64
}

func countKeyOf(k Key, q Query) countKey {
	ck := countKey{k: k, words: strings.Join(queryWords(q.Q), " "), status: q.Status, warehouse: q.Warehouse,
		priceMin: q.PriceMin, priceMax: q.PriceMax}
	if q.StockMax != nil {
		ck.stockMax, ck.hasStock = *q.StockMax, true
	}
	return ck
}

// countEntry is a count and the copy's version (catalog_versions) it was
// taken at or after.
type countEntry struct {
	version int64
	n       int
}

// countCache remembers the counts that no kept count answers (a search,
// a warehouse or a price range) with the copy's version. Every write that
// can change what a filter selects bumps the version in its own
// transaction (migration step 9), so a remembered count is used only
// while nothing it depends on changed: a repeated or paged search reads
// one row instead of counting every match, and stays exact.
type countCache struct {
	mu sync.Mutex
	m  map[countKey]countEntry
}

func (c *countCache) get(ck countKey, version int64) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[ck]
	return e.n, ok && e.version == version
}

func (c *countCache) put(ck countKey, e countEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[countKey]countEntry)
	}
	if _, ok := c.m[ck]; !ok && len(c.m) >= maxCountCache {
		for old := range c.m {
			delete(c.m, old)
			break
		}
	}
	c.m[ck] = e
}

// version reads the write version of the copy of k (0 before its first
// write), after the access check (ErrRevoked, errGone), both in one statement.
func (s *Store) version(ctx context.Context, k Key) (int64, error) {
	if c := checksOf(ctx, k); c != nil {
		return c.version, c.access()
	}
	var access, v int64
	err := s.r.QueryRowContext(ctx, s.q(`SELECT `+accessColumn+`, COALESCE((SELECT v FROM catalog_versions WHERE seller_id = ? AND env = ?), 0)`),
		k.SellerID, k.Env, k.SellerID, k.Env).Scan(&access, &v)
	if err != nil {
		return 0, fmt.Errorf("copystore: version: %w", err)
	}
	if err := accessErr(access); err != nil {
		return 0, err
	}
	return v, nil
}

// rememberedCount counts the records of k that q selects through the
// count cache. The version is read before the count: a write committed in
// between makes the count newer than the version it is kept under, never
// older, and the version that write left misses the entry.
func (s *Store) rememberedCount(ctx context.Context, k Key, q Query) (int, error) {
	v, err := s.version(ctx, k)
	if err != nil {
		return 0, err
	}
	ck := countKeyOf(k, q)
	if n, ok := s.counted.get(ck, v); ok {
		return n, nil
	}
	query, args := s.nomenclatureCount(k, q)
	var n int
	if err := s.r.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("copystore: %w", err)
	}
	s.counted.put(ck, countEntry{version: v, n: n})
	return n, nil
}
