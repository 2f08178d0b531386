// Package bench measures the dashboard against the marketplace it fronts:
// every figure is a ratio of two things measured side by side in one run,
// or a count, so a noisy machine changes the numbers but not the verdicts.
// The sandbox always runs as its own HTTP server on loopback, so the
// dashboard's upstream calls and the direct calls both cross a real socket.
//
// cmd/sdbench runs every target and writes BENCHMARKS.md; the tests in this
// package run each measurement once with tiny sizes (a smoke test that keeps
// the suite from rotting) and hold the Go benchmarks used for pprof.
package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// Seller 1001's demo credentials in the sandbox's test environment.
const (
	clientID = "demo-1001"
	secret   = "sandbox-secret-1001"
	sellerID = 1001
	env      = "test"
)

// EnvOptions adjust one dashboard-plus-sandbox pair.
type EnvOptions struct {
	Sandbox   sandbox.Options
	ChunkSize int
	// Transport, when set, carries the dashboard's upstream calls (P7
	// answers from memory through it, see memAnswers).
	Transport http.RoundTripper
	// Logger receives the dashboard's log records (nil = discarded).
	Logger *slog.Logger
	// Catalog runs the local copy's syncs in the background (P8), as
	// production does. Without it the copy is kept but no sync starts,
	// so the measurements of live pages count their own calls alone.
	Catalog bool
	// DatabaseURL is the dashboard's database (PostgreSQL URL or SQLite
	// file); "" is a SQLite file in the environment's temporary directory.
	DatabaseURL string
	// DatabaseTracer hears every statement sent to a PostgreSQL database
	// (the round trips a page makes).
	DatabaseTracer pgx.QueryTracer
}

// Env is a running sandbox (its own loopback server) and a dashboard (its
// own loopback server) in front of it.
type Env struct {
	Market  *demo.Marketplace
	Sandbox *sandbox.Sandbox
	API     *apiclient.Client
	Store   *sessions.Store
	Backend sessions.Backend
	App     *handlers.App
	URL     string // the dashboard's origin
	// Catalog is the local copy's manager (every dashboard keeps one).
	Catalog *copystore.Manager

	built *app.App
	srv   *http.Server
	dir   string
	done  chan struct{}
}

// Start builds and serves the pair. Close stops it.
func Start(o EnvOptions) (*Env, error) {
	m, err := demo.Start(sandbox.New(o.Sandbox))
	if err != nil {
		return nil, err
	}
	e := &Env{Market: m, Sandbox: m.Sandbox, done: make(chan struct{})}
	fail := func(err error) (*Env, error) { e.Close(); return nil, err }
	if e.dir, err = os.MkdirTemp("", "sdbench-"); err != nil {
		return fail(err)
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key := bytes.Repeat([]byte{7}, sessions.KeySize)
	var hc *http.Client
	if o.Transport != nil {
		hc = &http.Client{Transport: o.Transport, Timeout: 60 * time.Second}
	}
	dbURL := o.DatabaseURL
	if dbURL == "" {
		dbURL = filepath.Join(e.dir, "sessions.db")
	}
	if e.built, err = app.New(context.Background(), app.Config{
		Logger:      log,
		Marketplace: app.Marketplace{B2B: m.B2BURL, B2BTest: m.B2BTestURL, Seller: m.SellerURL},
		APIOptions: func(ao *apiclient.Options) {
			ao.Now, ao.Logger, ao.HTTPClient, ao.UserAgent = m.Sandbox.Now, log, hc, ""
		},
		DatabaseURL:    dbURL,
		DatabaseTracer: o.DatabaseTracer,
		Sessions:       sessions.Options{Keys: [][]byte{key}, Logger: log, Now: m.Sandbox.Now},
		// The price forms' fat-finger guard is off: P4 sends rows the
		// marketplace refuses, and measures the send path, not the hold.
		Dashboard:  handlers.Deps{Demo: true, DemoCredentials: app.DemoCredentials(), Now: m.Sandbox.Now, GuardPercent: -1},
		MassUpdate: app.MassUpdateOptions{ChunkSize: o.ChunkSize},
	}); err != nil {
		return fail(err)
	}
	if !o.Catalog {
		e.built.Catalog.Close() // no sync starts from now on
	}
	e.API, e.Store, e.Backend, e.App, e.Catalog = e.built.API, e.built.Sessions, e.built.SessionBackend, e.built.Handler, e.built.Catalog
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	e.URL = "http://" + ln.Addr().String()
	e.srv = &http.Server{Handler: e.App, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(e.done)
		_ = e.srv.Serve(ln)
	}()
	return e, nil
}

// Close stops both servers and removes the session database.
func (e *Env) Close() {
	if e.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = e.srv.Shutdown(ctx)
		cancel()
		<-e.done
	}
	if e.built != nil {
		_ = e.built.Close()
	}
	if e.Market != nil {
		_ = e.Market.Close()
	}
	if e.dir != "" {
		_ = os.RemoveAll(e.dir)
	}
}

// newTransport is a keep-alive transport sized for the load test, the same
// for the dashboard's visitors and the direct calls.
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy: nil, MaxIdleConns: 256, MaxIdleConnsPerHost: 128, IdleConnTimeout: 90 * time.Second,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	}
}

// User is a logged-in visitor of the dashboard.
type User struct {
	e      *Env
	Client *http.Client
	Cookie string // "name=value" of the session cookie, for the load tool
	ID     string // session id
}

// Login logs seller 1001 in through the login form, as a browser would.
func (e *Env) Login() (*User, error) {
	jar, _ := cookiejar.New(nil)
	u := &User{e: e, Client: &http.Client{
		Jar: jar, Timeout: 60 * time.Second, Transport: newTransport(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	form := url.Values{"client_id": {clientID}, "client_secret": {secret}, "seller_id": {fmt.Sprint(sellerID)}, "environment": {env}}
	resp, err := u.Client.PostForm(e.URL+"/login", form)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("login: status %d, want 303", resp.StatusCode)
	}
	base, _ := url.Parse(e.URL)
	for _, c := range jar.Cookies(base) {
		if c.Name == "sd_session" {
			u.Cookie = c.Name + "=" + c.Value
		}
	}
	if u.Cookie == "" {
		return nil, errors.New("login: no session cookie")
	}
	r, _ := http.NewRequest(http.MethodGet, e.URL+"/", nil)
	r.Header.Set("Cookie", u.Cookie)
	sess, err := e.Store.Load(r)
	if err != nil || sess.IsNew() {
		return nil, fmt.Errorf("login: session cookie not recognised (%v)", err)
	}
	u.ID = sess.ID()
	if toks, err := e.Store.LoadTokens(context.Background(), u.ID); err != nil || len(toks) != 2 {
		return nil, fmt.Errorf("login: session %q has %d tokens (%v), want 2", "…", len(toks), err)
	}
	return u, nil
}

// dash is a page of the bench seller's account: every page of an account
// lives under a path naming it (paths.Of), and the bench logs in one
// account, whose id the credentials decide.
func dash(p string) string {
	if _, _, ok := paths.Split(p); ok {
		return p
	}
	return paths.Of(benchAccount(), p)
}

// benchAccount is the id of the bench seller's account in its sessions.
func benchAccount() string {
	return sessions.Account{ClientID: clientID, SellerID: sellerID, Environment: env}.ID()
}

// Get fetches a page of the bench seller's account and reads it whole.
func (u *User) Get(path string) (int, []byte, error) {
	resp, err := u.Client.Get(u.e.URL + dash(path))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// PostForm submits a form of the bench seller's account and reads the
// answer whole.
func (u *User) PostForm(path string, form url.Values) (int, []byte, error) {
	resp, err := u.Client.PostForm(u.e.URL+dash(path), form)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// Direct calls the sandbox without the dashboard, with its own tokens.
type Direct struct {
	e             *Env
	Client        *http.Client
	B2B, Seller   string // access tokens
	OrdersURL     string
	RPCURL        string
	BoxesURL      string
	b2bH, sellerH string
}

// Direct returns a direct caller with fresh tokens of both kinds.
func (e *Env) Direct() (*Direct, error) {
	acct := e.API.Account(apiclient.Credentials{ClientID: clientID, ClientSecret: secret, Environment: apiclient.Test}, apiclient.NewMemoryTokenStore())
	ctx := context.Background()
	b2b, err := acct.Token(ctx, apiclient.KindB2B)
	if err != nil {
		return nil, err
	}
	sel, err := acct.Token(ctx, apiclient.KindSeller)
	if err != nil {
		return nil, err
	}
	return &Direct{
		e: e, Client: &http.Client{Timeout: 60 * time.Second, Transport: newTransport()},
		B2B: b2b.AccessToken, Seller: sel.AccessToken,
		OrdersURL: e.Market.B2BTestURL + "/api/v1/orders", RPCURL: e.Market.SellerURL + "/jsonrpc",
		BoxesURL: e.Market.SellerURL + "/api/v2/fbs/return-boxes",
		b2bH:     "Bearer " + b2b.AccessToken, sellerH: "Bearer " + sel.AccessToken,
	}, nil
}

// Orders is GET /api/v1/orders?limit=n, read whole.
func (d *Direct) Orders(limit int) (int, error) {
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s?limit=%d", d.OrdersURL, limit), nil)
	req.Header.Set("Authorization", d.b2bH)
	req.Header.Set("Accept", "application/json")
	resp, err := d.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// rpcListBody is the v1.nomenclatures.list call a catalog page makes.
func rpcListBody(limit int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"bench","method":"v1.nomenclatures.list","params":{"seller_id":%d,"page":1,"limit":%d}}`, sellerID, limit)
}

// logCapture keeps the attributes of chosen log records, so a measurement
// can read what the dashboard reported (the rejected count of a mass
// update) without scraping HTML.
type logCapture struct {
	mu      sync.Mutex
	message string
	records []map[string]slog.Value
}

func (l *logCapture) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCapture) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logCapture) WithGroup(string) slog.Handler            { return l }
func (l *logCapture) Handle(_ context.Context, r slog.Record) error {
	if r.Message != l.message {
		return nil
	}
	m := map[string]slog.Value{}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.Resolve(); return true })
	l.mu.Lock()
	l.records = append(l.records, m)
	l.mu.Unlock()
	return nil
}

func (l *logCapture) take() []map[string]slog.Value {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.records
	l.records = nil
	return out
}

// moneyText writes kopecks as the form's plain decimal ("1299.50").
func moneyText(k int64) string { return fmt.Sprintf("%d.%02d", k/100, k%100) }

// countRows counts the order rows of an /orders page.
func countRows(page []byte) int { return strings.Count(string(page), `data-testid="order-`) }
