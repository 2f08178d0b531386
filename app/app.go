// Package app is the one place that wires Seller Desk: the database (the
// session store and the bulk job store on it), the job runner, the
// marketplace client, the mass-update engine and the handlers. cmd/web,
// app/testapp, bench and the e2e tests all build the dashboard here.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/metrics"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/internal/buildinfo"
	"github.com/sellerdesk/sellerdesk/internal/logctx"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Marketplace names the marketplace's base URLs (see apiclient.Options).
type Marketplace struct {
	B2B, B2BTest, Seller, SellerTest string
}

// Config is everything New needs. Zero values take the defaults of the
// packages underneath.
type Config struct {
	Logger *slog.Logger // nil: discard

	// Marketplace is where the client goes; with DemoSandbox set it is
	// ignored and the client goes to an in-process sandbox instead.
	Marketplace Marketplace
	// DemoSandbox, when set, starts the built-in sandbox with these options
	// (demo mode); App.Demo is it, and Close stops it.
	DemoSandbox *sandbox.Options
	// Profile is the wire profile spoken to the marketplace
	// (apiclient.ProfileContract when empty); with DemoSandbox the sandbox
	// serves the same profile. Country is sent where the lamoda profile
	// needs one ("" means apiclient.DefaultCountry).
	Profile apiclient.Profile
	Country string
	// PriceAPI is the API the lamoda profile writes card prices through
	// ("" means apiclient.PriceAPIV1).
	PriceAPI apiclient.PriceAPI
	// APIOptions adjusts the marketplace client's options before it is
	// built (tests: a transport, the sandbox's clock).
	APIOptions func(*apiclient.Options)

	// DatabaseURL is the SQLite file (or sqlite: URL) or the PostgreSQL URL
	// of every store and of the per-seller lock, opened once
	// (internal/sqldb).
	DatabaseURL string
	// DatabaseTracer, when set with a PostgreSQL DatabaseURL, hears every
	// statement sent (tests: the round trips one page makes).
	DatabaseTracer pgx.QueryTracer
	// SessionBackend, when set, is used instead of opening DatabaseURL for
	// the sessions (tests: a backend shared by two dashboards, or one that
	// fails); New does not close it.
	SessionBackend sessions.Backend
	// Sessions are the session store's options; the logger defaults to
	// Logger. With no keys, KeyFile holds a generated key.
	Sessions sessions.Options
	KeyFile  string
	// PurgeEvery, when positive, purges expired sessions that often until
	// Close.
	PurgeEvery time.Duration

	// Jobs configures the bulk job runner, always built on DatabaseURL
	// (started by New, stopped by Close); nil takes the defaults.
	Jobs *bulkjobs.RunnerOptions
	// JobsCloseTimeout bounds how long Close waits for the chunks in
	// flight; 0 means DefaultJobsCloseTimeout.
	JobsCloseTimeout time.Duration

	// Catalog configures the local copy of each seller's catalogue,
	// always kept on the database and synced in the background; nil
	// takes the defaults.
	Catalog *CatalogOptions

	// History configures the audit trail, always kept on the database
	// (every change made through the dashboard; the history screen reads
	// it) and pruned by its retention; nil takes the defaults (no
	// pruning).
	History *HistoryOptions

	// MassUpdate configures the one mass-update engine the forms and the
	// bulk jobs share.
	MassUpdate MassUpdateOptions
	// LoginLimits tune the login throttle of the accounts' login; zero
	// fields take defaults.
	LoginLimits loginguard.Limits

	// Dashboard is the handlers' configuration; New fills in what it
	// builds: API, Sessions, Accounts, Engine, Jobs, Catalog, Audit and Logger.
	Dashboard handlers.Deps

	// Metrics, when set, is fed by every package's observer hooks and
	// reads the database's pools, the page gate, the jobs and the copies
	// when scraped; nil observes nothing (SELLERDESK_METRICS_ADDR unset).
	// Serving it is the caller's (Serve: a listener of its own).
	Metrics *metrics.Metrics
}

// CatalogOptions configure the local copy (copystore.NewManager): how often
// a copy in use is refreshed, and how long a copy may go unused (a session's
// idle timeout) before its syncs stop. Zero values take the package's
// defaults.
type CatalogOptions struct {
	SyncInterval, IdleTimeout time.Duration
	// Syncer, when set, adjusts the syncer before the manager starts
	// (tests: hooks, page sizes).
	Syncer func(*copystore.Syncer)
}

// MassUpdateOptions configure the mass-update engine: how many rows one
// request carries (0: massupdate.DefaultChunkSize) and how long one chunk
// waits out 429/503 answers (0: 60 s). Its per-request bound is
// Dashboard.UpstreamTimeout.
type MassUpdateOptions struct {
	ChunkSize   int
	RetryBudget time.Duration
	// FilterKey is the FilterItem key the lamoda profile's stock and
	// status writes select records by; "" means massupdate.DefaultFilterKey.
	FilterKey string
}

// HistoryOptions configure the audit trail: how long entries are kept
// (0: audit.DefaultRetention) and how often the pruning runs (0: never,
// for tests).
type HistoryOptions struct {
	Retention, PruneEvery time.Duration
}

// App is a built dashboard and everything under it.
type App struct {
	Handler  *handlers.App
	Sessions *sessions.Store
	// DB is the process's database: every store's, and the per-seller
	// lock's.
	DB *sqldb.DB
	// SessionBackend is the database under Sessions (opened by New, or
	// Config.SessionBackend).
	SessionBackend sessions.Backend
	API            *apiclient.Client
	Accounts       *accounts.Service // the sessions' and the jobs' marketplace accounts
	Catalog        *copystore.Manager
	Audit          *audit.Store
	Jobs           *bulkjobs.Runner // nil once Close stopped it
	JobStore       *bulkjobs.Store
	// Engine sends every mass update, from the forms and, through
	// Executor, from the bulk jobs.
	Engine   *massupdate.Engine
	Executor *massupdate.Executor // bound to Jobs, when there are jobs
	Demo     *demo.Marketplace

	log     *slog.Logger
	stop    context.CancelFunc
	purged  <-chan struct{}
	pruned  <-chan struct{}
	timeout time.Duration
	closers []func() error // in reverse order of opening
	// draining is set once shutdown begins: /readyz answers 503 from then.
	draining atomic.Bool
}

// DefaultJobsCloseTimeout is how long Close waits, unless told otherwise,
// for the bulk jobs' chunks in flight.
const DefaultJobsCloseTimeout = 30 * time.Second

// ErrDraining is Ready's answer once Drain was called.
var ErrDraining = errors.New("shutting down")

// Ready reports whether this instance can serve: it is not shutting down
// and its database answers within ctx (/readyz gives it a second).
func (a *App) Ready(ctx context.Context) error {
	if a.draining.Load() {
		return ErrDraining
	}
	return a.DB.Ping(ctx)
}

// Drain marks the instance as shutting down: Ready fails from now on, so
// a load balancer stops sending it new requests while those in flight
// finish.
func (a *App) Drain() { a.draining.Store(true) }

// New builds the dashboard. ctx bounds the opening and, until Close, the
// background work (the job runner, the session purger).
func New(ctx context.Context, cfg Config) (_ *App, err error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// Every line logged with a request's context names its request id,
	// whichever package logs it (the marketplace client's calls and
	// retries included).
	log = slog.New(logctx.Handler(log.Handler()))
	a := &App{log: log, timeout: cfg.JobsCloseTimeout}
	if a.timeout <= 0 {
		a.timeout = DefaultJobsCloseTimeout
	}
	defer func() {
		if err != nil {
			_ = a.Close()
		}
	}()
	bg, stop := context.WithCancel(ctx)
	a.stop = stop

	market := cfg.Marketplace
	if cfg.DemoSandbox != nil {
		sbOpts := *cfg.DemoSandbox
		if cfg.Profile != "" {
			sbOpts.Profile = string(cfg.Profile)
		}
		m, err := demo.Start(sandbox.New(sbOpts))
		if err != nil {
			return nil, err
		}
		a.Demo = m
		a.closers = append(a.closers, m.Close)
		market = Marketplace{B2B: m.B2BURL, B2BTest: m.B2BTestURL, Seller: m.SellerURL}
	}

	db, err := openStores(ctx, cfg)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, db.close)
	a.DB = db.db

	sopts := cfg.Sessions
	if sopts.Logger == nil {
		sopts.Logger = log.With("component", "sessions")
	}
	mx := cfg.Metrics
	if mx != nil && sopts.Failed == nil {
		sopts.Failed = mx.SessionFailed
	}
	if len(sopts.Keys) == 0 {
		if cfg.KeyFile == "" {
			return nil, errors.New("app: no session keys and no key file")
		}
		key, created, err := sessions.LoadOrCreateKeyFile(cfg.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("session key: %w", err)
		}
		if created {
			log.Warn("SELLERDESK_SESSION_KEY is not set: generated a session key and kept it beside the database; set the variable in production", "file", cfg.KeyFile)
		}
		sopts.Keys = [][]byte{key}
	}
	a.SessionBackend = db.sessions
	if a.Sessions, err = sessions.NewStore(db.sessions, sopts); err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}

	apiOpts := apiclient.Options{
		B2BBaseURL: market.B2B, B2BTestBaseURL: market.B2BTest, SellerBaseURL: market.Seller, SellerTestBaseURL: market.SellerTest,
		UserAgent: buildinfo.Get().UserAgent(), Logger: log.With("component", "apiclient"),
		Profile: cfg.Profile, Country: cfg.Country, PriceAPI: cfg.PriceAPI,
	}
	if mx != nil {
		apiOpts.Observer = mx.Upstream()
	}
	if cfg.APIOptions != nil {
		cfg.APIOptions(&apiOpts)
	}
	if apiOpts.Logger != nil { // a test's own logger names the request id too
		apiOpts.Logger = slog.New(logctx.Handler(apiOpts.Logger.Handler()))
	}
	if a.API, err = apiclient.New(apiOpts); err != nil {
		return nil, err
	}

	{
		var ropts bulkjobs.RunnerOptions
		if cfg.Jobs != nil {
			ropts = *cfg.Jobs
		}
		if ropts.Logger == nil {
			ropts.Logger = log.With("component", "bulkjobs")
		}
		if ropts.Now == nil {
			ropts.Now = cfg.Dashboard.Now // the clock that stamps the jobs (nil: time.Now)
		}
		if mx != nil && ropts.Observer == nil {
			ropts.Observer = mx.Jobs()
		}
		a.JobStore, a.Jobs = db.jobs, bulkjobs.NewRunner(db.jobs, ropts)
	}

	{
		var copts CatalogOptions
		if cfg.Catalog != nil {
			copts = *cfg.Catalog
		}
		cs, err := copystore.New(ctx, a.DB)
		if err != nil {
			return nil, fmt.Errorf("catalogue copy: %w", err)
		}
		y := &copystore.Syncer{Store: cs, Lock: a.DB}
		if mx != nil {
			y.Lock, y.Observer = mx.Locker(a.DB, metrics.LockCopy), mx.Sync()
		}
		if copts.Syncer != nil {
			copts.Syncer(y)
		}
		a.Catalog = copystore.NewManager(y, copts.SyncInterval, copts.IdleTimeout, log.With("component", "catalog"))
		// Before the database closes: the syncs stop first (they resume
		// from the database at the next start).
		a.closers = append(a.closers, func() error { a.Catalog.Close(); return nil })
	}

	var history HistoryOptions
	if cfg.History != nil {
		history = *cfg.History
	}
	if a.Audit, err = audit.NewStore(ctx, a.DB); err != nil {
		return nil, fmt.Errorf("history store: %w", err)
	}
	if history.PruneEvery > 0 {
		a.pruned = a.Audit.StartPruner(bg, history.Retention, history.PruneEvery, log.With("component", "audit"))
	}

	// One engine: the forms and the jobs share the chunk size, the retry
	// budget and the per-seller lock (the database's, shared with the
	// local copy's sync).
	var locker massupdate.Locker = a.DB
	if mx != nil {
		locker = mx.Locker(a.DB, metrics.LockMassUpdate)
	}
	a.Engine = &massupdate.Engine{Locker: locker, ChunkSize: cfg.MassUpdate.ChunkSize, RetryBudget: cfg.MassUpdate.RetryBudget,
		UpstreamTimeout: cfg.Dashboard.UpstreamTimeout, StoreFailed: storeFailed, FilterKey: cfg.MassUpdate.FilterKey}

	deps := cfg.Dashboard
	if deps.GuardPercent == 0 && cfg.Jobs != nil {
		deps.GuardPercent = cfg.Jobs.GuardPercent // the forms guard prices as the imports do
	}
	if a.Accounts, err = accounts.New(accounts.Options{API: a.API, Sessions: a.Sessions, LoginLimits: cfg.LoginLimits, Now: deps.Now}); err != nil {
		return nil, err
	}
	deps.API, deps.Sessions, deps.Accounts, deps.Engine, deps.Jobs, deps.Logger, deps.Catalog, deps.Audit = a.API, a.Sessions, a.Accounts, a.Engine, a.Jobs, log, a.Catalog, a.Audit
	deps.Ready = a.Ready
	if mx != nil && deps.Observer == nil {
		deps.Observer = mx.HTTP()
	}
	if deps.Version == "" {
		deps.Version = versionLine(buildinfo.Get())
	}
	if deps.HistoryRetention == 0 {
		deps.HistoryRetention = history.Retention
	}
	if a.Handler, err = handlers.New(deps); err != nil {
		return nil, err
	}

	// The runner sends with the forms' engine, as the session that
	// submitted the job, the local copy takes each chunk's accepted rows
	// as the forms' do, and the audit trail records what it did.
	a.Executor = &massupdate.Executor{Engine: a.Engine, Accounts: jobAccounts(a.Accounts), PricesByCard: a.API.PricesByCard(), FilterWrites: a.API.FilterWrites(),
		Log: log.With("component", "catalog")}
	a.Executor.Copy = a.Catalog.Store()
	a.Jobs.Bind(a.Executor)
	a.Jobs.Observe(jobRecorder(a.Audit, log.With("component", "audit")))
	if err := a.Jobs.Start(bg); err != nil {
		return nil, fmt.Errorf("bulk jobs: %w", err)
	}
	if cfg.PurgeEvery > 0 {
		a.purged = a.Sessions.StartPurger(bg, cfg.PurgeEvery)
	}
	if mx != nil {
		mx.Watch(a.metricSources())
	}
	return a, nil
}

// Close stops the background work (every running job finishes its chunk in
// flight, within Config.JobsCloseTimeout, so the next start resumes after
// it), then closes the stores and the demo sandbox.
func (a *App) Close() error {
	if a.stop != nil {
		a.stop()
	}
	if a.purged != nil {
		<-a.purged
		a.purged = nil
	}
	if a.pruned != nil {
		<-a.pruned
		a.pruned = nil
	}
	var errs []error
	if a.Jobs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
		if err := a.Jobs.Close(ctx); err != nil {
			a.log.Warn("bulk jobs: stopped without waiting for the chunk in flight", "err", err)
		}
		cancel()
		a.Jobs = nil
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			errs = append(errs, err)
		}
	}
	a.closers = nil
	return errors.Join(errs...)
}

// stores are what New opens on the database.
type stores struct {
	db       *sqldb.DB
	sessions sessions.Backend
	jobs     *bulkjobs.Store
	close    func() error
}

// openStores opens the one database of the process (internal/sqldb: with
// SQLite, one writer for every store; the per-seller lock) and on it the
// session backend (unless Config.SessionBackend gives one) and the bulk
// job store.
func openStores(ctx context.Context, cfg Config) (stores, error) {
	s := stores{sessions: cfg.SessionBackend, close: func() error { return nil }}
	open := sqldb.Open
	if cfg.DatabaseTracer != nil && sqldb.IsPostgresURL(cfg.DatabaseURL) {
		open = func(ctx context.Context, url string) (*sqldb.DB, error) {
			return sqldb.OpenPostgresTraced(ctx, url, cfg.DatabaseTracer)
		}
	}
	db, err := open(ctx, cfg.DatabaseURL)
	if err != nil {
		return s, fmt.Errorf("database: %w", err)
	}
	s.db = db
	var backend sessions.Backend
	s.close = func() error {
		var errs []error
		if backend != nil {
			errs = append(errs, backend.Close())
		}
		return errors.Join(append(errs, db.Close())...)
	}
	if s.sessions == nil {
		if backend, err = sessions.NewBackend(ctx, db); err != nil {
			_ = s.close()
			return s, fmt.Errorf("session store: %w", err)
		}
		s.sessions = backend
	}
	if s.jobs, err = bulkjobs.NewStore(ctx, db); err != nil {
		_ = s.close()
		return s, fmt.Errorf("bulk job store: %w", err)
	}
	return s, nil
}

// versionLine is the build as the accounts page's footer shows it:
// "v1.4.0 · 0123456789ab".
func versionLine(in buildinfo.Info) string {
	if in.Commit == "" {
		return in.Version
	}
	return in.Version + " · " + in.Commit
}

// metricSources are what the metrics read when scraped.
func (a *App) metricSources() metrics.Sources {
	return metrics.Sources{DB: a.DB, Gate: a.Handler.GateState, JobStates: a.JobStore.CountByState, CopyAges: a.Catalog.Store().CopyAges}
}
