package handlers

import (
	"context"
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
		{Value: massupdate.GridAll, Label: i18n.T(ctx, "jobs.filter_all")}, {Value: massupdate.GridProblems, Label: i18n.T(ctx, "jobs.filter_problems")},
		{Value: massupdate.GridSend, Label: i18n.T(ctx, "jobs.filter_send")},
	}
}

// jobView is the job page of j with its rows items filtered by show
// (massupdate.JobGrid), in the language of ctx.
func (a *App) jobView(ctx context.Context, j bulkjobs.Job, items []bulkjobs.Item, show string) pages.JobView {
	c := j.Counts
	l := format.LocaleOf(ctx)
	g := massupdate.JobGrid(j, items, show)
	v := pages.JobView{
		ID: j.ID, Kind: j.Kind, KindLabel: jobTitleIn(ctx, j), FileName: j.FileName, Who: j.Who(), ClientID: j.ClientID, Environment: i18n.Env(ctx, j.Environment),
		Created: format.DateTimeIn(l, j.CreatedAt), Preview: j.State == bulkjobs.StatePreview, Active: j.Active(), GuardPercent: j.GuardPercent,
		StopReason: format.MessageIn(l, j.StopReason), ReadBack: format.MessageIn(l, bulkjobs.ReadBackLine(j)), Filter: show, Filters: jobFilters(ctx), RowsTotal: g.Total,
		Progress: a.progress(ctx, j),
		Counts: pages.JobCounts{
			Rows: c.Rows, ToSend: c.OK + c.Guard, Unchanged: c.Unchanged, Invalid: c.Invalid, Guard: c.Guard,
			Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
			Held: c.Held, Skipped: c.Skipped, Queued: c.Queued, Confirmed: c.Confirmed, Processing: c.Processing, Different: c.Different,
			Doomed: g.Doomed, Meanwhile: g.Meanwhile,
		},
		CanRetry: g.CanRetry, CanReadBack: g.CanReadBack, CanDelete: g.CanDelete, Editable: g.Editable, EditFields: g.EditFields,
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
	for _, r := range g.Rows {
		v.Rows = append(v.Rows, gridRow(l, j.Kind, r))
	}
	v.RowsShown = len(v.Rows)
	return v
}

// jobRow is row it of job j as the grid shows it, in the language of ctx.
func jobRow(ctx context.Context, j bulkjobs.Job, it bulkjobs.Item) pages.JobRow {
	return gridRow(format.LocaleOf(ctx), j.Kind, massupdate.GridRowOf(j, it))
}

// gridRow writes a grid row of a job of kind in locale l: the dashboard's
// words in the reader's language, the marketplace's as sent (its numbers
// too, so no Russian amount lands in an English sentence), the
// dashboard's amounts written the reader's way.
func gridRow(l format.Locale, kind string, g massupdate.GridRow) pages.JobRow {
	it := g.Item
	r := pages.JobRow{
		Seq: it.Seq, Line: it.Line, Key: g.Key, Old: orDash(format.MessageIn(l, it.OldText)), New: orDash(format.MessageIn(l, it.NewText)),
		Flag: it.Flag, FlagLabel: format.MessageIn(l, i18n.Of(g.FlagLabel)), State: it.State, StateLabel: format.MessageIn(l, i18n.Of(g.StateLabel)),
		Message: format.GridMessageIn(l, g.Message), Promotion: format.GridMessageIn(l, g.Promotion), PromoBelow: format.GridMessageIn(l, g.PromoBelow),
		ReadBack: it.ReadBack, ReadLabel: format.MessageIn(l, i18n.Of(g.ReadLabel)), ReadText: format.MessageIn(l, it.ReadBackText), ReadTone: g.ReadTone,
		Name: g.Name, Tone: g.Tone, Confirmable: g.Confirmable, Doomed: g.Doomed, Meanwhile: g.Meanwhile, Edit: g.Edit,
	}
	if it.HasNum {
		d := g.Change.New - g.Change.Old
		if kind == "stock" {
			r.Delta = strings.Replace(fmt.Sprintf("%+d", d), "-", "−", 1) // the minus sign, as the grid's amounts
		} else {
			sign := "+"
			if d < 0 {
				sign, d = "−", -d
			}
			r.Delta = sign + format.GridMoneyIn(l.Lang, d)
		}
		if g.Change.Old > 0 {
			r.DeltaPct = format.PercentIn(l.Lang, g.Change.Permille())
		}
	}
	return r
}

// shownKey is a row's key as the pages show it (the grid's and the
// history's).
var shownKey = massupdate.ShownKey

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
