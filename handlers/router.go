package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/sellerdesk/sellerdesk/httpx/budget"
	"github.com/sellerdesk/sellerdesk/httpx/formbody"
	"github.com/sellerdesk/sellerdesk/httpx/probe"
	"github.com/sellerdesk/sellerdesk/httpx/realip"
	"github.com/sellerdesk/sellerdesk/httpx/reqlog"
	"github.com/sellerdesk/sellerdesk/httpx/secure"
	"github.com/sellerdesk/sellerdesk/internal/httpzip"
	"github.com/sellerdesk/sellerdesk/static"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// maxBodyBytes bounds a form post: a 10,000-row price form is about 1.5 MB.
const maxBodyBytes = "8M"

// Pages, fragments, CSV and JSON are gzipped at the fastest level (a
// page costs well under a millisecond more, and shrinks about tenfold)
// once they pass a kilobyte.
const (
	compressLevel = 1
	compressMin   = 1024
)

// uncompressed are the routes the compression leaves alone: the probes
// (plain "ok" for load balancers) and the static files, which carry their
// own compressed copies.
func uncompressed(c echo.Context) bool {
	switch c.Path() {
	case "/healthz", "/readyz", static.Prefix + "*", "/favicon.ico":
		return true
	}
	return false
}

// routes lists every route and middleware of the dashboard in one place.
func (a *App) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = a.handleError

	e.Pre(reqlog.RequestID(a.deps.Logger))
	// Compression runs inside the access line, which so reads both the
	// page's size and what went on the wire (httpzip.WireBytes), and
	// outside the panic recovery, so an error page is compressed like any
	// page.
	e.Use(secure.Middleware, reqlog.Access(a.deps.Logger, reqlog.AccessOptions{WireBytes: httpzip.WireBytes, Observe: a.observeRequest}),
		httpzip.Middleware(httpzip.Config{Level: compressLevel, MinLength: compressMin, Skip: uncompressed}),
		reqlog.Recover(a.deps.Logger))

	// No session, no upstream call: for load balancers and uptime checks.
	e.GET("/healthz", probe.Live)
	e.GET("/readyz", probe.Ready(a.deps.Ready, a.logger)) // the database answers and no shutdown has begun
	e.GET(static.Prefix+"*", echo.WrapHandler(static.Handler()))
	e.GET("/favicon.ico", echo.WrapHandler(static.Favicon()))

	// Every request with a body reads it first, under its own deadline
	// (formbody.Read: a slow client is a 408, never "the marketplace is
	// slow"), then gets its marketplace budget (Deps.UpstreamTimeout),
	// then its session.
	body := e.Group("", middleware.BodyLimit(maxBodyBytes), formbody.Read(a.deps.BodyReadTimeout))
	pagesGroup := body.Group("", budget.Middleware(a.deps.UpstreamTimeout), a.loadSession)
	pagesGroup.GET(paths.Login, a.LoginForm)
	pagesGroup.POST(paths.Login, a.LoginSubmit)
	pagesGroup.POST(paths.Logout, a.Logout)
	a.registerLanguage(e, pagesGroup) // i18n: locale middleware and POST /settings/language (handlers/language.go)

	// The session's accounts: listed, added and removed outside any one.
	accounts := pagesGroup.Group("", a.requireLogin)
	accounts.GET(paths.Accounts, a.AccountsPage)
	accounts.POST(paths.Accounts, a.AccountAdd)
	accounts.POST(paths.AccountRemove(":account"), a.AccountRemove)

	// Every page and form of an account lives under a path naming it
	// (paths.AccountPrefix): requireAccount refuses an account the session
	// does not hold before anything else runs. The same paths without the
	// prefix lead to the current account's (accountRedirect).
	app := pagesGroup.Group(paths.AccountPrefix, a.localScope, a.requireAccount, a.requireLogin)
	forms := body.Group(paths.AccountPrefix, budget.Middleware(0), a.loadSession, a.requireAccount, a.requireLogin)
	legacy := pagesGroup.Group("", a.requireLogin)
	for _, r := range a.accountRoutes() {
		g := app
		if r.ownBound {
			g = forms
		}
		g.Add(r.method, r.path, r.handler, r.middleware...)
		legacy.Add(r.method, r.path, a.accountRedirect)
	}
	if a.deps.TestHook != nil {
		pagesGroup.GET("/_test/hook", a.deps.TestHook, a.requireLogin)
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
		secure.Headers(w.Header())
		// Forwarding headers count only when a trusted proxy set them.
		realip.DropUntrustedForwarding(r, a.deps.TrustedProxies)
		h.ServeHTTP(w, r)
	})
}

// accountRoute is one route of an account's pages, registered under
// paths.AccountPrefix.
type accountRoute struct {
	method, path string
	handler      echo.HandlerFunc
	middleware   []echo.MiddlewareFunc
	// ownBound marks the routes bounded by their own means rather than
	// the request's marketplace budget: the mass-update forms per chunk
	// (massupdate.Send; their page reload by pageContext), the whole-catalogue downloads, which
	// read the local copy, by a stalled client (exportStall).
	ownBound bool
}

// accountRoutes lists the routes of an account's pages.
func (a *App) accountRoutes() []accountRoute {
	get := func(p string, h echo.HandlerFunc) accountRoute {
		return accountRoute{method: http.MethodGet, path: p, handler: h}
	}
	post := func(p string, h echo.HandlerFunc) accountRoute {
		return accountRoute{method: http.MethodPost, path: p, handler: h}
	}
	return []accountRoute{
		get(paths.Overview, a.Overview),
		get(paths.Orders, a.OrdersList),
		get(paths.Order(":orderNr"), a.OrderDetail),
		post(paths.OrdersResend, a.OrdersResend),
		get(paths.Nomenclature, a.NomenclatureList),
		get(paths.Prices, a.PricesList),
		get(paths.ReturnBoxes, a.ReturnBoxesList),
		get(paths.Promotions, a.PromotionsList),
		get(paths.Product(":sku"), a.ProductPage),
		// The mass-update forms keep their unsent edits through a detour
		// via the login page (keepDraft).
		{method: http.MethodPost, path: paths.Nomenclature, handler: a.NomenclatureSubmit, middleware: []echo.MiddlewareFunc{keepDraft(draftNomenclature)}, ownBound: true},
		{method: http.MethodPost, path: paths.Prices, handler: a.PricesSubmit, middleware: []echo.MiddlewareFunc{keepDraft(draftPrices)}, ownBound: true},
		// Bulk import, jobs and exports.
		get(paths.Export(paths.Prices, "csv"), func(c echo.Context) error { return a.exportView(c, "prices", "csv") }),
		get(paths.Export(paths.Prices, "xlsx"), func(c echo.Context) error { return a.exportView(c, "prices", "xlsx") }),
		get(paths.Export(paths.Nomenclature, "csv"), func(c echo.Context) error { return a.exportView(c, "nomenclature", "csv") }),
		get(paths.Export(paths.Nomenclature, "xlsx"), func(c echo.Context) error { return a.exportView(c, "nomenclature", "xlsx") }),
		get(paths.BulkImport, a.BulkImportForm),
		post(paths.BulkImport, a.BulkImportUpload),
		get(paths.Job(":id"), a.BulkJobPage),
		get(paths.JobProgress(":id"), a.BulkJobProgress),
		post(paths.JobSubmit(":id"), a.BulkJobSubmit),
		post(paths.JobCancel(":id"), a.BulkJobCancel),
		post(paths.JobRetry(":id"), a.BulkJobRetry),
		post(paths.JobRevise(":id"), a.BulkJobRevise), // a retry's values edited in its preview
		post(paths.JobReadBack(":id"), a.BulkJobReadBack),
		get(paths.JobErrorsCSV(":id"), a.BulkJobErrorsCSV),
		get(paths.JobExportCSV(":id"), a.BulkJobExportCSV),
		// The audit trail: read-only, no delete route (retention prunes it).
		get(paths.History, a.HistoryList), get(paths.HistoryExportCSV, a.HistoryExportCSV),
		// The local copy of the catalogue (handlers/sync.go).
		get(paths.SyncStatus, a.SyncStatus),
		post(paths.SyncRefresh, a.SyncRefresh),
		post(paths.SyncForget, a.SyncForget),
		{method: http.MethodGet, path: paths.ExportAll("csv"), handler: func(c echo.Context) error { return a.NomenclatureExportAll(c, "csv") }, ownBound: true},
		{method: http.MethodGet, path: paths.ExportAll("xlsx"), handler: func(c echo.Context) error { return a.NomenclatureExportAll(c, "xlsx") }, ownBound: true},
	}
}
