// Package testapp starts the whole dashboard for tests, built by
// app as cmd/web builds it: the sandbox on a loopback port, a
// SQLite session store in a temporary folder, the real router, and a cookie-keeping client that behaves like a browser without
// JavaScript.
package testapp

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/metrics"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Options adjust the dashboard under test.
type Options struct {
	Sandbox sandbox.Options
	// Market, when set, is a running sandbox to share (several dashboard
	// instances in front of one marketplace); Sandbox is then ignored.
	Market *demo.Marketplace
	// Backend, when set, is the session database to use (shared by several
	// instances); nil means a fresh SQLite file.
	Backend sessions.Backend
	// Database is the SQLite file of the sessions (without Backend) and of
	// the bulk jobs; "" means a fresh file in a temporary folder.
	Database string
	// Jobs are the bulk job runner's options (every dashboard runs one);
	// nil takes the defaults.
	Jobs            *bulkjobs.RunnerOptions
	ChunkSize       int
	PageRetryBudget time.Duration
	BulkRetryBudget time.Duration
	UpstreamTimeout time.Duration
	// BodyReadTimeout bounds reading a request body (0: the default).
	BodyReadTimeout time.Duration

	// SessionKeys replace the fixed test key (rotation tests); the first
	// seals and signs.
	SessionKeys [][]byte
	// SessionNow is the session store's clock (idle and absolute timeout
	// tests); nil means time.Now.
	SessionNow                   func() time.Time
	IdleTimeout, AbsoluteTimeout time.Duration
	// TLS serves the dashboard over HTTPS (httptest.NewTLSServer).
	TLS bool
	// NoDemo hides the demo credentials from the login page, as with a real
	// marketplace (canary tests: the seeded secret must then appear nowhere).
	NoDemo         bool
	TrustedProxies []netip.Prefix
	LoginLimits    loginguard.Limits
	// Zone is the zone pages show times in (handlers.Deps.Zone).
	Zone *time.Location
	// GuardPercent is the price forms' fat-finger guard
	// (handlers.Deps.GuardPercent): 0 is Jobs' guard, else the default;
	// negative turns it off.
	GuardPercent int
	// TestHook is served at GET /_test/hook behind the login check.
	TestHook echo.HandlerFunc
	// APIOptions adjusts the marketplace client before it is built.
	APIOptions func(*apiclient.Options)
	// Catalog runs the local copy's syncs in the background, as
	// production does; CatalogSync adjusts its syncer. Without it the
	// copy is kept but no sync ever starts: it stays before its first
	// pass, so the lists are read live and the overview shows an empty
	// copy.
	Catalog     bool
	CatalogSync func(*copystore.Syncer)
	// Profile is the wire profile of both the sandbox and the client
	// (apiclient.ProfileContract when empty); it overrides
	// Sandbox.Profile. With Market, the shared sandbox must serve it.
	Profile apiclient.Profile
	// AcceptLanguage is the Accept-Language a request without one gets, so
	// tests written against the English interface keep reading English:
	// "" means "en"; "-" sends none (the dashboard's own default, Russian).
	// A request's own header, or the language cookie, still wins.
	AcceptLanguage string
	// Metrics, when set, is fed by the dashboard's observer hooks
	// (app.Config.Metrics); Observer, when set instead, is the handlers'
	// own hook (handlers.Deps.Observer).
	Metrics  *metrics.Metrics
	Observer handlers.Observer
}

// App is a running dashboard with its sandbox.
type App struct {
	Sandbox *sandbox.Sandbox
	Market  *demo.Marketplace
	Handler *handlers.App
	Store   *sessions.Store
	Server  *httptest.Server
	URL     string
	Logs    *SafeBuffer
	API     *apiclient.Client
	// Jobs and JobStore are the bulk job runner and its store.
	Jobs     *bulkjobs.Runner
	JobStore *bulkjobs.Store
	// Catalog is the local copy's manager.
	Catalog *copystore.Manager
	// Audit is the audit trail the dashboard records into.
	Audit *audit.Store
	// DB is the process's database (tests read its pools' statistics).
	DB *sqldb.DB
}

// SafeBuffer is a bytes.Buffer safe for concurrent log writes.
type SafeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SafeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything logged so far.
func (b *SafeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// New starts a dashboard for the test and stops it when the test ends.
func New(t testing.TB, opts Options) *App {
	t.Helper()
	logs := &SafeBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := opts.Market
	if m == nil {
		var err error
		sbOpts := opts.Sandbox
		if opts.Profile != "" {
			sbOpts.Profile = string(opts.Profile)
		}
		if m, err = demo.Start(sandbox.New(sbOpts)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = m.Close() })
	}
	sb := m.Sandbox
	keys := opts.SessionKeys
	if len(keys) == 0 {
		keys = [][]byte{bytes.Repeat([]byte{7}, sessions.KeySize)}
	}
	dbPath := opts.Database
	if dbPath == "" {
		dbPath = filepath.Join(t.TempDir(), "sessions.db")
	}
	deps := handlers.Deps{
		Demo: true, DemoCredentials: app.DemoCredentials(), Now: sb.Now,
		PageRetryBudget: opts.PageRetryBudget,
		UpstreamTimeout: opts.UpstreamTimeout, BodyReadTimeout: opts.BodyReadTimeout, TrustedProxies: opts.TrustedProxies, Zone: opts.Zone,
		TestHook: opts.TestHook, GuardPercent: opts.GuardPercent, Observer: opts.Observer,
	}
	if opts.NoDemo {
		deps.Demo, deps.DemoCredentials = false, nil
	}
	catalogOpts := &app.CatalogOptions{Syncer: opts.CatalogSync}
	built, err := app.New(context.Background(), app.Config{
		Logger:      log,
		Marketplace: app.Marketplace{B2B: m.B2BURL, B2BTest: m.B2BTestURL, Seller: m.SellerURL},
		Profile:     opts.Profile,
		APIOptions: func(o *apiclient.Options) {
			o.Now, o.Logger, o.UserAgent = sb.Now, log, ""
			if opts.APIOptions != nil {
				opts.APIOptions(o)
			}
		},
		DatabaseURL:    dbPath,
		SessionBackend: opts.Backend,
		Sessions: sessions.Options{Keys: keys, Logger: log, Now: opts.SessionNow,
			IdleTimeout: opts.IdleTimeout, AbsoluteTimeout: opts.AbsoluteTimeout, TrustProxyHeaders: len(opts.TrustedProxies) > 0},
		Jobs:             opts.Jobs,
		JobsCloseTimeout: 10 * time.Second,
		Catalog:          catalogOpts,
		History:          &app.HistoryOptions{},
		MassUpdate:       app.MassUpdateOptions{ChunkSize: opts.ChunkSize, RetryBudget: opts.BulkRetryBudget},
		LoginLimits:      opts.LoginLimits,
		Dashboard:        deps,
		Metrics:          opts.Metrics,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !opts.Catalog {
		built.Catalog.Close() // no sync starts from now on
	}
	h := built.Handler
	var served http.Handler = h
	if lang := opts.AcceptLanguage; lang != "-" {
		if lang == "" {
			lang = "en"
		}
		served = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Accept-Language") == "" {
				r.Header.Set("Accept-Language", lang)
			}
			h.ServeHTTP(w, r)
		})
	}
	var srv *httptest.Server
	if opts.TLS {
		srv = httptest.NewTLSServer(served)
	} else {
		srv = httptest.NewServer(served)
	}
	t.Cleanup(func() {
		srv.Close()
		if err := built.Close(); err != nil {
			t.Errorf("closing the dashboard: %v", err)
		}
	})
	return &App{Sandbox: sb, Market: m, Handler: h, Store: built.Sessions, Server: srv, URL: srv.URL, Logs: logs,
		API: built.API, Jobs: built.Jobs, JobStore: built.JobStore, Catalog: built.Catalog, Audit: built.Audit, DB: built.DB}
}

// Browser is a cookie-keeping HTTP client that does not follow redirects,
// so tests see every 303.
type Browser struct {
	t      testing.TB
	app    *App
	Client *http.Client
	HTMX   bool // send HX-Request: true, like htmx does
	// Account is the account id the last login or visit named: a path
	// outside every account ("/orders") is sent as that account's
	// ("/a/{Account}/orders"), as a browser following the dashboard's own
	// links would. Set it to "" to send paths as given. Requests made
	// from several goroutines at once read and set it under mu.
	Account string
	mu      sync.Mutex
}

// Browser returns a new visitor with an empty cookie jar.
func (a *App) Browser(t testing.TB) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{t: t, app: a, Client: &http.Client{
		Jar:           jar,
		Transport:     a.Server.Client().Transport,
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// On is a browser with b's cookies and account, pointed at another
// dashboard sharing b's session database (Options.Backend, the same keys):
// a session logged in on one is the session on the other, as behind a load
// balancer. The tests of faults that never answer log in on a dashboard
// with a generous upstream timeout and browse one with a short one.
func (b *Browser) On(a *App) *Browser {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &Browser{t: b.t, app: a, Account: b.Account, HTMX: b.HTMX, Client: &http.Client{
		Jar:           b.Client.Jar, // cookies are per host, not per port: the jar serves both
		Transport:     a.Server.Client().Transport,
		Timeout:       b.Client.Timeout,
		CheckRedirect: b.Client.CheckRedirect,
	}}
}

// Page is a fetched response with its body parsed.
type Page struct {
	Status   int
	Header   http.Header
	Body     string
	Doc      *goquery.Document
	Location string
}

// Text returns the trimmed text of the first element matching sel.
func (p *Page) Text(sel string) string {
	return strings.Join(strings.Fields(p.Doc.Find(sel).First().Text()), " ")
}

// Has reports whether any element matches sel.
func (p *Page) Has(sel string) bool { return p.Doc.Find(sel).Length() > 0 }

// Do sends a request and reads the answer.
func (b *Browser) Do(method, path string, form url.Values) *Page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.app.URL+b.InAccount(path), body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if b.HTMX {
		req.Header.Set("HX-Request", "true")
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
	if err != nil {
		b.t.Fatal(err)
	}
	b.mu.Lock()
	if id, _, ok := accountOf(resp.Header.Get("Location")); ok {
		b.Account = id
	} else if id, _, ok := accountOf(req.URL.Path); ok && resp.StatusCode < 300 {
		b.Account = id
	}
	b.mu.Unlock()
	return &Page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw), Doc: doc, Location: resp.Header.Get("Location")}
}

// accountOf parses an account's path.
func accountOf(p string) (id, rest string, ok bool) {
	tail, found := strings.CutPrefix(p, "/a/")
	if !found {
		return "", "", false
	}
	id, rest, _ = strings.Cut(tail, "/")
	return id, "/" + rest, id != ""
}

// sessionPaths are the paths outside every account.
var sessionPaths = []string{"/login", "/logout", "/settings/", "/accounts", "/static/", "/healthz", "/favicon.ico", "/_test/", "/a/"}

// InAccount is path as the dashboard's links name it: an account's page
// under the account the browser is on.
func (b *Browser) InAccount(path string) string {
	b.mu.Lock()
	account := b.Account
	b.mu.Unlock()
	if account == "" || !strings.HasPrefix(path, "/") {
		return path
	}
	for _, p := range sessionPaths {
		if strings.HasPrefix(path, p) {
			return path
		}
	}
	return "/a/" + account + path
}

// Get fetches a page.
func (b *Browser) Get(path string) *Page { return b.Do(http.MethodGet, path, nil) }

// Post submits a form.
func (b *Browser) Post(path string, form url.Values) *Page { return b.Do(http.MethodPost, path, form) }

// Follow fetches where a redirect points (303 or HX-Redirect).
func (b *Browser) Follow(p *Page) *Page {
	b.t.Helper()
	to := p.Location
	if to == "" {
		to = p.Header.Get("HX-Redirect")
	}
	if to == "" {
		b.t.Fatalf("not a redirect: status %d", p.Status)
	}
	htmx := b.HTMX
	b.HTMX = false
	defer func() { b.HTMX = htmx }()
	return b.Get(to)
}

// Login logs in with the given credentials and fails the test unless the
// dashboard accepts them.
func (b *Browser) Login(clientID, secret string, seller, env string) *Page {
	b.t.Helper()
	p := b.Post("/login", url.Values{"client_id": {clientID}, "client_secret": {secret}, "seller_id": {seller}, "environment": {env}})
	if p.Status != http.StatusSeeOther {
		b.t.Fatalf("login as %s: status %d, want 303; error: %q", clientID, p.Status, p.Text("#login-error"))
	}
	return b.Follow(p)
}

// LoginDemo logs in as seller 1001 in the test environment.
func (b *Browser) LoginDemo() *Page {
	return b.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
}

// FormValues collects the named inputs of the form matching sel, as a
// browser would submit it without changes.
func (p *Page) FormValues(sel string) url.Values {
	v := url.Values{}
	p.Doc.Find(sel).Find("input, select").Each(func(_ int, s *goquery.Selection) {
		name, ok := s.Attr("name")
		if !ok || name == "" {
			return
		}
		if goquery.NodeName(s) == "select" {
			val := s.Find("option[selected]").AttrOr("value", "")
			if val == "" {
				val = s.Find("option").First().AttrOr("value", "")
			}
			v.Add(name, val)
			return
		}
		typ := s.AttrOr("type", "text")
		if (typ == "checkbox" || typ == "radio") && !s.Is("[checked]") {
			return
		}
		if typ == "submit" {
			return
		}
		v.Add(name, s.AttrOr("value", ""))
	})
	return v
}
