package copystore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Overviews are the overviews of several copies, read together.
type Overviews struct {
	revoked map[Key]bool
	ovs     map[Key]*Overview
}

// Of returns the overview of the copy of k as Overview does: ErrRevoked
// for a copy whose credential was refused, empty counts for a copy never
// made.
func (o *Overviews) Of(k Key) (*Overview, error) {
	if o.revoked[k] {
		return nil, ErrRevoked
	}
	if ov, ok := o.ovs[k]; ok {
		return ov, nil
	}
	return newOverview(nil, nil), nil
}

// overviewsRows is the statement of Overviews, given the keys' filter:
// one row a sync state (tag 0, its packed state), one a kept count above
// 0 (tag 1, list, status, n), one a copy whose credential was refused
// (tag 2), each with the copy's seller and environment.
func overviewsRows(where string) string {
	return `SELECT 0, seller_id, env, ` + packedState + `, '', 0 FROM catalog_sync WHERE ` + where + `
	UNION ALL SELECT 1, seller_id, env, list, status, n FROM catalog_counts WHERE n > 0 AND ` + where + `
	UNION ALL SELECT 2, seller_id, env, '', '', 0 FROM catalog_copies WHERE revoked <> 0 AND ` + where
}

// Overviews reads the overviews of the copies of keys (a session's
// accounts, for the all-accounts start page, the current account's
// among them) in one statement whatever their number: the sync states,
// the kept counts and the access flags.
func (s *Store) Overviews(ctx context.Context, keys []Key) (*Overviews, error) {
	out := &Overviews{revoked: map[Key]bool{}, ovs: map[Key]*Overview{}}
	if len(keys) == 0 {
		return out, nil
	}
	want := make(map[Key]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	where, args := keysFilter(keys)
	rows, err := s.r.QueryContext(ctx, s.q(overviewsRows(where)), slices.Concat(args, args, args)...)
	if err != nil {
		return nil, fmt.Errorf("copystore: overviews: %w", err)
	}
	defer rows.Close()
	counts := map[Key]map[string]map[string]int{}
	states := map[Key]map[string]SyncState{}
	for rows.Next() {
		var tag int
		var k Key
		var a, b string
		var n int
		if err := rows.Scan(&tag, &k.SellerID, &k.Env, &a, &b, &n); err != nil {
			return nil, fmt.Errorf("copystore: overviews: %w", err)
		}
		if !want[k] {
			continue // the filter is a superset when keys mix sellers and environments
		}
		switch tag {
		case 0:
			st, err := unpackState(a)
			if err != nil {
				return nil, err
			}
			if states[k] == nil {
				states[k] = make(map[string]SyncState, len(Kinds))
			}
			states[k][st.Kind] = st
		case 1:
			c := counts[k]
			if c == nil {
				c = map[string]map[string]int{}
				counts[k] = c
			}
			if c[a] == nil {
				c[a] = map[string]int{}
			}
			c[a][b] = n
		case 2:
			out.revoked[k] = true
		default:
			return nil, fmt.Errorf("copystore: overviews: unknown row %s", strconv.Itoa(tag))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: overviews: %w", err)
	}
	for k := range want {
		out.ovs[k] = newOverview(counts[k], states[k])
	}
	return out, nil
}

// newOverview builds an overview from the kept counts of one copy (list,
// status, rows) and its sync states; either may be nil.
func newOverview(c map[string]map[string]int, sync map[string]SyncState) *Overview {
	get := func(list string) map[string]int {
		if m := c[list]; m != nil {
			return m
		}
		return map[string]int{}
	}
	ov := &Overview{RecordsByStatus: get(countNomenclature), OrdersByStatus: get(countOrders), BoxesByStatus: get(countBoxes)}
	for _, n := range c[countZeroStock] {
		ov.ZeroStock += n
	}
	ov.NewOrders, ov.Rejected, ov.BoxesLoading = ov.OrdersByStatus["new"], ov.RecordsByStatus["rejected"], ov.BoxesByStatus["loading"]
	if sync == nil {
		sync = map[string]SyncState{}
	}
	ov.Sync = sync
	return ov
}

// keysFilter selects the rows of the copies of keys by their seller and
// environment (a superset when keys mix them: the caller keeps only
// keys). The lists are padded to a power of two with their first value,
// so that a prepared statement serves every number of keys up to it.
func keysFilter(keys []Key) (string, []any) {
	var sellers, envs []any
	seenS, seenE := map[int64]bool{}, map[string]bool{}
	for _, k := range keys {
		if !seenS[k.SellerID] {
			seenS[k.SellerID] = true
			sellers = append(sellers, k.SellerID)
		}
		if !seenE[k.Env] {
			seenE[k.Env] = true
			envs = append(envs, k.Env)
		}
	}
	pad := func(v []any) []any {
		n := 1
		for n < len(v) {
			n *= 2
		}
		for len(v) < n {
			v = append(v, v[0])
		}
		return v
	}
	sellers, envs = pad(sellers), pad(envs)
	marks := func(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
	return `seller_id IN (` + marks(len(sellers)) + `) AND env IN (` + marks(len(envs)) + `)`, append(sellers, envs...)
}

// closeRows closes rows and returns the error that ended their reading.
func closeRows(rows interface {
	Err() error
	Close() error
}) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// Overview is what the start page shows from the copy.
type Overview struct {
	// Per status: nomenclature records, orders and return boxes.
	RecordsByStatus, OrdersByStatus, BoxesByStatus map[string]int
	// Needs action today.
	NewOrders, Rejected, ZeroStock, BoxesLoading int
	Sync                                         map[string]SyncState
}

// Overview reads the counts of the copy of k for the start page (kept
// current by every write, not counted here), with the sync's state: from
// the request's checks (WithChecks), else read with them in one statement.
func (s *Store) Overview(ctx context.Context, k Key) (*Overview, error) {
	c := checksOf(ctx, k)
	if c == nil {
		var err error
		if c, err = s.ReadChecks(ctx, k); err != nil {
			return nil, fmt.Errorf("copystore: overview: %w", err)
		}
	}
	if err := c.access(); errors.Is(err, errGone) {
		return newOverview(nil, nil), nil
	} else if err != nil {
		return nil, err
	}
	ov := &Overview{RecordsByStatus: c.byStatus(countNomenclature), OrdersByStatus: c.byStatus(countOrders), BoxesByStatus: c.byStatus(countBoxes), Sync: c.States}
	ov.ZeroStock, _ = c.kept(countZeroStock, "")
	ov.NewOrders, ov.Rejected, ov.BoxesLoading = ov.OrdersByStatus["new"], ov.RecordsByStatus["rejected"], ov.BoxesByStatus["loading"]
	return ov, nil
}
