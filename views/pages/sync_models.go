package pages

import (
	"context"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// SyncView is the freshness line of a page served from the local copy of
// the catalogue: how old the copy is and how its sync stands.
type SyncView struct {
	// AsOf is the clock time of the last full copy ("14:02"); "" until
	// the first full copy exists.
	AsOf string
	// Running reports a sync in progress; Kind is the list it reads
	// ("nomenclature", "orders", "return boxes"), Page the page it reads
	// next of Pages (0 while unknown).
	Running     bool
	Kind        string
	Page, Pages int
	// Waiting says why the sync waits, e.g. "the marketplace asked to
	// slow down (429); next page at 14:03:10".
	Waiting string
	// Error says why the last sync stopped, if it failed.
	Error string
	// Poll is the URL the line reloads itself from while a sync runs.
	Poll string
}

// Percent is the share of the running list's pages read, 0 to 100.
func (s SyncView) Percent() int {
	if s.Pages <= 0 {
		return 0
	}
	return min(100, max(0, (s.Page-1)*100/s.Pages))
}

// NeedsAction is what the overview asks the seller to look at today; each
// count links to the filtered list.
type NeedsAction struct {
	Label, Href string
	Count       int
}

// Polls reports whether the freshness line reloads itself: while a sync
// runs, and while no full copy exists yet and nothing went wrong (a page
// opened between two lists of the first sync, or before it has begun,
// shows its progress as soon as it moves).
func (s SyncView) Polls() bool {
	return s.Poll != "" && (s.Running || (s.AsOf == "" && s.Error == ""))
}

// CopyToolbar is the search and filter form of a list served from the
// local copy, with the copy's freshness line.
type CopyToolbar struct {
	// Action is the list's path; the form is a GET to it.
	Action string
	Sync   SyncView
	// Live reports that the list is still read from the marketplace (no
	// full copy yet): search and filters apply once the copy exists.
	Live                                        bool
	Q, Sort, Status, Warehouse, Stock, PriceMin string
	PriceMax, Limit                             string
	Sorts, Statuses                             []Option
	// Placeholder is the search box's hint.
	Placeholder string
	// Records shows the filters of nomenclature records (warehouse, stock,
	// price); Dates the created-date range of orders (From, To).
	Records, Dates bool
	From, To       string
	// KeepStatus is the list's own status filter, kept by a search.
	KeepStatus string
	// ExportCSV and ExportXLSX download everything the search and filters
	// select; "" when the list has no such export.
	ExportCSV, ExportXLSX string
}

// Kept are the search, sort and filters of t as URL parameters, in a
// fixed order: what another form of the list (the page size) keeps.
func (t CopyToolbar) Kept() [][2]string {
	var out [][2]string
	for _, kv := range [][2]string{{"q", t.Q}, {"sort", t.Sort}, {"status", t.Status}, {"status", t.KeepStatus}, {"warehouse", t.Warehouse},
		{"stock", t.Stock}, {"price_min", t.PriceMin}, {"price_max", t.PriceMax}, {"from", t.From}, {"to", t.To}} {
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	return out
}

// Filtered reports whether a search or a filter selects rows (a sort
// alone does not).
func (t CopyToolbar) Filtered() bool {
	for _, kv := range t.Kept() {
		if kv[0] != "sort" {
			return true
		}
	}
	return false
}

// LineIn is Line in the language of ctx: "По состоянию на 14:02 МСК,
// обновляется номенклатура: страница 120 из 300".
func (s SyncView) LineIn(ctx context.Context) string {
	line := i18n.T(ctx, "copy.no_full_copy")
	if s.AsOf != "" {
		line = i18n.TD(ctx, "copy.as_of", map[string]any{"At": s.AsOf})
	}
	if s.Running {
		line += i18n.TD(ctx, "copy.refreshing", map[string]any{"Kind": s.Kind})
		if s.Pages > 0 {
			line += i18n.TD(ctx, "copy.page_of", map[string]any{"Page": s.Page, "Pages": s.Pages})
		}
	}
	return line
}
