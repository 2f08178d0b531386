package copystore

import (
	"context"
	"fmt"
	"strconv"
)

// Checks is what a page of the copy of one seller reads before its rows,
// read in one statement (one round trip on PostgreSQL): the sync states,
// whether the copy's credential was refused, the copy's write version
// (the count cache's key) and the kept counts. A request reads them once
// (ReadChecks) and hands them to the page's reads with WithChecks, which
// then send only their own statement.
type Checks struct {
	// States are the sync states of every kind that has one.
	States map[string]SyncState
	key    Key
	// flag is the copy's access flag (accessColumn).
	flag    int64
	version int64
	counts  map[string]map[string]int
}

// checksRows is the statement of ReadChecks: one row a sync state (tag
// 0, its packed state), one a kept count above 0 (tag 1, list, status,
// n; a status whose count fell to 0 is left out, as a GROUP BY would), then
// the access flag (tag 2, accessColumn) and the version (tag 3).
var checksRows = `SELECT 0, ` + packedState + `, '', 0 FROM catalog_sync WHERE seller_id = ? AND env = ?
	UNION ALL SELECT 1, list, status, n FROM catalog_counts WHERE seller_id = ? AND env = ? AND n > 0
	UNION ALL SELECT 2, '', '', ` + accessColumn + `
	UNION ALL SELECT 3, '', '', COALESCE((SELECT v FROM catalog_versions WHERE seller_id = ? AND env = ?), 0)`

// ReadChecks reads the checks of the copy of k.
func (s *Store) ReadChecks(ctx context.Context, k Key) (*Checks, error) {
	rows, err := s.r.QueryContext(ctx, s.q(checksRows), k.SellerID, k.Env, k.SellerID, k.Env, k.SellerID, k.Env, k.SellerID, k.Env)
	if err != nil {
		return nil, fmt.Errorf("copystore: checks: %w", err)
	}
	defer rows.Close()
	c := &Checks{key: k, States: make(map[string]SyncState, len(Kinds)),
		counts: map[string]map[string]int{countNomenclature: {}, countZeroStock: {}, countOrders: {}, countBoxes: {}}}
	var tag int
	var a, b string
	var n int64
	for rows.Next() {
		if err := rows.Scan(&tag, &a, &b, &n); err != nil {
			return nil, fmt.Errorf("copystore: checks: %w", err)
		}
		switch tag {
		case 0:
			st, err := unpackState(a)
			if err != nil {
				return nil, err
			}
			c.States[st.Kind] = st
		case 1:
			if c.counts[a] == nil {
				c.counts[a] = map[string]int{}
			}
			c.counts[a][b] += int(n)
		case 2:
			c.flag = n
		case 3:
			c.version = n
		default:
			return nil, fmt.Errorf("copystore: checks: unknown row %s", strconv.Itoa(tag))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: checks: %w", err)
	}
	return c, nil
}

type checksKey struct{}

// WithChecks is ctx carrying c: the reads of c's copy under it take the
// access check, the version and the kept counts from c instead of reading
// them again. c must have been read for the same request (a page), never
// kept across requests: a credential refused since is seen by the next.
func WithChecks(ctx context.Context, c *Checks) context.Context {
	if c == nil {
		return ctx
	}
	return context.WithValue(ctx, checksKey{}, c)
}

// checksOf is the checks ctx carries for k, or nil.
func checksOf(ctx context.Context, k Key) *Checks {
	c, _ := ctx.Value(checksKey{}).(*Checks)
	if c == nil || c.key != k {
		return nil
	}
	return c
}

// access is checkAccess's answer from c.
func (c *Checks) access() error { return accessErr(c.flag) }

// kept is keptCount's answer from c.
func (c *Checks) kept(list, status string) (int, error) {
	if err := c.access(); err != nil {
		return 0, err
	}
	if status != "" {
		return c.counts[list][status], nil
	}
	n := 0
	for _, v := range c.counts[list] {
		n += v
	}
	return n, nil
}
