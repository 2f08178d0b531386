package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/sellerdesk/sellerdesk/static"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// maxBodyBytes bounds a form post: a 10,000-row price form is about 1.5 MB.
const maxBodyBytes = "8M"

// routes lists every route and middleware of the dashboard in one place.
func (a *App) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = a.handleError

	e.Pre(a.requestID)
	e.Use(a.securityHeaders, a.logRequests, a.recoverPanics)

	// No session, no upstream call: for load balancers and uptime checks.
	e.GET("/healthz", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.String(http.StatusOK, "ok\n")
	})
	e.GET(static.Prefix+"*", echo.WrapHandler(static.Handler()))
	e.GET("/favicon.ico", echo.WrapHandler(static.Favicon()))

	// Every request with a body reads it first (see readBody), then gets
	// its marketplace budget (boundUpstream), then its session.
	body := e.Group("", middleware.BodyLimit(maxBodyBytes), a.readBody)
	pagesGroup := body.Group("", a.boundUpstream, a.loadSession)
	pagesGroup.GET(paths.Login, a.LoginForm)
	pagesGroup.POST(paths.Login, a.LoginSubmit)
	pagesGroup.POST(paths.Logout, a.Logout)
	a.registerLanguage(e, pagesGroup) // i18n: locale middleware and POST /settings/language (issue 18, handlers/language.go)

	app := pagesGroup.Group("", a.requireLogin)
	app.GET(paths.Overview, a.Overview)
	app.GET(paths.Orders, a.OrdersList)
	app.GET(paths.Order(":orderNr"), a.OrderDetail)
	app.POST(paths.OrdersResend, a.OrdersResend)
	app.GET(paths.Nomenclature, a.NomenclatureList)
	app.GET(paths.Prices, a.PricesList)
	app.GET(paths.ReturnBoxes, a.ReturnBoxesList)

	// The mass-update forms: bounded per chunk rather than per request
	// (see boundPerChunk), and their unsent edits survive a detour through
	// the login page (keepDraft).
	forms := body.Group("", a.boundPerChunk, a.loadSession, a.requireLogin)
	forms.POST(paths.Nomenclature, a.NomenclatureSubmit, keepDraft(draftNomenclature))
	forms.POST(paths.Prices, a.PricesSubmit, keepDraft(draftPrices))

	// Bulk import, jobs, exports and history: absent without a job runner.
	if a.deps.Jobs != nil {
		app.GET(paths.Export(paths.Prices, "csv"), func(c echo.Context) error { return a.exportView(c, "prices", "csv") })
		app.GET(paths.Export(paths.Prices, "xlsx"), func(c echo.Context) error { return a.exportView(c, "prices", "xlsx") })
		app.GET(paths.Export(paths.Nomenclature, "csv"), func(c echo.Context) error { return a.exportView(c, "nomenclature", "csv") })
		app.GET(paths.Export(paths.Nomenclature, "xlsx"), func(c echo.Context) error { return a.exportView(c, "nomenclature", "xlsx") })
		app.GET(paths.BulkImport, a.BulkImportForm)
		app.POST(paths.BulkImport, a.BulkImportUpload)
		app.GET(paths.Job(":id"), a.BulkJobPage)
		app.GET(paths.JobProgress(":id"), a.BulkJobProgress)
		app.POST(paths.JobSubmit(":id"), a.BulkJobSubmit)
		app.POST(paths.JobCancel(":id"), a.BulkJobCancel)
		app.POST(paths.JobRetry(":id"), a.BulkJobRetry)
		app.POST(paths.JobRevise(":id"), a.BulkJobRevise) // issue 17 item 8: a retry's values edited in its preview
		app.POST(paths.JobReadBack(":id"), a.BulkJobReadBack)
		app.GET(paths.JobErrorsCSV(":id"), a.BulkJobErrorsCSV)
		app.GET(paths.JobExportCSV(":id"), a.BulkJobExportCSV)
	}
	// The audit trail: read-only, no delete route (retention prunes it).
	if a.deps.Audit != nil {
		app.GET(paths.History, a.HistoryList)
		app.GET(paths.HistoryExportCSV, a.HistoryExportCSV)
	}

	// The local copy of the catalogue (issue 16, handlers/sync.go).
	app.GET(paths.SyncStatus, a.SyncStatus)
	app.POST(paths.SyncRefresh, a.SyncRefresh)
	app.POST(paths.SyncForget, a.SyncForget)
	// Whole-catalogue downloads read the local copy, not the marketplace:
	// no request budget, only a bound on a stalled client (exportStall).
	downloads := body.Group("", a.boundPerChunk, a.loadSession, a.requireLogin)
	downloads.GET(paths.ExportAll("csv"), func(c echo.Context) error { return a.NomenclatureExportAll(c, "csv") })
	downloads.GET(paths.ExportAll("xlsx"), func(c echo.Context) error { return a.NomenclatureExportAll(c, "xlsx") })
	if a.deps.TestHook != nil {
		app.GET("/_test/hook", a.deps.TestHook)
	}

	e.RouteNotFound("/*", func(c echo.Context) error { return echo.ErrNotFound })
	return e
}

// protect wraps the router in Go's cross-origin protection: a state-changing
// request that the browser marks cross-site (Sec-Fetch-Site) or whose Origin
// does not match the host is refused before any handler, session or upstream
// call runs.
func (a *App) protect(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.deps.Logger.WarnContext(r.Context(), "cross-origin request refused", "method", r.Method, "path", r.URL.Path)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("cross-origin request refused\n"))
	}))
	h = cop.Handler(h)
	// The security headers go on before anything else runs, so every
	// answer carries them: pages, errors, static files, refusals.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header())
		// Forwarding headers count only when a trusted proxy set them: a
		// client cannot claim HTTPS (Secure cookies) or another address.
		if !isTrusted(remoteAddr(r.RemoteAddr), a.deps.TrustedProxies) {
			r.Header.Del("X-Forwarded-For")
			r.Header.Del("X-Forwarded-Proto")
			r.Header.Del("Forwarded")
		}
		h.ServeHTTP(w, r)
	})
}
