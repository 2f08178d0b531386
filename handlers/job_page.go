package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobPage shows a job: the preview grid with its confirmations before
// submission, then progress and per-row results.
func (a *App) BulkJobPage(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	items, err := a.deps.Jobs.Store().Items(c.Request().Context(), job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	ctx := c.Request().Context()
	v := a.jobView(ctx, job, items, c.QueryParam("show"))
	ch := a.chrome(c, jobTitleIn(ctx, job), "bulk")
	return a.render(c, http.StatusOK, pages.JobPage(ch, v), nil)
}

// jobTitleIn is the kind of job in the language of ctx.
func jobTitleIn(ctx context.Context, j bulkjobs.Job) string {
	return bulkjobs.Title(j).In(i18n.LangOf(ctx), nil)
}

// BulkJobProgress is the progress fragment htmx polls every second. When a
// job the page was polling has finished, the page reloads to show results.
func (a *App) BulkJobProgress(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	p := a.progress(c.Request().Context(), job)
	if !p.Active && c.QueryParam("polling") == "1" && isHTMX(c.Request()) {
		c.Response().Header().Set("HX-Refresh", "true")
	}
	return a.render(c, http.StatusOK, pages.JobProgressPage(a.chrome(c, jobTitleIn(c.Request().Context(), job), "bulk"), p), pages.JobProgressBlock(p))
}

func (a *App) progress(ctx context.Context, j bulkjobs.Job) pages.JobProgress {
	c := j.Counts
	pr := bulkjobs.ProgressOf(j, a.deps.Jobs.Live(j.ID))
	p := pages.JobProgress{
		ID: j.ID, Active: j.Active(), Done: pr.Done, Total: pr.Total, Percent: pr.Percent,
		Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
		CancelRequested: j.CancelRequested,
		PollURL:         paths.In(ctx, paths.JobProgress(j.ID)) + "?polling=1", CancelURL: paths.In(ctx, paths.JobCancel(j.ID)),
	}
	p.StateLabel, p.Tone = jobStateLabel(ctx, j)
	if !pr.WaitUntil.IsZero() {
		p.Waiting = i18n.TD(ctx, "jobs.waiting", map[string]any{"Status": pr.Status, "At": format.ClockIn(format.LocaleOf(ctx), pr.WaitUntil)})
	}
	return p
}

// jobStateLabel is the job's state in words, in the language of ctx, and
// its badge's tone (bulkjobs.StateLabel).
func jobStateLabel(ctx context.Context, j bulkjobs.Job) (string, string) {
	m, tone := bulkjobs.StateLabel(j)
	return format.Message(ctx, i18n.Of(m)), tone
}
