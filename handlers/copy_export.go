package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
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
	exp, err := a.seller(c).PrepareExport(c.Request().Context(), catalogQuery(c).reads())
	switch {
	case errors.Is(err, browse.ErrNotReady):
		return echo.NewHTTPError(http.StatusConflict, i18n.T(c.Request().Context(), "export.copy.not_ready"))
	case errors.Is(err, copystore.ErrRevoked):
		return copyRevoked()
	case err != nil:
		return err
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
	ctx := c.Request().Context()
	err = exp.Write(ctx, progressWriter(c), sheets.FormatOf(ext), i18n.T(ctx, "export.copy.sheet"), localColumns(ctx, browse.CopyExportColumns), statusLabels(ctx))
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
