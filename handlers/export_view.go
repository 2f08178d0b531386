package handlers

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// exportAllParam (paths.ExportWhole) asks a page export for every record of the filtered
// catalogue instead of the page on screen: the import page's "start from
// your current data" links, whose files are meant to be edited and
// imported back whole.
const exportAllParam = "all"

// exportView writes the page on screen of /prices or /nomenclature as CSV
// or XLSX: its search, sort and filters, page and limit, from the local
// copy or live as the page itself is read; with all=1 every record of the
// filtered catalogue, up to the rows an import reads
// (bulkjobs.MaxImportRows). The rows are browse.Seller.ExportRows'.
func (a *App) exportView(c echo.Context, view, ext string) error {
	q := catalogQuery(c)
	if view == "prices" {
		q = pricesQuery(c)
	}
	all := c.QueryParam(exportAllParam) == "1"
	ctx := c.Request().Context()
	sheet := browse.NomenclatureSheet
	if view == "prices" {
		sheet = browse.PricesSheet
	}
	rows, page, err := a.seller(c).ExportRows(ctx, q.reads(), view == "prices", all, bulkjobs.MaxImportRows, statusLabels(ctx))
	switch {
	case errors.Is(err, browse.ErrExportFull):
		return echo.NewHTTPError(http.StatusUnprocessableEntity,
			i18n.TD(ctx, "export.too_many_rows", map[string]any{"Rows": format.ThousandsIn(i18n.LangOf(ctx), bulkjobs.MaxImportRows)}))
	case err != nil:
		return err
	}
	d := session(c).Data()
	parts := []string{view, "seller-" + strconv.FormatInt(d.SellerID, 10), d.Environment}
	if all {
		parts = append(parts, "all")
	} else {
		parts = append(parts, "page-"+strconv.Itoa(page), "limit-"+strconv.Itoa(q.Limit))
	}
	out := sheets.Sheet{Name: i18n.In(i18n.LangOf(ctx), sheet.Name, nil, nil), Columns: localColumns(ctx, sheet.Columns), Rows: rows} // keys checked where written (i18n.K)
	return a.sendSheet(c, out, ext, sheets.DatedFileName(ext, a.today(c), parts...))
}

// localColumns are cols, named by catalogue keys, in the language of ctx.
func localColumns(ctx context.Context, cols []sheets.Column) []sheets.Column {
	l := i18n.LangOf(ctx)
	out := make([]sheets.Column, len(cols))
	for i, col := range cols {
		out[i] = sheets.Column{Name: i18n.In(l, col.Name, nil, nil), Kind: col.Kind} // keys checked where written (i18n.K)
	}
	return out
}

// exportQuery is the query of the export links of a /prices or
// /nomenclature page: its search, sort and filters, page and limit.
func (a *App) exportQuery(q listQuery) string {
	v := q.values()
	v.Del("cursor") // the page number places the page alone
	v.Set("page", strconv.Itoa(q.Page))
	v.Set("limit", strconv.Itoa(q.Limit))
	return "?" + v.Encode()
}

// sendSheet answers with a sheet as a download.
func (a *App) sendSheet(c echo.Context, sheet sheets.Sheet, ext, name string) error {
	var buf bytes.Buffer
	f := sheets.FormatOf(ext)
	if err := sheets.Write(&buf, f, sheet); err != nil {
		return err
	}
	a.leaveLocal(c) // read and written: the copy's gate is not held while the client downloads
	if err := a.saveSession(c); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, f.ContentType(), buf.Bytes())
}
