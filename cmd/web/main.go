// Command web serves the Seller Desk dashboard. With no configuration it
// runs in demo mode against the built-in marketplace sandbox.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/internal/demo"
	"github.com/sellerdesk/sellerdesk/internal/gctune"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	gctune.Apply() // GOGC=400 unless the environment says otherwise; see internal/gctune
	if err := run(ctx, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sellerdesk:", err)
		os.Exit(1)
	}
}

// run starts the dashboard and serves until ctx ends, then shuts down
// gracefully. ready, when not nil, receives the listening address.
func run(ctx context.Context, getenv func(string) string, stdout io.Writer) error {
	return serve(ctx, getenv, stdout, nil)
}

func serve(ctx context.Context, getenv func(string) string, stdout io.Writer, ready chan<- string) error {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stdout, cfg)
	format.SetZone(cfg.Timezone) // SELLERDESK_TIMEZONE (issue 18)

	demoMode := cfg.Demo()
	var demoCreds = demo.Credentials()
	if demoMode {
		m, err := demo.Start(sandbox.New(sandbox.Options{Live: true, Hostile: cfg.DemoHostile, Profile: string(cfg.APIProfile), Logger: log.With("component", "sandbox")}))
		if err != nil {
			return err
		}
		defer m.Close()
		cfg.B2BURL, cfg.B2BTestURL, cfg.SellerURL = m.B2BURL, m.B2BTestURL, m.SellerURL
		log.Warn("demo mode: no marketplace configured, using the built-in sandbox", "sandbox", m.B2BURL, "profile", cfg.APIProfile)
		for _, c := range demoCreds {
			log.Info("demo credentials", "client_id", c.ClientID, "client_secret", c.ClientSecret, "seller_id", c.SellerID, "note", c.Note)
		}
	} else {
		demoCreds = nil
	}

	store, closeStore, err := openSessions(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeStore()
	purged := store.StartPurger(ctx, 10*time.Minute)
	jobs, closeJobs, err := openJobs(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeJobs()

	api, err := apiclient.New(apiclient.Options{
		B2BBaseURL: cfg.B2BURL, B2BTestBaseURL: cfg.B2BTestURL, SellerBaseURL: cfg.SellerURL, SellerTestBaseURL: cfg.SellerTestURL,
		UserAgent: "SellerDesk/1.0", Logger: log.With("component", "apiclient"),
		Profile: cfg.APIProfile, Country: cfg.Country, // SELLERDESK_API_PROFILE, SELLERDESK_COUNTRY (issue 15)
	})
	if err != nil {
		return err
	}
	app, err := handlers.New(handlers.Deps{API: api, Sessions: store, Logger: log, Demo: demoMode, DemoCredentials: demoCreds, Jobs: jobs,
		TrustedProxies: cfg.TrustedProxies})
	if err != nil {
		return err
	}
	if err := jobs.Start(ctx); err != nil {
		return fmt.Errorf("bulk jobs: %w", err)
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := newServer(ctx, app, log)
	log.Info("Seller Desk is listening", "url", displayURL(ln.Addr()), "demo", demoMode)
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
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	<-purged
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

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

// openSessions opens the session database and its keys.
func openSessions(ctx context.Context, cfg Config, log *slog.Logger) (*sessions.Store, func(), error) {
	var backend sessions.Backend
	var err error
	if cfg.Postgres() {
		backend, err = sessions.OpenPostgres(ctx, cfg.DatabaseURL)
	} else {
		backend, err = sessions.OpenSQLite(ctx, cfg.DatabaseURL)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("session store: %w", err)
	}
	keys := cfg.SessionKeys
	if len(keys) == 0 {
		key, created, err := sessions.LoadOrCreateKeyFile(cfg.KeyFile())
		if err != nil {
			backend.Close()
			return nil, nil, fmt.Errorf("session key: %w", err)
		}
		if created {
			log.Warn("SELLERDESK_SESSION_KEY is not set: generated a session key and kept it beside the database; set the variable in production", "file", cfg.KeyFile())
		}
		keys = [][]byte{key}
	}
	store, err := sessions.NewStore(backend, sessions.Options{
		Keys: keys, IdleTimeout: cfg.IdleTimeout, AbsoluteTimeout: cfg.AbsoluteTimeout,
		Logger: log.With("component", "sessions"), // X-Forwarded-Proto reaches the store only from a trusted proxy
		// (the router drops it from anyone else).
		TrustProxyHeaders: len(cfg.TrustedProxies) > 0,
	})
	if err != nil {
		backend.Close()
		return nil, nil, fmt.Errorf("session store: %w", err)
	}
	return store, func() { backend.Close() }, nil
}

func newLogger(w io.Writer, cfg Config) *slog.Logger {
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
