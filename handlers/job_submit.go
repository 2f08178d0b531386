package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobSubmit turns a preview into a running job: rows whose current
// value changed since the preview are held back, guarded rows are sent
// only when confirmed here (the page's checkboxes are a convenience, this
// is the check), and the rest are queued in chunks for the runner.
func (a *App) BulkJobSubmit(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.State != bulkjobs.StatePreview {
		session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_already"))
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	form, err := postForm(c)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(c.Request().Context(), "jobs.form_unreadable"))
	}
	confirmAll := form.Get("confirm_all") != ""
	confirmed := map[int]bool{}
	for _, v := range form["confirm"] {
		if n, err := strconv.Atoi(v); err == nil {
			confirmed[n] = true
		}
	}
	ctx := c.Request().Context()
	store := a.deps.Jobs.Store()
	items, err := store.Items(ctx, job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	sess := session(c)
	cat, err := a.previewCatalog(c, massupdate.WantItems(job.Kind, queueable(items)))
	if err != nil {
		return err
	}
	queued := 0
	for i := range items {
		it := &items[i]
		switch it.Flag {
		case bulkjobs.FlagOK, bulkjobs.FlagGuard:
		default:
			it.State = bulkjobs.ItemSkipped
			continue
		}
		if massupdate.Doomed(job.Kind, *it) && !confirmed[it.Seq] {
			// The marketplace's known rule refuses it;
			// "confirm all" does not cover it, only its own checkbox.
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_doomed", map[string]any{"Limit": strconv.Itoa(massupdate.MarketDropLimit)}))
			continue
		}
		if massupdate.ChangedMeanwhile(*it) && !confirmed[it.Seq] {
			// It would undo a change made after its file was exported;
			// "confirm all" does not cover it, only its own checkbox.
			it.State, it.Message = bulkjobs.ItemHeld, i18n.Join(massupdate.MeanwhileMessage(*it), i18n.Of(i18n.M("jobs.held_meanwhile", nil)))
			continue
		}
		if it.Flag == bulkjobs.FlagGuard && !confirmAll && !confirmed[it.Seq] {
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_guard", map[string]any{"Guard": strconv.Itoa(job.GuardPercent)}))
			continue
		}
		if now, changed := massupdate.CurrentChanged(job.Kind, *it, cat); changed {
			it.State = bulkjobs.ItemHeld
			it.Message = i18n.Of(i18n.M("jobs.held", map[string]any{"Was": it.OldText, "Now": now}))
			continue
		}
		it.State, it.Chunk = bulkjobs.ItemQueued, queued/job.ChunkSize
		queued++
	}
	d := sess.Data()
	job.SessionRef = sess.ID()
	job.ClientID, job.DisplayName = d.ClientID, d.DisplayName
	job.Chunks = (queued + job.ChunkSize - 1) / job.ChunkSize
	job.SubmittedAt = a.deps.Now()
	job.State = bulkjobs.StateQueued
	if queued == 0 {
		job.State, job.FinishedAt, job.StopReason = bulkjobs.StateDone, job.SubmittedAt, i18n.Of(i18n.M("jobs.nothing_sent", nil))
	}
	if err := store.Save(ctx, &job, items); err != nil {
		return errSessionStore(err)
	}
	a.deps.Jobs.Kick(job.ID)
	a.logger(ctx).Info("bulk job submitted", "job", job.ID, "kind", job.Kind, "queued", queued, "chunks", job.Chunks)
	return a.redirect(c, at(c, paths.Job(job.ID)))
}

// errJobNotFound is a job that is not there or not the seller's.
func errJobNotFound(c echo.Context) error {
	return echo.NewHTTPError(http.StatusNotFound, i18n.T(c.Request().Context(), "jobs.not_found"))
}

// ownJob loads the job named in the URL if it belongs to the logged-in
// seller; anyone else's job is "not found".
func (a *App) ownJob(c echo.Context) (bulkjobs.Job, error) {
	j, err := a.deps.Jobs.Store().Job(c.Request().Context(), c.Param("id"))
	if errors.Is(err, bulkjobs.ErrNotFound) {
		return bulkjobs.Job{}, errJobNotFound(c)
	}
	if err != nil {
		return bulkjobs.Job{}, errSessionStore(err)
	}
	// A job belongs to one seller in one environment: a test-environment
	// login must not see or drive a production job of the same seller.
	if d := session(c).Data(); j.SellerID != d.SellerID || j.Environment != d.Environment {
		return bulkjobs.Job{}, errJobNotFound(c)
	}
	return j, nil
}
