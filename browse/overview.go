package browse

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// Count is how many rows of a list are in one status.
type Count struct {
	Status string
	Count  int
}

// Overview is what the start page counts of a seller.
type Overview struct {
	// Orders, Boxes and Nomenclature count each list by status: the
	// known statuses in their order, then any other in name order.
	Orders, Boxes, Nomenclature []Count
	// What needs action today (from the copy only).
	NewOrders, Rejected, ZeroStock, BoxesLoading int
	Sync                                         map[string]copystore.SyncState
}

// Total is the sum of counts.
func Total(counts []Count) int {
	n := 0
	for _, c := range counts {
		n += c.Count
	}
	return n
}

// Overview counts the seller's lists. It reads the copy alone, whatever
// its state (it answers at once with what the copy holds so far, and the
// page says how fresh that is), once the credentials are known to work;
// opening it starts a sync when the copy is due one.
func (s *Seller) Overview(ctx context.Context) (*Overview, error) {
	if err := s.access(); err != nil {
		return nil, err
	}
	s.Use(ctx)
	ctx, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	ov, err := s.r.copy.Store().Overview(ctx, s.key)
	if err != nil {
		return nil, err
	}
	return overviewOf(ov), nil
}

// OverviewAll is Overview of the seller together with Glance of every
// copy of keys (the accounts of a session holding several), all read in
// one statement: the seller's own counts come with the others', not from
// a read of their own.
func (s *Seller) OverviewAll(ctx context.Context, keys []copystore.Key) (*Overview, []Glance, error) {
	if err := s.access(); err != nil {
		return nil, nil, err
	}
	s.Use(ctx)
	ctx, err := s.enter(ctx)
	if err != nil {
		return nil, nil, err
	}
	all := keys
	if !slices.Contains(keys, s.key) {
		all = append(slices.Clip(keys), s.key)
	}
	ovs, err := s.r.copy.Store().Overviews(ctx, all)
	if err != nil {
		return nil, nil, err
	}
	own, err := ovs.Of(s.key)
	if err != nil {
		return nil, nil, err
	}
	gs, err := glancesOf(ovs, keys)
	if err != nil {
		return nil, nil, err
	}
	return overviewOf(own), gs, nil
}

// overviewOf is the start page's counts of the copy's overview ov.
func overviewOf(ov *copystore.Overview) *Overview {
	return &Overview{Orders: countsOf(OrderStatuses, ov.OrdersByStatus), Boxes: countsOf(BoxStatuses, ov.BoxesByStatus),
		Nomenclature: countsOf(NomenclatureStatuses, ov.RecordsByStatus),
		NewOrders:    ov.NewOrders, Rejected: ov.Rejected, ZeroStock: ov.ZeroStock, BoxesLoading: ov.BoxesLoading, Sync: ov.Sync}
}

// countsOf lists the counts of m by the known statuses in their order,
// then any status not known before, in name order.
func countsOf(known []string, m map[string]int) []Count {
	out := make([]Count, 0, len(known)+len(m))
	for _, st := range known {
		out = append(out, Count{Status: st, Count: m[st]})
	}
	for _, st := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(known, st) {
			out = append(out, Count{Status: st, Count: m[st]})
		}
	}
	return out
}

// Glance is what needs action in one account's copy, for the overview of
// a session holding several.
type Glance struct {
	// Unavailable: the marketplace refused the account's credentials
	// since its last login.
	Unavailable                                  bool
	NewOrders, Rejected, ZeroStock, BoxesLoading int
	Sync                                         map[string]copystore.SyncState
}

// Glance reads what needs action in the copy k, without a marketplace
// call.
func (r *Reader) Glance(ctx context.Context, k copystore.Key) (Glance, error) {
	ov, err := r.copy.Store().Overview(ctx, k)
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return Glance{Unavailable: true}, nil
	case err != nil:
		return Glance{}, err
	}
	return Glance{NewOrders: ov.NewOrders, Rejected: ov.Rejected, ZeroStock: ov.ZeroStock, BoxesLoading: ov.BoxesLoading, Sync: ov.Sync}, nil
}

// Glances reads Glance for every copy of keys at once (three reads,
// whatever their number), in the order of keys.
func (r *Reader) Glances(ctx context.Context, keys []copystore.Key) ([]Glance, error) {
	ovs, err := r.copy.Store().Overviews(ctx, keys)
	if err != nil {
		return nil, err
	}
	return glancesOf(ovs, keys)
}

// glancesOf is Glance of every copy of keys from their overviews ovs.
func glancesOf(ovs *copystore.Overviews, keys []copystore.Key) ([]Glance, error) {
	out := make([]Glance, len(keys))
	for i, k := range keys {
		ov, err := ovs.Of(k)
		switch {
		case errors.Is(err, copystore.ErrRevoked):
			out[i] = Glance{Unavailable: true}
		case err != nil:
			return nil, err
		default:
			out[i] = Glance{NewOrders: ov.NewOrders, Rejected: ov.Rejected, ZeroStock: ov.ZeroStock, BoxesLoading: ov.BoxesLoading, Sync: ov.Sync}
		}
	}
	return out, nil
}
