package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobSubmit turns a preview into a running job as the form confirms
// its rows (massupdate.Submit: the page's checkboxes are a convenience,
// this is the check), for the runner to send.
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
	ctx := c.Request().Context()
	queued, err := a.importCases(c).Submit(ctx, &job, massupdate.ConfirmationsOf(form))
	if err != nil {
		return importError(err)
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
