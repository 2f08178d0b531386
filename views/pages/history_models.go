package pages

import "github.com/sellerdesk/sellerdesk/views/components"

// HistoryView is the audit trail of the seller in one environment: its
// filter, a page of entries and the way to export the filtered set.
type HistoryView struct {
	Text, Kind, From, To string
	Kinds                []Option
	Problems             []string // filter values not understood
	Entries              []HistoryEntry
	Pager                components.Pager
	Total                int
	Filtered             bool
	ExportHref           string
	Retention            string // how long entries are kept, e.g. "400 days"
	Zone                 string // the label of the zone times are shown in: МСК / MSK
}

// HistoryEntry is one change in the history list.
type HistoryEntry struct {
	ID, When, Who, Environment string
	Kind, KindLabel            string
	Outcome, OutcomeTone       string
	Message                    string
	Href                       string // the bulk job's page, for job entries
	Items                      []HistoryItem
	Count, More, Dropped       int // items stored, not shown here, and left out beyond the store's limit
}

// HistoryItem is one changed thing of an entry.
type HistoryItem struct {
	Key, Name, Old, New  string
	Href                 string // the product's page, for an item naming a product
	Outcome, OutcomeTone string
	Message, ReadBack    string
}
