package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobRetry makes a new preview of the rejected (and unsent) rows only,
// with the values as typed, checked against the catalogue as it is now
// (massupdate.Imports.Retry).
func (a *App) BulkJobRetry(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	retry, err := a.importCases(c).Retry(ctx, job)
	if err != nil {
		return importError(err)
	}
	if retry == nil {
		session(c).AddFlash("info", i18n.T(ctx, "jobs.flash_nothing_to_retry"))
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	session(c).AddFlash("info", i18n.N(ctx, "jobs.flash_retry_ready", retry.Counts.Rows))
	return a.redirect(c, at(c, paths.Job(retry.ID)))
}

// maxEditedCell bounds one value edited in a retry's preview.
const maxEditedCell = 64

// BulkJobRevise checks the values edited in a retry's preview (a
// retried row is not re-sent as it was refused): its rows, with
// the edited cells, become a new preview, checked against the catalogue as
// it is now (massupdate.Imports.Revise); nothing is sent until that
// preview is confirmed.
func (a *App) BulkJobRevise(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if job.State != bulkjobs.StatePreview || job.ParentID == "" {
		session(c).AddFlash("info", i18n.T(ctx, "jobs.flash_only_retry"))
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	form, err := postForm(c)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "jobs.form_unreadable"))
	}
	edits := massupdate.EditsOf(form, func(v string) string { s, _ := format.Short(v, maxEditedCell); return s })
	next, err := a.importCases(c).Revise(ctx, job, edits)
	if err != nil {
		return importError(err)
	}
	if next == nil {
		// No rows to preview again (the store holds none): the job stays.
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	session(c).AddFlash("info", i18n.T(ctx, "jobs.flash_revised"))
	return a.redirect(c, at(c, paths.Job(next.ID)))
}
