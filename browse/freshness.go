package browse

import (
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// Freshness is what the sync states of a copy say on its freshness line.
type Freshness struct {
	// Complete: a first full copy of every list exists; AsOf is then the
	// oldest of the lists' last completed passes.
	Complete bool
	AsOf     time.Time
	// Running: a pass is running; Kind is the list it reads (the first
	// running in copystore.Kinds' order; "" for a pass this instance
	// started that has not begun a list yet), at Page of Pages;
	// WaitUntil, when not zero, the end of a wait the marketplace asked
	// for.
	Running     bool
	Kind        string
	Page, Pages int
	WaitUntil   time.Time
	// Stop is why the last pass of a list stopped (copystore.StopUnauthorized,
	// StopForbidden or the error's text; the first in copystore.Kinds' order);
	// empty while a pass runs.
	Stop string
}

// FreshnessOf is the freshness of a copy with states, running when this
// instance started a pass of it, at now.
func FreshnessOf(states map[string]copystore.SyncState, running bool, now time.Time) Freshness {
	f := Freshness{Complete: true}
	for _, kind := range copystore.Kinds {
		st, ok := states[kind]
		if !ok || !st.Complete() {
			f.Complete = false
		} else if f.AsOf.IsZero() || st.CompletedAt.Before(f.AsOf) {
			f.AsOf = st.CompletedAt
		}
		if f.Stop == "" {
			f.Stop = st.LastError
		}
		if ok && st.Running && !f.Running {
			f.Running, f.Kind, f.Page, f.Pages = true, kind, st.NextPage, st.Pages
			if st.WaitUntil.After(now) {
				f.WaitUntil = st.WaitUntil
			}
		}
	}
	if !f.Complete {
		f.AsOf = time.Time{}
	}
	f.Running = f.Running || running
	if f.Running {
		f.Stop = ""
	}
	return f
}
