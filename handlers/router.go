package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/sellerdesk/sellerdesk/static"
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

	pagesGroup := e.Group("", middleware.BodyLimit(maxBodyBytes), a.readBody, a.boundUpstream, a.loadSession)
	pagesGroup.GET("/login", a.LoginForm)
	pagesGroup.POST("/login", a.LoginSubmit)
	pagesGroup.POST("/logout", a.Logout)
	a.registerLanguage(e, pagesGroup) // i18n: locale middleware and POST /settings/language (issue 18, handlers/language.go)

	app := pagesGroup.Group("", a.requireLogin)
	app.GET("/", a.Overview)
	app.GET("/orders", a.OrdersList)
	app.GET("/orders/:orderNr", a.OrderDetail)
	app.POST("/orders/resend", a.OrdersResend)
	app.GET("/nomenclature", a.NomenclatureList)
	app.POST("/nomenclature", a.NomenclatureSubmit)
	app.GET("/prices", a.PricesList)
	app.POST("/prices", a.PricesSubmit)
	app.GET("/return-boxes", a.ReturnBoxesList)
	a.registerBulkRoutes(app)
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
