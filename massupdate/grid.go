package massupdate

// The job page's grid and a job's downloads, as decided from a job and
// its rows: which rows a filter shows, each row's tone, labels,
// confirmation and promotion marks, what the job still offers, and which
// rows the errors download lists. Words and numbers are the caller's, in
// its reader's language: everything here is a typed message or a number.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// The grid's row filters: every row, the rows with a problem, the rows
// to send.
const (
	GridAll      = ""
	GridProblems = "problems"
	GridSend     = "send"
)

// MaxGridRows bounds the rows the grid draws at once; the downloads have
// them all.
const MaxGridRows = 10_000

// The tones of a grid row (its class): what became of it, or what it asks.
const (
	ToneAccepted = "accepted"
	ToneRejected = "rejected"
	ToneHeld     = "held"
	ToneInvalid  = "invalid"
	ToneGuard    = "guard"
)

// Grid is a job's grid: the rows the filter shows (at most MaxGridRows),
// the counts the rows alone know, and what the job still offers.
type Grid struct {
	Rows []GridRow
	// Total is every row of the job; Doomed and Meanwhile count the rows
	// confirmed only on their own (OwnConfirmation), shown or not.
	Total, Doomed, Meanwhile int
	// CanRetry: finished with rows refused or not sent; CanReadBack:
	// finished with rows accepted or unanswered; CanDelete: not running.
	CanRetry, CanReadBack, CanDelete bool
	// Editable: a retry's preview, whose cells EditFields may be changed
	// and checked again before anything is sent.
	Editable   bool
	EditFields []string
}

// GridRow is one row of the grid.
type GridRow struct {
	Item bulkjobs.Item
	// Key is the row's key as the pages show it (ShownKey).
	Key                   string
	Name                  string
	FlagLabel, StateLabel i18n.Msg
	ReadLabel             i18n.Msg
	// Message is the row's own messages; Promotion and PromoBelow the
	// marks of its card's promotions and of a price below a floor
	// (MarkPromotions), which the grid shows apart.
	Message, Promotion, PromoBelow i18n.Msgs
	Tone, ReadTone                 string
	Confirmable, Doomed, Meanwhile bool
	// Change is the row's old and new number (HasNum rows), as the
	// prices forms write a held row's change.
	Change GuardDelta
	// Edit are the typed cells offered for editing (Editable grids).
	Edit map[string]string
}

// JobGrid is the grid of job j with its rows items, filtered by show
// (GridAll, GridProblems, GridSend).
func JobGrid(j bulkjobs.Job, items []bulkjobs.Item, show string) Grid {
	c := j.Counts
	preview, active := j.State == bulkjobs.StatePreview, j.Active()
	finished := !preview && !active
	g := Grid{Total: len(items), CanRetry: finished && (c.Rejected > 0 || c.Unsent > 0),
		CanReadBack: finished && c.Accepted+c.Unknown > 0, CanDelete: !active}
	if preview && j.ParentID != "" {
		g.Editable, g.EditFields = true, bulkjobs.EditFields(j.Kind)
	}
	for _, it := range items {
		r := GridRowOf(j, it)
		if g.Editable {
			typed := typedCells(it)
			r.Edit = make(map[string]string, len(g.EditFields))
			for _, f := range g.EditFields {
				r.Edit[f] = typed[f]
			}
		}
		if r.Doomed {
			g.Doomed++
		}
		if r.Meanwhile {
			g.Meanwhile++
		}
		switch show {
		case GridProblems:
			if r.Tone == "" || r.Tone == ToneAccepted {
				continue
			}
		case GridSend:
			if it.Flag != bulkjobs.FlagOK && it.Flag != bulkjobs.FlagGuard {
				continue
			}
		}
		if len(g.Rows) < MaxGridRows {
			g.Rows = append(g.Rows, r)
		}
	}
	return g
}

// GridRowOf is row it of job j as the grid shows it.
func GridRowOf(j bulkjobs.Job, it bulkjobs.Item) GridRow {
	r := GridRow{Item: it, Key: ShownKey(it.Key), Name: RowName(it), Message: it.Message,
		FlagLabel: bulkjobs.FlagLabel(it.Flag), StateLabel: bulkjobs.ItemLabel(it.State), ReadLabel: bulkjobs.ReadLabelOf(it.ReadBack)}
	r.Doomed, r.Meanwhile = OwnConfirmation(j.Kind, it)
	if it.HasNum {
		r.Change = GuardDelta{Old: it.OldNum, New: it.NewNum}
	}
	switch {
	case it.State == bulkjobs.ItemAccepted:
		r.Tone = ToneAccepted
	case it.State == bulkjobs.ItemRejected, it.State == bulkjobs.ItemUnsent, it.State == bulkjobs.ItemUnknown:
		r.Tone = ToneRejected
	case it.State == bulkjobs.ItemHeld:
		r.Tone = ToneHeld
	case it.Flag == bulkjobs.FlagInvalid:
		r.Tone = ToneInvalid
	case it.Flag == bulkjobs.FlagGuard:
		r.Tone = ToneGuard
	}
	r.Confirmable = j.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard
	if r.Doomed && r.Confirmable {
		r.Tone, r.FlagLabel = ToneInvalid, i18n.M("jobs.flag_doomed", nil)
	}
	if r.Meanwhile && r.Confirmable {
		r.Tone, r.FlagLabel = ToneHeld, i18n.M("jobs.flag_meanwhile", nil)
	}
	if j.State != bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard {
		// Once submitted, say what became of the confirmation.
		r.FlagLabel = i18n.M("jobs.flag_confirmed", nil)
		if it.State == bulkjobs.ItemSkipped {
			r.FlagLabel = i18n.M("jobs.flag_not_confirmed", nil)
		}
		if r.Meanwhile && it.State == bulkjobs.ItemHeld {
			// Held because it was not confirmed on its own, for what
			// changed after its file was exported.
			r.FlagLabel, r.StateLabel = i18n.M("jobs.flag_not_confirmed", nil), i18n.M("jobs.flag_meanwhile", nil)
		}
	}
	switch it.ReadBack {
	case bulkjobs.ReadConfirmed:
		r.ReadTone = "ok"
	case bulkjobs.ReadProcessing, bulkjobs.ReadQuarantine:
		r.ReadTone = "warn"
	case bulkjobs.ReadDifferent, bulkjobs.ReadMissing:
		r.ReadTone = "bad"
	}
	r.Message, r.Promotion, r.PromoBelow = splitPromotionMarks(it.Message)
	return r
}

// splitPromotionMarks parts a row's messages into its own, the marks of
// its card's promotions and the mark of a price below a promotion's floor.
func splitPromotionMarks(ms i18n.Msgs) (rest, promo, below i18n.Msgs) {
	for _, m := range ms {
		switch {
		case IsPromotionBelow(m):
			below = append(below, m)
		case IsPromotionMark(m):
			promo = append(promo, m)
		default:
			rest = append(rest, m)
		}
	}
	if len(promo)+len(below) == 0 {
		return ms, nil, nil
	}
	return rest, promo, below
}

// ShownKey is a row's key as the pages show it: a stock row of a record
// without a warehouse (lamoda profile), kept as "|barcode", is its
// barcode alone.
func ShownKey(key string) string { return strings.TrimPrefix(key, "|") }

// typedCells are a row's values as its file typed them.
func typedCells(it bulkjobs.Item) map[string]string {
	var typed map[string]string
	_ = json.Unmarshal([]byte(it.Typed), &typed)
	return typed
}

// JobTable is a job's rows as its downloads list them: the columns (a
// message and a kind each) and each row's cells as messages, the
// values as typed verbatim, the dashboard's words (flag, state, read-back,
// its messages) as keys, the marketplace's as sent.
type JobTable struct {
	Columns []i18n.Msg
	Kinds   []sheets.Kind
	Rows    [][]i18n.Msgs
}

// JobRows is job j's rows items as a download lists them: every row, or
// with errorsOnly the rows not applied (invalid, rejected, unsent, held,
// unconfirmed), in a shape that can be fixed and imported again.
func JobRows(j bulkjobs.Job, items []bulkjobs.Item, errorsOnly bool) JobTable {
	fields := []string{"sku", "price", "sale", "start", "end"}
	t := JobTable{Columns: []i18n.Msg{i18n.M("import.col_sku", nil), i18n.M("import.col_price", nil), i18n.M("import.col_sale", nil),
		i18n.M("import.col_sale_start", nil), i18n.M("import.col_sale_end", nil)}}
	if j.Kind == "stock" {
		fields = []string{"warehouse", "barcode", "quantity", "status"}
		t.Columns = []i18n.Msg{i18n.M("import.col_warehouse", nil), i18n.M("import.col_barcode", nil), i18n.M("import.col_quantity", nil), i18n.M("import.col_status", nil)}
	}
	t.Columns = append(t.Columns, i18n.M("import.col_file_row", nil), i18n.M("import.col_before", nil), i18n.M("import.col_after", nil),
		i18n.M("import.col_preview", nil), i18n.M("import.col_result", nil), i18n.M("import.col_message", nil),
		i18n.M("import.col_read_back", nil), i18n.M("import.col_read_back_value", nil))
	t.Kinds = make([]sheets.Kind, len(t.Columns))
	for i, f := range fields {
		switch f {
		case "price", "sale":
			t.Kinds[i] = sheets.Money
		case "quantity":
			t.Kinds[i] = sheets.Number
		}
	}
	t.Kinds[len(fields)] = sheets.Number // the file row
	verbatim := func(s string) i18n.Msgs { return i18n.Msgs{{Text: s, Verbatim: true}} }
	for _, it := range items {
		if errorsOnly && !notApplied(j, it) {
			continue
		}
		typed := typedCells(it)
		row := make([]i18n.Msgs, 0, len(t.Columns))
		for _, f := range fields {
			row = append(row, verbatim(typed[f]))
		}
		row = append(row, verbatim(strconv.Itoa(it.Line)), it.OldText, it.NewText,
			i18n.Of(bulkjobs.FlagLabel(it.Flag)), i18n.Of(bulkjobs.ItemLabel(it.State)), it.Message,
			i18n.Of(bulkjobs.ReadLabelOf(it.ReadBack)), it.ReadBackText)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// notApplied reports whether row it of job j belongs in the errors
// download: invalid, refused, not sent, held, left unconfirmed, or
// awaiting its confirmation in a preview.
func notApplied(j bulkjobs.Job, it bulkjobs.Item) bool {
	return it.Flag == bulkjobs.FlagInvalid || it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent ||
		it.State == bulkjobs.ItemHeld || (it.State == bulkjobs.ItemSkipped && it.Flag == bulkjobs.FlagGuard) ||
		(j.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard)
}
