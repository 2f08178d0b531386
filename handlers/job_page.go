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
	live := a.deps.Jobs.Live(j.ID)
	c := j.Counts
	total := c.ToSend()
	done := c.Sent() + c.Unsent
	p := pages.JobProgress{
		ID: j.ID, Active: j.Active(), Done: done, Total: total,
		Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
		CancelRequested: j.CancelRequested,
		PollURL:         paths.In(ctx, paths.JobProgress(j.ID)) + "?polling=1", CancelURL: paths.In(ctx, paths.JobCancel(j.ID)),
	}
	if total > 0 {
		p.Percent = done * 100 / total
	} else if !p.Active {
		p.Percent = 100
	}
	p.StateLabel, p.Tone = jobStateLabel(ctx, j)
	wait, status := live.WaitUntil, live.Status
	if wait.IsZero() && j.State == bulkjobs.StateWaiting {
		wait, status = j.WaitUntil, 429
	}
	if !wait.IsZero() && p.Active {
		if status == 0 {
			status = 429
		}
		p.Waiting = i18n.TD(ctx, "jobs.waiting", map[string]any{"Status": status, "At": format.ClockIn(format.LocaleOf(ctx), wait)})
	}
	return p
}

// jobStateLabel is the job's state in words, in the language of ctx, and
// its badge's tone.
func jobStateLabel(ctx context.Context, j bulkjobs.Job) (string, string) {
	switch j.State {
	case bulkjobs.StatePreview:
		return i18n.T(ctx, "jobs.state_preview"), "info"
	case bulkjobs.StateQueued:
		return i18n.T(ctx, "jobs.state_queued"), "info"
	case bulkjobs.StateRunning:
		if j.CancelRequested {
			return i18n.T(ctx, "jobs.state_cancelling"), "warn"
		}
		return i18n.T(ctx, "jobs.state_sending"), "info"
	case bulkjobs.StateWaiting:
		return i18n.T(ctx, "jobs.state_waiting"), "warn"
	case bulkjobs.StateDone:
		if j.Counts.Rejected > 0 || j.Counts.Unsent > 0 {
			return i18n.T(ctx, "jobs.state_done_problems"), "warn"
		}
		return i18n.T(ctx, "jobs.state_done"), "ok"
	case bulkjobs.StateCancelled:
		return i18n.T(ctx, "jobs.state_cancelled"), "warn"
	case bulkjobs.StateStopped:
		return i18n.T(ctx, "jobs.state_stopped"), "bad"
	}
	return j.State, ""
}

// envLabel names an environment in the language of ctx.
func envLabel(ctx context.Context, env string) string {
	switch env {
	case "production":
		return i18n.T(ctx, "env.production")
	case "test":
		return i18n.T(ctx, "env.test")
	}
	return env
}

func whoText(j bulkjobs.Job) string {
	if j.DisplayName != "" {
		return j.DisplayName + " (" + j.ClientID + ")"
	}
	return j.ClientID
}

// readBackLineIn is the read-back status line in locale l.
func readBackLineIn(l format.Locale, j bulkjobs.Job) string {
	return format.MessageIn(l, bulkjobs.ReadBackLine(j))
}
