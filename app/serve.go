package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/metrics"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/internal/buildinfo"
	"github.com/sellerdesk/sellerdesk/internal/gctune"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// Serve reads the settings through getenv, starts the dashboard and serves
// until ctx ends, then shuts down gracefully: the server first, then the
// dashboard (its jobs finish their chunk in flight). ready, when not nil,
// receives the listening address. stdout receives the log and, with text
// logs, the line a person starting it needs.
func Serve(ctx context.Context, getenv func(string) string, stdout io.Writer, ready chan<- string) error {
	return serve(ctx, getenv, nil, stdout, ready)
}

// serve is Serve, warning first about every SELLERDESK_* name of environ
// the dashboard does not read.
func serve(ctx context.Context, getenv func(string) string, environ []string, stdout io.Writer, ready chan<- string) error {
	cfg, err := LoadSettings(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stdout, cfg)
	for _, name := range UnknownVariables(environ) {
		log.Warn("unknown setting ignored: no SELLERDESK_* variable has this name (misspelt?)", "name", name)
	}

	ac := cfg.Config(log)
	if cfg.MetricsAddr != "" {
		ac.Metrics = metrics.New()
	}
	a, err := New(ctx, ac)
	if err != nil {
		return err
	}
	defer func() { _ = a.Close() }()
	demoMode := a.Demo != nil
	if demoMode {
		log.Warn("demo mode: no marketplace configured, using the built-in sandbox", "sandbox", a.Demo.B2BURL, "profile", cfg.APIProfile)
		for _, c := range demo.Credentials() {
			log.Info("demo credentials", "client_id", c.ClientID, "client_secret", c.ClientSecret, "seller_id", c.SellerID, "note", c.Note)
		}
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := newServer(ctx, a.Handler, log)
	if ac.Metrics != nil {
		stop, err := serveMetrics(ctx, ac.Metrics, cfg.MetricsAddr, log)
		if err != nil {
			_ = ln.Close()
			return err
		}
		defer stop()
	}
	bi := buildinfo.Get()
	log.Info("Seller Desk is listening", "url", displayURL(ln.Addr()), "demo", demoMode,
		"version", bi.Version, "commit", bi.Commit, "built", bi.Date, "go", bi.Go)
	if !cfg.LogJSON {
		// The one line a person starting it needs, last and plain (JSON
		// logs stay pure JSON for their collector).
		hint := ""
		if demoMode {
			hint = " (demo: pick an account on the login page)"
		}
		fmt.Fprintf(stdout, "\nSeller Desk is ready: open %s%s\n\n", displayURL(ln.Addr()), hint)
	}
	if ready != nil {
		ready <- ln.Addr().String()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	// /readyz fails from here: a balancer still probing sees 503 on the
	// connections that stay open while the requests in flight finish.
	a.Drain()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveMetrics serves m on a listener of its own at addr until stop,
// which the server's shutdown calls once the dashboard's requests are
// done (a scrape during the drain still answers).
func serveMetrics(ctx context.Context, m *metrics.Metrics, addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("SELLERDESK_METRICS_ADDR: listen on %s: %w", addr, err)
	}
	srv := m.Server(context.WithoutCancel(ctx))
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "err", err)
		}
	}()
	log.Info("metrics are served", "url", "http://"+ln.Addr().String()+metrics.Path)
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	}, nil
}

// ShutdownTimeout bounds the graceful shutdown of the server (the requests
// in flight); the dashboard's jobs then finish their chunk in flight
// (Config.JobsCloseTimeout). A container's stop grace period must exceed
// both (compose.yaml gives 60 s).
const ShutdownTimeout = 15 * time.Second

// newServer is the dashboard's HTTP server. Its timeouts are the defence
// against slow clients: a client that dribbles its headers is cut off after
// ReadHeaderTimeout, one that dribbles its body after ReadTimeout.
func newServer(ctx context.Context, h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      5 * time.Minute, // a large mass update waits out the marketplace's rate limits
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
}

// Config is the dashboard's wiring for these settings: the marketplace
// (or, with none, the built-in sandbox), the database with its session
// purger and job runner, the local copy, the history, and the handlers.
func (cfg Settings) Config(log *slog.Logger) Config {
	ac := Config{
		Logger:      log,
		Marketplace: Marketplace{B2B: cfg.B2BURL, B2BTest: cfg.B2BTestURL, Seller: cfg.SellerURL, SellerTest: cfg.SellerTestURL},
		Profile:     cfg.APIProfile, Country: cfg.Country, // SELLERDESK_API_PROFILE, SELLERDESK_COUNTRY
		PriceAPI:    cfg.LamodaPriceAPI, // SELLERDESK_LAMODA_PRICE_API
		DatabaseURL: cfg.DatabaseURL,
		Sessions: sessions.Options{
			Keys: cfg.SessionKeys, IdleTimeout: cfg.IdleTimeout, AbsoluteTimeout: cfg.AbsoluteTimeout,
			// X-Forwarded-Proto reaches the store only from a trusted proxy
			// (the router drops it from anyone else).
			TrustProxyHeaders: len(cfg.TrustedProxies) > 0,
		},
		PurgeEvery: 10 * time.Minute,
		Jobs: &bulkjobs.RunnerOptions{GuardPercent: cfg.BulkGuardPercent, ReadBackDelay: cfg.BulkReadBackDelay,
			Logger: log.With("component", "bulkjobs"), Owner: instanceName(cfg)},
		// One fat-finger guard for the prices forms and the imports.
		Dashboard:  handlers.Deps{TrustedProxies: cfg.TrustedProxies, HistoryRetention: cfg.HistoryRetention, Zone: cfg.Timezone, GuardPercent: cfg.BulkGuardPercent},
		MassUpdate: MassUpdateOptions{FilterKey: cfg.LamodaFilterKey},
		History:    &HistoryOptions{Retention: cfg.HistoryRetention, PruneEvery: time.Hour},
		Catalog:    &CatalogOptions{SyncInterval: cfg.SyncInterval, IdleTimeout: cfg.IdleTimeout},
	}
	if len(cfg.SessionKeys) == 0 {
		ac.KeyFile = cfg.KeyFile()
	}
	if cfg.Demo() {
		sb := demo.Options(cfg.DemoHostile, cfg.DemoProducts, log.With("component", "sandbox"))
		ac.DemoSandbox = &sb
		ac.Dashboard.Demo, ac.Dashboard.DemoCredentials = true, DemoCredentials()
	}
	return ac
}

// instanceName names this dashboard in job leases: the host and the listen
// address, the same after a restart (so the instance takes its own jobs
// back at once) and different for every instance that can listen beside
// it on one host.
func instanceName(cfg Settings) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return host + "/" + cfg.Addr
}

func newLogger(w io.Writer, cfg Settings) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogJSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// displayURL is the address to open in a browser.
func displayURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// TuneGC sets the process's garbage collector as the dashboard runs it
// (internal/gctune: GOGC=400 unless the environment sets GOGC, and a soft
// memory limit of 160 MB unless it sets GOMEMLIMIT). cmd/web calls it
// first thing.
func TuneGC() {
	gctune.Apply()
	gctune.LimitMemory()
}

// DemoCredentials are the demo sandbox's accounts as the login page shows
// them.
func DemoCredentials() []pages.DemoCredential {
	var out []pages.DemoCredential
	for _, c := range demo.Credentials() {
		out = append(out, pages.DemoCredential{ClientID: c.ClientID, ClientSecret: c.ClientSecret, SellerID: c.SellerID, Environment: c.Environment, Note: c.Note})
	}
	return out
}
