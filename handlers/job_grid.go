package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// jobFilters are the grid's row filters, in the language of ctx.
func jobFilters(ctx context.Context) []pages.Option {
	return []pages.Option{
		{Value: "", Label: i18n.T(ctx, "jobs.filter_all")}, {Value: "problems", Label: i18n.T(ctx, "jobs.filter_problems")},
		{Value: "send", Label: i18n.T(ctx, "jobs.filter_send")},
	}
}

// maxGridRows bounds the rows drawn at once; the downloads have them all.
const maxGridRows = 10_000

func (a *App) jobView(ctx context.Context, j bulkjobs.Job, items []bulkjobs.Item, show string) pages.JobView {
	c := j.Counts
	l := format.LocaleOf(ctx)
	v := pages.JobView{
		ID: j.ID, Kind: j.Kind, KindLabel: jobTitleIn(ctx, j), FileName: j.FileName, Who: whoText(j), ClientID: j.ClientID, Environment: envLabel(ctx, j.Environment),
		Created: format.DateTimeIn(l, j.CreatedAt), Preview: j.State == bulkjobs.StatePreview, Active: j.Active(), GuardPercent: j.GuardPercent,
		StopReason: format.MessageIn(l, j.StopReason), ReadBack: readBackLineIn(l, j), Filter: show, Filters: jobFilters(ctx), RowsTotal: len(items),
		Progress: a.progress(ctx, j),
		Counts: pages.JobCounts{
			Rows: c.Rows, ToSend: c.OK + c.Guard, Unchanged: c.Unchanged, Invalid: c.Invalid, Guard: c.Guard,
			Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
			Held: c.Held, Skipped: c.Skipped, Queued: c.Queued, Confirmed: c.Confirmed, Processing: c.Processing, Different: c.Different,
		},
	}
	v.StateLabel, v.StateTone = jobStateLabel(ctx, j)
	if !j.SubmittedAt.IsZero() {
		v.Submitted = format.DateTimeIn(l, j.SubmittedAt)
	}
	if !j.FinishedAt.IsZero() {
		v.Finished = format.DateTimeIn(l, j.FinishedAt)
	}
	if j.ParentID != "" {
		v.ParentHref = paths.In(ctx, paths.Job(j.ParentID))
	}
	finished := !v.Preview && !v.Active
	v.CanRetry = finished && (c.Rejected > 0 || c.Unsent > 0)
	v.CanReadBack = finished && c.Accepted+c.Unknown > 0
	v.CanDelete = !v.Active
	if v.Preview && j.ParentID != "" {
		v.Editable, v.EditFields = true, bulkjobs.EditFields(j.Kind)
	}
	for _, it := range items {
		row := jobRow(ctx, j, it)
		if v.Editable {
			var typed map[string]string
			_ = json.Unmarshal([]byte(it.Typed), &typed)
			row.Edit = map[string]string{}
			for _, f := range v.EditFields {
				row.Edit[f] = typed[f]
			}
		}
		if row.Doomed {
			v.Counts.Doomed++
		}
		if row.Meanwhile {
			v.Counts.Meanwhile++
		}
		switch show {
		case "problems":
			if row.Tone == "" || row.Tone == "accepted" {
				continue
			}
		case "send":
			if it.Flag != bulkjobs.FlagOK && it.Flag != bulkjobs.FlagGuard {
				continue
			}
		}
		if len(v.Rows) < maxGridRows {
			v.Rows = append(v.Rows, row)
		}
	}
	v.RowsShown = len(v.Rows)
	return v
}

// flagLabels and itemLabels are the catalogue keys of a row's preview
// flag and state (bulkjobs.ReadLabel: of its read-back).
var flagLabels = map[string]string{
	bulkjobs.FlagOK: i18n.K("jobs.flag_ok"), bulkjobs.FlagUnchanged: i18n.K("jobs.flag_unchanged"), bulkjobs.FlagInvalid: i18n.K("jobs.flag_invalid"),
	bulkjobs.FlagGuard: i18n.K("jobs.flag_guard"),
}

var itemLabels = map[string]string{
	bulkjobs.ItemQueued: i18n.K("jobs.item_queued"), bulkjobs.ItemAccepted: i18n.K("jobs.item_accepted"), bulkjobs.ItemRejected: i18n.K("jobs.item_rejected"),
	bulkjobs.ItemUnsent: i18n.K("jobs.item_unsent"), bulkjobs.ItemUnknown: i18n.K("jobs.item_unknown"), bulkjobs.ItemHeld: i18n.K("jobs.item_held"),
	bulkjobs.ItemSkipped: i18n.K("jobs.item_skipped"),
}

// readLabel is the words of a read-back state, a state of no label as it
// is.
func readLabel(ctx context.Context, state string) string {
	if key := bulkjobs.ReadLabel(state); key != "" {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
	}
	return state
}

// label is the words of a code through one of the tables above; a code
// the table does not know as it is.
func label(ctx context.Context, table map[string]string, code string) string {
	if key, ok := table[code]; ok {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
	}
	return code
}

// shownKey is a row's key as the pages show it: a stock row of a record
// without a warehouse (lamoda profile), kept as "|barcode", is its
// barcode alone.
func shownKey(key string) string { return strings.TrimPrefix(key, "|") }

// minusSign writes a signed number's leading hyphen-minus as the minus
// sign (U+2212), as the grid's amounts are written.
func minusSign(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "−" + rest
	}
	return s
}

// gridText is a stored text of a row (a message, a value) as the grid
// shows it: the dashboard's words in the reader's language, the
// marketplace's as sent (its numbers too, so no Russian amount lands in
// an English sentence), the dashboard's amounts written the reader's way.
func gridText(l format.Locale, ms i18n.Msgs) string {
	return format.GridMessageIn(l, ms)
}

func jobRow(ctx context.Context, j bulkjobs.Job, it bulkjobs.Item) pages.JobRow {
	l := format.LocaleOf(ctx)
	r := pages.JobRow{
		Seq: it.Seq, Line: it.Line, Key: shownKey(it.Key), Old: orDash(format.MessageIn(l, it.OldText)), New: orDash(format.MessageIn(l, it.NewText)),
		Flag: it.Flag, FlagLabel: label(ctx, flagLabels, it.Flag), State: it.State, StateLabel: label(ctx, itemLabels, it.State), Message: gridText(l, it.Message),
		ReadBack: it.ReadBack, ReadLabel: readLabel(ctx, it.ReadBack), ReadText: format.MessageIn(l, it.ReadBackText), Name: massupdate.RowName(it),
	}
	r.Doomed, r.Meanwhile = massupdate.OwnConfirmation(j.Kind, it)
	if it.HasNum {
		d := it.NewNum - it.OldNum
		if j.Kind == "stock" {
			r.Delta = minusSign(fmt.Sprintf("%+d", d))
		} else {
			sign := "+"
			if d < 0 {
				sign = "−"
				d = -d
			}
			r.Delta = sign + format.GridMoneyIn(l.Lang, d)
		}
		if it.OldNum > 0 { // written as the prices forms write a held row's change
			r.DeltaPct = format.PercentIn(l.Lang, massupdate.GuardDelta{Old: it.OldNum, New: it.NewNum}.Permille())
		}
	}
	switch {
	case it.State == bulkjobs.ItemAccepted:
		r.Tone = "accepted"
	case it.State == bulkjobs.ItemRejected, it.State == bulkjobs.ItemUnsent, it.State == bulkjobs.ItemUnknown:
		r.Tone = "rejected"
	case it.State == bulkjobs.ItemHeld:
		r.Tone = "held"
	case it.Flag == bulkjobs.FlagInvalid:
		r.Tone = "invalid"
	case it.Flag == bulkjobs.FlagGuard:
		r.Tone = "guard"
	}
	r.Confirmable = j.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard
	if r.Doomed && r.Confirmable {
		r.Tone, r.FlagLabel = "invalid", i18n.T(ctx, "jobs.flag_doomed")
	}
	if r.Meanwhile && r.Confirmable {
		r.Tone, r.FlagLabel = "held", i18n.T(ctx, "jobs.flag_meanwhile")
	}
	if j.State != bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard {
		// Once submitted, say what became of the confirmation.
		r.FlagLabel = i18n.T(ctx, "jobs.flag_confirmed")
		if it.State == bulkjobs.ItemSkipped {
			r.FlagLabel = i18n.T(ctx, "jobs.flag_not_confirmed")
		}
		if r.Meanwhile && it.State == bulkjobs.ItemHeld {
			// Held because it was not confirmed on its own, for what
			// changed after its file was exported.
			r.FlagLabel, r.StateLabel = i18n.T(ctx, "jobs.flag_not_confirmed"), i18n.T(ctx, "jobs.flag_meanwhile")
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
	if msg, promo, below := splitPromotionMarks(it.Message); len(promo)+len(below) > 0 {
		r.Message, r.Promotion, r.PromoBelow = gridText(l, msg), gridText(l, promo), gridText(l, below)
	}
	return r
}

// splitPromotionMarks parts a row's messages into its own, the marks of
// its card's promotions and the mark of a price below a promotion's floor
// (massupdate.Previewer.MarkPromotions), which the grid shows apart.
func splitPromotionMarks(ms i18n.Msgs) (rest, promo, below i18n.Msgs) {
	for _, m := range ms {
		switch {
		case massupdate.IsPromotionBelow(m):
			below = append(below, m)
		case massupdate.IsPromotionMark(m):
			promo = append(promo, m)
		default:
			rest = append(rest, m)
		}
	}
	return rest, promo, below
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
