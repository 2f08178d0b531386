package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	return a.importPage(c, http.StatusOK, c.QueryParam("kind"), "")
}

// importPage renders the upload form of kind with status and the error
// msg ("" for none).
func (a *App) importPage(c echo.Context, status int, kind, msg string) error {
	f := pages.ImportForm{Kind: kind, Error: msg, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, status, pages.ImportPage(a.chrome(c, i18n.T(c.Request().Context(), "import.title"), "bulk"), f), nil)
}

func (a *App) importFailed(c echo.Context, kind, msg string) error {
	return a.importPage(c, http.StatusUnprocessableEntity, kind, msg)
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
	data, err := bulkjobs.ReadUpload(fh, maxImportBytes)
	if errors.Is(err, bulkjobs.ErrTooLarge) {
		return a.importFailed(c, kind, i18n.TD(ctx, "import.too_large", map[string]any{"MB": maxImportBytes >> 20}))
	}
	if err != nil {
		return a.importFailed(c, kind, i18n.T(ctx, "import.unreadable"))
	}
	release, ok := a.imports.enter(session(c).Data().SellerID)
	if !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(importRetryAfter))
		return a.importPage(c, http.StatusTooManyRequests, kind, i18n.T(ctx, "import.busy"))
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
