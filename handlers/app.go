// Package handlers is the dashboard's HTTP layer: the router, one file per
// screen area, and the shared render and error helpers. A handler binds
// the request, calls one domain function (accounts, browse, massupdate,
// resend, …) with the request's context and renders a templ page.
package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	gsessions "github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/static"
	"github.com/sellerdesk/sellerdesk/views/layouts"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// Deps is everything the dashboard needs from the outside, passed in by
// cmd/web (or a test) rather than reached through globals.
type Deps struct {
	// API answers the wire profile's questions the pages ask (an
	// *apiclient.Client). Required.
	API      Profile
	Sessions *sessions.Store
	// Accounts gives the session's marketplace account and checks logins
	// (the login throttle included). Required.
	Accounts *accounts.Service
	Logger   *slog.Logger
	// Demo marks a dashboard running against the built-in sandbox; the login
	// page then says so and offers DemoCredentials.
	Demo            bool
	DemoCredentials []pages.DemoCredential
	// Now is the clock for countdowns and token ages; nil means time.Now.
	Now func() time.Time
	// PageRetryBudget bounds how long a page waits out 429/503 answers before
	// it tells the user the marketplace is busy; 0 means 3 s.
	PageRetryBudget time.Duration
	// UpstreamTimeout bounds the marketplace calls of one request (a page,
	// a login, a resend), so a hanging marketplace costs the user a clear
	// message, not a spinning tab; 0 means 30 s. (The mass-update engine
	// bounds its chunks itself.)
	UpstreamTimeout time.Duration
	// BodyReadTimeout bounds how long a request body may take to arrive;
	// the upstream budget starts only once it is in. 0 means 30 s.
	BodyReadTimeout time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
	// client (for login throttling and logs); empty trusts none, and the
	// peer address is the client.
	TrustedProxies []netip.Prefix
	// Zone is the one zone pages show times in (SELLERDESK_TIMEZONE); nil
	// is format.DefaultZone.
	Zone *time.Location
	// TestHook, when set, is served at GET /_test/hook behind the login
	// check. Only tests set it (to prove, for example, that a panic inside a
	// logged-in request leaks no secret); cmd/web never does.
	TestHook echo.HandlerFunc
	// Engine sends mass updates: the forms send with it, and the job
	// executor app binds to Jobs shares it (one chunk size, retry
	// budget and per-seller lock). Required.
	Engine *massupdate.Engine
	// Jobs runs bulk import jobs in the background (bulkjobs.Runner, over
	// the job tables in the session database). app binds its executor
	// (with the accounts' job account) and its audit observer. Required.
	Jobs *bulkjobs.Runner
	// GuardPercent is the fat-finger guard of every price change
	// (SELLERDESK_BULK_GUARD_PERCENT, as the import's): the prices forms
	// hold a row changed by more than ± this percentage, and send it only
	// once the user confirms that row (massupdate.PriceBeyondGuard). 0
	// means massupdate.DefaultGuardPercent; negative turns it off.
	GuardPercent int
	// Catalog keeps the local copy of each seller's catalogue and syncs it
	// in the background; a seller's lists are read live until its first
	// full copy is complete. Required.
	Catalog *copystore.Manager
	// Audit is the audit trail: every change made through the dashboard
	// (form edits, resends, bulk jobs) is recorded there and the history
	// screen reads it. Required.
	Audit *audit.Store
	// HistoryRetention is how long the audit trail keeps entries (the
	// pruning runs in cmd/web); the history page says so. 0 means
	// audit.DefaultRetention.
	HistoryRetention time.Duration
	// ResendProcessing is how long a queued notification resend is taken
	// to keep the marketplace busy (the resend button waits that long);
	// 0 means resend.DefaultProcessing.
	ResendProcessing time.Duration
	// Version is the running build, shown in the accounts page's footer;
	// "" shows none.
	Version string
	// Ready answers /readyz: nil when this instance can serve (its
	// database answers, it is not shutting down); nil Ready is always
	// ready.
	Ready func(context.Context) error
	// Observer, when set, is told of every request and every wait at the
	// local gate (metrics); nil observes nothing.
	Observer Observer
}

// Profile is what the pages ask of the marketplace's wire profile; the
// marketplace itself is called by the domain packages.
type Profile interface {
	// PricesByCard: prices are set per product card (lamoda).
	PricesByCard() bool
	// FilterWrites: stock and status are written by filter (lamoda).
	FilterWrites() bool
	// SellerTestSeparate: the seller APIs have a test environment of
	// their own; without one, "test" changes live data.
	SellerTestSeparate() bool
}

// App is the dashboard as an http.Handler.
type App struct {
	deps    Deps
	echo    *echo.Echo
	handler http.Handler
	imports *placeGate[int64]
	exports *placeGate[copystore.Key]
	// local bounds the requests doing a page's local work at once.
	local *localGate
	// assets are the cache-busted asset URLs of every page, made once.
	assets layouts.Assets
	// toolbarOptions and sellerOptions are the option lists of the copy's
	// toolbar and of a record's status, as each language labels them.
	toolbarOptions, sellerOptions optionLists
	// gstore is Deps.Sessions as gorilla/sessions' Store: the session
	// middleware obtains and saves sessions through it.
	gstore gsessions.Store
	// reads reads the sellers' lists and pages, from the copy or live.
	reads *browse.Reader
}

// New builds the dashboard. It fails only on missing dependencies.
func New(d Deps) (*App, error) {
	if err := d.missing(); err != nil {
		return nil, err
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.PageRetryBudget <= 0 {
		d.PageRetryBudget = 3 * time.Second
	}
	if d.BodyReadTimeout <= 0 {
		d.BodyReadTimeout = 30 * time.Second
	}
	if d.UpstreamTimeout <= 0 {
		d.UpstreamTimeout = 30 * time.Second
	}
	if d.GuardPercent == 0 {
		d.GuardPercent = massupdate.DefaultGuardPercent
	}
	a := &App{deps: d, imports: newPlaceGate[int64](maxConcurrentImports),
		exports: newPlaceGate[copystore.Key](maxConcurrentExports), local: newLocalGate()}
	a.gstore = d.Sessions
	a.reads = browse.New(d.Catalog, d.Logger)
	a.assets = layouts.Assets{CSS: static.Path(static.CSS), JS: static.Path(static.JS), HTMX: static.Path(static.HTMX), Icon: static.Path(static.Icon)}
	a.echo = a.routes()
	a.handler = a.protect(a.echo)
	return a, nil
}

// missing names the first required dependency d lacks; nil when it has
// them all.
func (d Deps) missing() error {
	for _, r := range []struct {
		name   string
		absent bool
	}{
		{"API (the marketplace client)", d.API == nil},
		{"Sessions (the session store)", d.Sessions == nil},
		{"Accounts (the accounts service)", d.Accounts == nil},
		{"Engine (the mass-update engine)", d.Engine == nil},
		{"Catalog (the local copy's manager)", d.Catalog == nil},
		{"Jobs (the bulk job runner)", d.Jobs == nil},
		{"Audit (the audit trail)", d.Audit == nil},
	} {
		if r.absent {
			return fmt.Errorf("handlers: Deps.%s is required", r.name)
		}
	}
	return nil
}

// ServeHTTP serves the dashboard.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.handler.ServeHTTP(w, r)
}

// Route is one registered method and path, for tests that walk them all.
type Route struct {
	Method, Path string
}

// Routes lists every registered route.
func (a *App) Routes() []Route {
	var out []Route
	for _, r := range a.echo.Routes() {
		out = append(out, Route{Method: r.Method, Path: r.Path})
	}
	return out
}
