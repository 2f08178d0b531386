package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// BulkJobErrorsCSV downloads the rows not applied (invalid, rejected,
// unsent, held, unconfirmed) with their typed values and the reason, in a
// shape that can be fixed and imported again.
func (a *App) BulkJobErrorsCSV(c echo.Context) error {
	return a.jobCSV(c, true)
}

// BulkJobExportCSV downloads every row of a job with its answer and
// read-back (the history record of one job).
func (a *App) BulkJobExportCSV(c echo.Context) error {
	return a.jobCSV(c, false)
}

func (a *App) jobCSV(c echo.Context, errorsOnly bool) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	items, err := a.deps.Jobs.Store().Items(ctx, job.ID)
	if err != nil {
		return err
	}
	t := massupdate.JobRows(job, items, errorsOnly)
	header := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		header[i] = format.MessageIn(l, i18n.Of(col))
	}
	sheet := sheets.Sheet{Name: i18n.T(ctx, "import.sheet_rows"), Columns: sheets.Columns(header...)}
	for i, k := range t.Kinds {
		sheet.Columns[i].Kind = k
	}
	for _, cells := range t.Rows {
		row := make([]string, len(cells))
		for i, ms := range cells {
			row[i] = format.MessageIn(l, ms)
		}
		sheet.Rows = append(sheet.Rows, row)
	}
	what := "rows"
	if errorsOnly {
		what = "errors"
	}
	return a.sendSheet(c, sheet, "csv", sheets.DatedFileName("csv", a.today(c), "job", job.ID, job.Kind, what))
}
