package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkJobRetry makes a new preview of the rejected (and unsent) rows only,
// with the values as typed, checked against the catalogue as it is now.
func (a *App) BulkJobRetry(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	items, err := a.deps.Jobs.Store().Items(ctx, job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	retry, n, err := a.previewAgain(c, job, items, job.ID, nil, func(it bulkjobs.Item) bool {
		return it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent
	})
	if err != nil {
		return err
	}
	if n == 0 {
		session(c).AddFlash("info", i18n.T(ctx, "jobs.flash_nothing_to_retry"))
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	session(c).AddFlash("info", i18n.N(ctx, "jobs.flash_retry_ready", n))
	return a.redirect(c, at(c, paths.Job(retry)))
}

// maxEditedCell bounds one value edited in a retry's preview.
const maxEditedCell = 64

// BulkJobRevise checks the values edited in a retry's preview (a
// retried row is not re-sent as it was refused): its rows, with
// the edited cells, become a new preview, checked against the catalogue as
// it is now; nothing is sent until that preview is confirmed.
func (a *App) BulkJobRevise(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.State != bulkjobs.StatePreview || job.ParentID == "" {
		session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_only_retry"))
		return a.redirect(c, at(c, paths.Job(job.ID)))
	}
	form, err := postForm(c)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(c.Request().Context(), "jobs.form_unreadable"))
	}
	items, err := a.deps.Jobs.Store().Items(c.Request().Context(), job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	edits := map[int]map[string]string{}
	for _, it := range items {
		for _, f := range bulkjobs.EditFields(job.Kind) {
			name := "edit_" + strconv.Itoa(it.Seq) + "_" + f
			if vals, ok := form[name]; ok && len(vals) > 0 {
				if edits[it.Seq] == nil {
					edits[it.Seq] = map[string]string{}
				}
				v, _ := format.Short(vals[0], maxEditedCell)
				edits[it.Seq][f] = v
			}
		}
	}
	next, _, err := a.previewAgain(c, job, items, job.ParentID, edits, func(bulkjobs.Item) bool { return true })
	if err != nil {
		return err
	}
	session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_revised"))
	return a.redirect(c, at(c, paths.Job(next)))
}

// previewAgain makes a new preview job of the rows of job that keep
// passes, with their typed values (edits, by row, replace cells), checked
// against the catalogue as it is now. It returns the new job's id and its
// row count; no job is made for no rows.
func (a *App) previewAgain(c echo.Context, job bulkjobs.Job, items []bulkjobs.Item, parent string, edits map[int]map[string]string, keep func(bulkjobs.Item) bool) (string, int, error) {
	t, m := bulkjobs.RetryTable(job.Kind, items, edits, keep)
	if len(t.Rows) == 0 {
		return "", 0, nil
	}
	rows, err := a.preview(c, job.Kind, t, m)
	if err != nil {
		return "", 0, err
	}
	d := session(c).Data()
	next := &bulkjobs.Job{
		ID: newJobID(), Kind: job.Kind, State: bulkjobs.StatePreview, ClientID: d.ClientID, DisplayName: d.DisplayName,
		Environment: d.Environment, SellerID: d.SellerID, FileName: job.FileName, ParentID: parent,
		GuardPercent: a.deps.Jobs.GuardPercent(), ChunkSize: a.deps.Engine.Size(), CreatedAt: a.deps.Now(),
	}
	if err := a.deps.Jobs.Store().CreateJob(c.Request().Context(), next, rows); err != nil {
		return "", 0, errSessionStore(err)
	}
	return next.ID, len(rows), nil
}
