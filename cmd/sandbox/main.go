// Command sandbox serves the marketplace sandbox on a port, for integrators
// and manual demos:
//
//	go run ./cmd/sandbox -addr 127.0.0.1:9090 -admin
//
// It prints the three base URLs and the seeded credentials, logs with slog and
// shuts down cleanly on SIGINT or SIGTERM.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	addr             string
	seed             int64
	tokenTTL         time.Duration
	admin            bool
	hostile          bool
	resendProcessing time.Duration
	priceApplyDelay  time.Duration
	frozen           bool
	profile          string
	products         int
	sellers          int
	logLevel         slog.Level
}

func parseFlags(args []string, out io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:9090", "listen address (port 0 picks a free port)")
	fs.Int64Var(&cfg.seed, "seed", sandbox.DefaultSeed, "seed of the fixtures and ids")
	fs.DurationVar(&cfg.tokenTTL, "token-ttl", sandbox.DefaultTokenTTL, "lifetime of issued tokens")
	fs.BoolVar(&cfg.admin, "admin", false, "serve the /_sandbox/ admin surface (faults, clock, counters)")
	fs.BoolVar(&cfg.hostile, "hostile", false, "add hostile records (markup, 100 KB names, control characters) for seller 1001")
	fs.DurationVar(&cfg.resendProcessing, "resend-processing", sandbox.DefaultResendProcessing, "how long resent notifications stay processing (sandbox clock)")
	fs.DurationVar(&cfg.priceApplyDelay, "price-apply-delay", 0, "PROCESSING phase of a price change (sandbox clock); 0 applies at once")
	fs.BoolVar(&cfg.frozen, "frozen-clock", false, "keep the clock at the fixed start date (moved only by /_sandbox/clock/advance) instead of following the wall clock")
	fs.StringVar(&cfg.profile, "profile", sandbox.ProfileContract, "wire profile served: contract (the interface contract) or lamoda (the marketplace's published shapes)")
	fs.IntVar(&cfg.products, "products", 0, fmt.Sprintf("products per seller, each stocked in 3 warehouses (0 = the default 200; at most %d)", sandbox.MaxProductsPerSeller))
	fs.IntVar(&cfg.sellers, "sellers", 0, fmt.Sprintf("sellers seeded: the three listed, then 1004, 1005, ... each with its credentials demo-<id> / sandbox-secret-<id> (0 = the default 3; at most %d)", sandbox.MaxSellers))
	fs.TextVar(&cfg.logLevel, "log-level", slog.LevelInfo, "log level: DEBUG, INFO, WARN or ERROR")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if !slices.Contains(sandbox.Profiles(), cfg.profile) {
		return cfg, fmt.Errorf("unknown -profile %q: want one of %v", cfg.profile, sandbox.Profiles())
	}
	if cfg.products < 0 || cfg.products > sandbox.MaxProductsPerSeller {
		return cfg, fmt.Errorf("-products %d: want 0 (the default) to %d", cfg.products, sandbox.MaxProductsPerSeller)
	}
	if cfg.sellers != 0 && (cfg.sellers < 3 || cfg.sellers > sandbox.MaxSellers) {
		return cfg, fmt.Errorf("-sellers %d: want 0 (the default 3) or 3 to %d", cfg.sellers, sandbox.MaxSellers)
	}
	if cfg.tokenTTL <= 0 || cfg.resendProcessing <= 0 || cfg.priceApplyDelay < 0 {
		return cfg, errors.New("durations must be positive (price-apply-delay may be 0)")
	}
	return cfg, nil
}

// run parses args, serves the sandbox until ctx is done, then shuts down.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stdout, &slog.HandlerOptions{Level: cfg.logLevel}))
	sb := sandbox.New(sandboxOptions(cfg, logger))

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	origin := "http://" + ln.Addr().String()
	printBanner(stdout, origin, cfg, sb.Credentials())

	srv := &http.Server{
		Handler:           logRequests(logger, sb),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("sandbox listening", "origin", origin, "admin", cfg.admin, "seed", cfg.seed, "profile", cfg.profile)

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Hanging requests (the hang fault) end when their connection closes.
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// sandboxOptions are the sandbox's options for cfg.
func sandboxOptions(cfg config, logger *slog.Logger) sandbox.Options {
	return sandbox.Options{
		Seed:              cfg.seed,
		TokenTTL:          cfg.tokenTTL,
		ResendProcessing:  cfg.resendProcessing,
		PriceApplyDelay:   cfg.priceApplyDelay,
		Admin:             cfg.admin,
		Hostile:           cfg.hostile,
		Live:              !cfg.frozen,
		Profile:           cfg.profile,
		ProductsPerSeller: cfg.products,
		Sellers:           cfg.sellers,
		Logger:            logger,
	}
}

// printBanner writes the addresses and credentials in one write, so a
// reader of the output (a person, a script, a test) never sees half of it.
func printBanner(out io.Writer, origin string, cfg config, creds []sandbox.Credential) {
	var w bytes.Buffer
	defer func() { _, _ = out.Write(w.Bytes()) }()
	fmt.Fprintf(&w, "Seller Desk marketplace sandbox (wire profile %s)\n", cfg.profile)
	if cfg.products > 0 {
		fmt.Fprintf(&w, "  %d products per seller, %d nomenclature records each\n", cfg.products, 3*cfg.products)
	}
	fmt.Fprintln(&w)
	fmt.Fprintf(&w, "  {b2b_base_url}       %s\n", origin)
	fmt.Fprintf(&w, "  {b2b_demo_base_url}  %s/test\n", origin)
	fmt.Fprintf(&w, "  {seller_base_url}    %s  (JSON-RPC %s/jsonrpc, REST %s/api/v2/...)\n", origin, origin, origin)
	if cfg.admin {
		fmt.Fprintf(&w, "  admin                %s/_sandbox/\n", origin)
	}
	fmt.Fprintf(&w, "\nCredentials:\n")
	tw := tabwriter.NewWriter(&w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  seller\tclient_id\tclient_secret\tB2B production\tB2B test\tseller APIs\n")
	for _, c := range creds {
		prod := "yes"
		if !c.B2BProduction {
			prod = "no (400)"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\tyes\tyes\n", c.SellerID, c.ClientID, c.ClientSecret, prod)
	}
	_ = tw.Flush()
	fmt.Fprintln(&w)
}

// logRequests logs one line per request; it never logs headers or bodies, so
// no secret or token reaches the log.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		logger.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"duration", time.Since(start), "request_id", sw.Header().Get("X-Request-ID"))
	})
}

// statusWriter records the status code; Unwrap keeps Hijack and Flush
// reachable through http.ResponseController.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
