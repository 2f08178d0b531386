package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// BulkImportForm shows the upload form.
func (a *App) BulkImportForm(c echo.Context) error {
	f := pages.ImportForm{Kind: c.QueryParam("kind"), GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusOK, pages.ImportPage(a.chrome(c, i18n.T(c.Request().Context(), "import.title"), "bulk"), f), nil)
}

func (a *App) importFailed(c echo.Context, kind, msg string) error {
	f := pages.ImportForm{Kind: kind, Error: msg, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusUnprocessableEntity, pages.ImportPage(a.chrome(c, i18n.T(c.Request().Context(), "import.title"), "bulk"), f), nil)
}

// BulkImportUpload reads an uploaded file, checks every row against the
// current catalogue and stores the preview as a job not yet submitted.
func (a *App) BulkImportUpload(c echo.Context) error {
	kind := postValue(c, "kind")
	ctx := c.Request().Context()
	fh, err := c.FormFile("file")
	if err != nil {
		return a.importFailed(c, kind, i18n.T(ctx, "import.choose_file"))
	}
	if fh.Size > maxImportBytes {
		return a.importFailed(c, kind, i18n.TD(ctx, "import.too_large", map[string]any{"MB": maxImportBytes >> 20}))
	}
	f, err := fh.Open()
	if err != nil {
		return a.importFailed(c, kind, i18n.T(ctx, "import.unreadable"))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	f.Close()
	if err != nil || len(data) > maxImportBytes {
		return a.importFailed(c, kind, i18n.T(ctx, "import.unreadable"))
	}
	release, ok := a.imports.enter(session(c).Data().SellerID)
	if !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(importRetryAfter))
		f := pages.ImportForm{Kind: kind, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20,
			Error: i18n.T(ctx, "import.busy")}
		return a.render(c, http.StatusTooManyRequests, pages.ImportPage(a.chrome(c, i18n.T(ctx, "import.title"), "bulk"), f), nil)
	}
	if a.imports.held != nil {
		a.imports.held()
	}
	pctx, cancel := context.WithTimeout(c.Request().Context(), importParseBudget)
	table, err := bulkjobs.ReadTableContext(pctx, data)
	cancel()
	release()
	if err != nil {
		return a.importFailed(c, kind, i18n.TD(ctx, "import.unreadable_why", map[string]any{"Why": bulkjobs.Words(i18n.LangOf(ctx), err)}))
	}
	name := format.Clean(fh.Filename)
	if len(name) > 200 {
		name = name[:200]
	}
	job, err := a.importCases(c).File(ctx, kind, name, table)
	var he *massupdate.HeaderError
	if errors.As(err, &he) {
		msgs := make([]string, len(he.Problems))
		for i, p := range he.Problems {
			msgs[i] = p.In(i18n.LangOf(ctx))
		}
		return a.importFailed(c, he.Kind, i18n.TD(ctx, "import.bad_header", map[string]any{"Why": strings.Join(msgs, "; ")}))
	}
	if err != nil {
		return importError(err)
	}
	a.logger(ctx).Info("bulk import previewed", "job", job.ID, "kind", job.Kind, "rows", job.Counts.Rows)
	return a.redirect(c, at(c, paths.Job(job.ID)))
}

func newJobID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
