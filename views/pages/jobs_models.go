package pages

// ImportForm is the upload form of a bulk import.
type ImportForm struct {
	Kind         string // "", prices, stock
	Error        string
	GuardPercent int
	MaxMB        int
}

// JobView is one bulk job: its preview before submission, then its
// progress and results, in the same grid.
type JobView struct {
	ID, Kind, KindLabel, FileName string
	Who, ClientID, Environment    string
	Created, Submitted, Finished  string
	State, StateLabel, StateTone  string
	Preview                       bool // not submitted yet: the grid offers confirmations
	Active                        bool // the runner works on it: poll for progress
	GuardPercent                  int
	Counts                        JobCounts
	Progress                      JobProgress
	Rows                          []JobRow
	RowsShown, RowsTotal          int
	Filter                        string
	Filters                       []Option
	ParentHref                    string
	StopReason                    string
	ReadBack                      string // read-back status line
	CanRetry, CanReadBack         bool
	CanDelete                     bool
	// Editable: a retry's preview, whose values can be changed and checked
	// again before anything is sent; EditFields are the
	// cells offered (price, sale / quantity, status).
	Editable   bool
	EditFields []string
}

// JobCounts are a job's rows by flag and state.
type JobCounts struct {
	Rows, ToSend, Unchanged, Invalid, Guard   int
	Sent, Accepted, Rejected, Unsent, Unknown int
	Held, Skipped, Queued                     int
	Confirmed, Processing, Different          int
	// Doomed are the guarded rows the marketplace's known rule refuses
	// ("confirm all" does not cover them).
	Doomed int
	// Meanwhile are the guarded rows that would undo a change made after
	// their file was exported, and not doomed ("confirm all" does not
	// cover them either).
	Meanwhile int
}

// JobProgress is the live progress block (also the htmx polling fragment).
type JobProgress struct {
	ID                 string
	Active             bool
	Done, Total        int // rows answered of rows to send
	Percent            int
	Sent, Accepted     int
	Rejected, Unsent   int
	Unknown            int
	StateLabel, Tone   string
	Waiting            string // "waiting on the marketplace (429) until 10:42:05", or ""
	CancelRequested    bool
	PollURL, CancelURL string
}

// JobRow is one row of the grid.
type JobRow struct {
	Seq, Line          int
	Key                string
	Old, New           string // current value at preview → new value (as typed)
	Delta, DeltaPct    string
	Flag, FlagLabel    string
	State, StateLabel  string
	Tone               string // row class: accepted, rejected, invalid, guard, held, ""
	Message            string
	ReadBack, ReadText string
	ReadLabel          string // ReadBack (a code) in words
	ReadTone           string
	Confirmable        bool              // a guarded row awaiting confirmation
	Name               string            // the product's name, beside the key
	Doomed             bool              // the marketplace's known rule refuses it: confirmed only on its own
	Meanwhile          bool              // it would undo a change made after its file was exported: confirmed only on its own
	Edit               map[string]string // the typed cells offered for editing (Editable views)
	// Promotion names the card's running or upcoming promotions and their
	// floors (lamoda price previews); PromoBelow, when set, says what a
	// new price below a floor will meet.
	Promotion, PromoBelow string
}
