package handlers

import (
	"encoding/json"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
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
	fields := []string{"sku", "price", "sale", "start", "end"}
	header := []string{i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"),
		i18n.T(ctx, "import.col_sale_start"), i18n.T(ctx, "import.col_sale_end")}
	if job.Kind == "stock" {
		fields = []string{"warehouse", "barcode", "quantity", "status"}
		header = []string{i18n.T(ctx, "import.col_warehouse"), i18n.T(ctx, "import.col_barcode"), i18n.T(ctx, "import.col_quantity"), i18n.T(ctx, "import.col_status")}
	}
	header = append(header, i18n.T(ctx, "import.col_file_row"), i18n.T(ctx, "import.col_before"), i18n.T(ctx, "import.col_after"),
		i18n.T(ctx, "import.col_preview"), i18n.T(ctx, "import.col_result"), i18n.T(ctx, "import.col_message"),
		i18n.T(ctx, "import.col_read_back"), i18n.T(ctx, "import.col_read_back_value"))
	sheet := sheets.Sheet{Name: i18n.T(ctx, "import.sheet_rows"), Columns: sheets.Columns(header...)}
	for i, f := range fields {
		switch f {
		case "price", "sale":
			sheet.Columns[i].Kind = sheets.Money
		case "quantity":
			sheet.Columns[i].Kind = sheets.Number
		}
	}
	sheet.Columns[len(fields)].Kind = sheets.Number // the file row
	for _, it := range items {
		bad := it.Flag == bulkjobs.FlagInvalid || it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent ||
			it.State == bulkjobs.ItemHeld || (it.State == bulkjobs.ItemSkipped && it.Flag == bulkjobs.FlagGuard) ||
			(job.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard)
		if errorsOnly && !bad {
			continue
		}
		var typed map[string]string
		_ = json.Unmarshal([]byte(it.Typed), &typed)
		row := make([]string, 0, len(header))
		for _, f := range fields {
			row = append(row, typed[f])
		}
		// The dashboard's words (flag, state, read-back, its messages) in
		// the reader's language, the marketplace's as sent.
		row = append(row, strconv.Itoa(it.Line), format.MessageIn(l, it.OldText), format.MessageIn(l, it.NewText),
			label(ctx, flagLabels, it.Flag), label(ctx, itemLabels, it.State), format.MessageIn(l, it.Message),
			readLabel(ctx, it.ReadBack), format.MessageIn(l, it.ReadBackText))
		sheet.Rows = append(sheet.Rows, row)
	}
	what := "rows"
	if errorsOnly {
		what = "errors"
	}
	return a.sendSheet(c, sheet, "csv", sheets.DatedFileName("csv", a.today(c), "job", job.ID, job.Kind, what))
}
