package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/flash"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobCancel asks the runner to stop after the chunk in flight.
func (a *App) BulkJobCancel(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.Active() {
		if err := a.deps.Jobs.Store().RequestCancel(c.Request().Context(), job.ID); err != nil {
			return err
		}
		session(c).AddFlash(flash.Info, i18n.T(c.Request().Context(), "jobs.flash_cancelling"))
	}
	return a.redirect(c, at(c, paths.Job(job.ID)))
}

// BulkJobReadBack re-reads the job's rows from the marketplace now.
func (a *App) BulkJobReadBack(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if err := a.deps.Jobs.RequestReadBack(c.Request().Context(), job.ID); err != nil {
		return err
	}
	session(c).AddFlash(flash.Info, i18n.T(c.Request().Context(), "jobs.flash_reading_back"))
	return a.redirect(c, at(c, paths.Job(job.ID)))
}
