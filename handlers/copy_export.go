package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// The export of the whole filtered catalogue from the local copy: every
// record the URL's search and filters select, in its sort, read page by
// page (copystore.Store.ExportNomenclature: no database connection is held
// while the client takes a page) and written to the response through a
// sheets.Writer (CSV, or XLSX streamed), never the whole catalogue in
// memory. Whole-catalogue exports are few at once (a placeGate by copy): each walks
// the whole copy, and an XLSX one zips it, a core's work.

// Whole-catalogue export limits.
const (
	// maxConcurrentExports is how many whole-catalogue exports, CSV and
	// XLSX alike, the process runs at once: one per core of a small
	// machine, and the bulk read pool's size (sqldb.BulkReaders), so an
	// export never waits for a connection another one holds.
	maxConcurrentExports = 2
	// exportRetryAfter is the Retry-After, in seconds, of an export
	// refused for want of a place.
	exportRetryAfter = 5
	// exportStall is how long a download may go without the client taking
	// any of it. The export has no deadline of its own: a slow link that
	// keeps reading gets the whole catalogue, a client that stops reading
	// is cut off and its place given back.
	exportStall = time.Minute
)

// stallWriter is the response of a long download: before each write it
// moves the connection's write deadline exportStall ahead, so the
// server's WriteTimeout bounds a stall rather than the whole download.
type stallWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	moved time.Time
}

func (s *stallWriter) Write(p []byte) (int, error) {
	if now := time.Now(); now.Sub(s.moved) > time.Second {
		// Without a connection that takes deadlines (a test recorder)
		// the server's timeouts are all there is.
		_ = s.rc.SetWriteDeadline(now.Add(exportStall))
		s.moved = now
	}
	return s.w.Write(p)
}

// progressWriter is c's response as a stallWriter.
func progressWriter(c echo.Context) io.Writer {
	return &stallWriter{w: c.Response(), rc: http.NewResponseController(c.Response().Writer)}
}

// exportBusy answers an export refused for want of a place: 429 with
// Retry-After, as a page (which tries again by itself) or a flash
// fragment.
func (a *App) exportBusy(c echo.Context) error {
	ctx := c.Request().Context()
	a.writeError(c, pages.ErrorView{Status: http.StatusTooManyRequests, RequestID: requestIDOf(ctx), RetryIn: exportRetryAfter,
		Title: i18n.T(ctx, "export.copy.busy_title"), Message: i18n.T(ctx, "export.copy.busy")})
	return nil
}

// copyExportColumns are the export's columns: the catalogue key of each
// header and what the column holds. The Russian names of the warehouse,
// barcode, quantity and status columns are ones the stock import reads
// (bulkjobs.StockColumns), so an export can be edited and imported back in
// either language.
var copyExportColumns = []sheets.Column{{Name: i18n.K("export.copy.warehouse")}, {Name: i18n.K("export.copy.barcode")},
	{Name: i18n.K("export.copy.mp_sku")}, {Name: i18n.K("export.copy.seller_sku")}, {Name: i18n.K("export.copy.name")},
	{Name: i18n.K("export.copy.brand")}, {Name: i18n.K("export.copy.size")}, {Name: i18n.K("export.copy.status")},
	{Name: i18n.K("export.copy.quantity"), Kind: sheets.Number}, {Name: i18n.K("export.copy.price"), Kind: sheets.Money},
	{Name: i18n.K("export.copy.sale_price"), Kind: sheets.Money}, {Name: i18n.K("export.copy.price_status")}}

// copyExportHeader is the export's columns, named in the language of ctx.
func copyExportHeader(ctx context.Context) []sheets.Column {
	l := i18n.LangOf(ctx)
	out := make([]sheets.Column, len(copyExportColumns))
	for i, col := range copyExportColumns {
		out[i] = sheets.Column{Name: i18n.In(l, col.Name, nil, nil), Kind: col.Kind}
	}
	return out
}

// copyExportRow is the export row of a record, in copyExportColumns' order,
// its statuses by their labels (label, from statusLabels).
func copyExportRow(r *copystore.Record, row []string, label func(string) string) []string {
	price, sale, status := r.Price, r.SalePrice, r.PriceStatus
	if r.Pending != nil {
		price, sale, status = r.Pending.Price, r.Pending.SalePrice, "PROCESSING"
	}
	return append(row[:0], r.Warehouse, r.Barcode, r.MarketplaceSKU, r.SellerSKU, r.Name, r.Brand, r.Size, label(r.Status),
		strconv.Itoa(r.Quantity), format.MoneyInput(price), saleCell(price, sale), label(status))
}

// statusLabels labels marketplace statuses in the language of ctx, as
// the exports write them (the import reads a label back as its status,
// massupdate's stock preview); each label is looked up once an export.
func statusLabels(ctx context.Context) func(string) string {
	seen := map[string]string{}
	return func(status string) string {
		if status == "" {
			return ""
		}
		l, ok := seen[status]
		if !ok {
			l = i18n.Status(ctx, status)
			if len(seen) < 64 {
				seen[status] = l
			}
		}
		return l
	}
}

// NomenclatureExportAll streams every record of the filtered catalogue as
// CSV or XLSX (ext). It needs a full copy: before one exists it says so.
func (a *App) NomenclatureExportAll(c echo.Context, ext string) error {
	k := copyKey(c)
	release, ok := a.exports.enter(k)
	if !ok {
		return a.exportBusy(c)
	}
	defer release() // done, failed or the client gone
	// The copy's one place is held in the database, so that it holds
	// across instances.
	place, ok, err := a.deps.Catalog.Store().ExportPlace(c.Request().Context(), k)
	if err != nil {
		return errSessionStore(err)
	}
	if !ok {
		return a.exportBusy(c)
	}
	defer place()
	ok, err = a.fromCopy(c)
	if err != nil {
		return err
	}
	if !ok {
		return echo.NewHTTPError(http.StatusConflict, i18n.T(c.Request().Context(), "export.copy.not_ready"))
	}
	q := catalogQuery(c)
	cq := q.copyQuery()
	cs := a.deps.Catalog.Store()
	// Fail before the headers go out: a bad sort or a revoked copy.
	if _, err := cs.CountNomenclature(c.Request().Context(), k, cq); err != nil {
		if errors.Is(err, copystore.ErrRevoked) {
			return copyRevoked()
		}
		return err
	}
	if _, err := cs.Nomenclature(c.Request().Context(), k, copystore.Query{Sort: cq.Sort, Limit: 1}); errors.Is(err, copystore.ErrBadSort) {
		cq.Sort = ""
	}
	if err := a.saveSession(c); err != nil {
		return err
	}
	d := session(c).Data()
	name := sheets.DatedFileName(ext, a.today(c), "nomenclature", "seller-"+strconv.FormatInt(d.SellerID, 10), d.Environment, "all")
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", sheets.FormatOf(ext).ContentType())
	c.Response().WriteHeader(http.StatusOK)
	if ext == "xlsx" {
		err = a.streamXLSX(c, k, cq)
	} else {
		err = a.streamCSV(c, k, cq)
	}
	if err != nil {
		a.logger(c.Request().Context()).Warn("catalogue export stopped", "err", err)
		if c.Request().Context().Err() == nil {
			// The status is out: the connection is dropped unfinished, so
			// the browser reports a failed download instead of keeping a
			// file that silently lacks its end.
			panic(http.ErrAbortHandler)
		}
	}
	return nil
}

func (a *App) streamCSV(c echo.Context, k copystore.Key, cq copystore.Query) error {
	w := sheets.NewCSV(progressWriter(c))
	if err := w.Header(copyExportHeader(c.Request().Context())); err != nil {
		return err
	}
	row := make([]string, 0, len(copyExportColumns))
	label := statusLabels(c.Request().Context())
	err := a.deps.Catalog.Store().ExportNomenclature(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		row = copyExportRow(r, row, label)
		return w.Row(row...)
	})
	if ferr := w.Close(); err == nil {
		err = ferr
	}
	return err
}

func (a *App) streamXLSX(c echo.Context, k copystore.Key, cq copystore.Query) error {
	w, err := sheets.NewWriter(progressWriter(c), sheets.XLSX, i18n.T(c.Request().Context(), "export.copy.sheet"))
	if err != nil {
		return err
	}
	if err := w.Header(copyExportHeader(c.Request().Context())); err != nil {
		w.Close()
		return err
	}
	row := make([]string, 0, len(copyExportColumns))
	label := statusLabels(c.Request().Context())
	err = a.deps.Catalog.Store().ExportNomenclature(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		row = copyExportRow(r, row, label)
		return w.Row(row...)
	})
	if err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
