package app

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/httpx/realip"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// Settings are every setting of the dashboard, read from the environment
// once at start (LoadSettings) and validated as a whole; Settings.Config
// turns them into the wiring New takes.
type Settings struct {
	Addr string
	// MetricsAddr is SELLERDESK_METRICS_ADDR: where the Prometheus
	// metrics are served (GET /metrics, on a listener of their own); ""
	// serves none. Loopback or an internal network only: the metrics
	// carry no secret, but they tell the load and the marketplace's
	// answers to whoever reads them.
	MetricsAddr string

	// The marketplace's base URLs; all three empty means demo mode (the
	// built-in sandbox).
	B2BURL, B2BTestURL, SellerURL string
	// SellerTestURL is an optional separate seller host for the test
	// environment (SELLERDESK_SELLER_TEST_URL); without it test logins
	// edit the live catalogue, and the pages say so.
	SellerTestURL string

	DatabaseURL string
	// SessionKeys seal sessions; the first signs, the rest still open
	// (rotation). Empty means "generate and keep beside the SQLite file".
	SessionKeys [][]byte

	IdleTimeout, AbsoluteTimeout time.Duration
	LogLevel                     slog.Level
	LogJSON                      bool
	DemoHostile                  bool
	// DemoProducts is SELLERDESK_DEMO_PRODUCTS: products per seller of the
	// demo sandbox (0 = its default fixtures).
	DemoProducts int
	// SyncInterval is SELLERDESK_SYNC_INTERVAL: how often the local copy
	// of a catalogue in use is fully refreshed.
	SyncInterval time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (login throttling); empty trusts none.
	TrustedProxies []netip.Prefix

	// BulkGuardPercent is the fat-finger guard of every price change (the
	// prices forms and bulk imports) and of an import's stock: a change
	// beyond it needs an explicit confirmation; -1 turns the guard off.
	BulkGuardPercent int
	// BulkReadBackDelay is how long after a bulk job its rows are re-read.
	BulkReadBackDelay time.Duration
	// HistoryRetention is how long the audit trail keeps a change
	// (SELLERDESK_HISTORY_RETENTION: a duration or a number of days).
	HistoryRetention time.Duration

	// APIProfile is the wire profile spoken to the marketplace
	// (SELLERDESK_API_PROFILE): contract (default) or lamoda. Demo mode's
	// sandbox serves the same profile.
	APIProfile apiclient.Profile
	// Country is sent where the lamoda profile needs one
	// (SELLERDESK_COUNTRY: RU, BY, KZ or UA; default RU).
	Country string
	// LamodaFilterKey is the filter key the lamoda profile's stock and
	// status writes select records by (SELLERDESK_LAMODA_FILTER_KEY; ""
	// means massupdate.DefaultFilterKey), for a partner whose manager
	// names another; a dry run guards either way.
	LamodaFilterKey string
	// LamodaPriceAPI is the API the lamoda profile writes card prices
	// through (SELLERDESK_LAMODA_PRICE_API: v1, the default, the JSON-RPC
	// set-prices; or v2, the Seller API v2's nomenclatures-prices).
	LamodaPriceAPI apiclient.PriceAPI
	// Timezone is the one zone pages show times in, labelled
	// (SELLERDESK_TIMEZONE, an IANA name; default Europe/Moscow). An unknown
	// name is refused at start.
	Timezone *time.Location
}

// countries are the values of SELLERDESK_COUNTRY (the marketplace's
// Country enum).
var countries = []string{"RU", "BY", "KZ", "UA"}

// Demo reports whether the dashboard runs against the built-in sandbox.
func (c Settings) Demo() bool { return c.B2BURL == "" && c.B2BTestURL == "" && c.SellerURL == "" }

// Postgres reports whether sessions live in PostgreSQL.
func (c Settings) Postgres() bool { return sqldb.IsPostgresURL(c.DatabaseURL) }

// KeyFile is where a generated session key is kept for a SQLite database.
func (c Settings) KeyFile() string {
	path, err := sqldb.SQLitePath(c.DatabaseURL)
	if err != nil {
		path = c.DatabaseURL // sqldb.Open refuses it before a key is needed
	}
	return filepath.Join(filepath.Dir(path), filepath.Base(path)+".key")
}

// LoadSettings reads the SELLERDESK_* variables through getenv (os.Getenv).
// Every problem is reported at once, each naming its variable; values that
// may be secret are never echoed.
func LoadSettings(getenv func(string) string) (Settings, error) {
	c := Settings{
		Addr:            "127.0.0.1:8080",
		DatabaseURL:     "sellerdesk.db",
		IdleTimeout:     8 * time.Hour,
		AbsoluteTimeout: 7 * 24 * time.Hour,
		LogLevel:        slog.LevelInfo,

		BulkGuardPercent:  50,
		BulkReadBackDelay: time.Minute,
		HistoryRetention:  audit.DefaultRetention,

		APIProfile: apiclient.ProfileContract,
		Country:    apiclient.DefaultCountry,
	}
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	// secret reads a secret from its variable or from the file its _FILE
	// variant names (a container's secret), never both.
	secret := func(name string) string {
		v, file := get(name), get(name+fileSuffix)
		if file == "" {
			return v
		}
		if v != "" {
			bad(name, "set %s or %s%s, not both", name, name, fileSuffix)
			return v
		}
		fv, err := readSecretFile(file)
		if err != nil {
			bad(name+fileSuffix, "%v", err)
		}
		return fv
	}

	if v := get("SELLERDESK_ADDR"); v != "" {
		if _, _, err := net.SplitHostPort(v); err != nil {
			bad("SELLERDESK_ADDR", "want host:port or :port, like :8080")
		}
		c.Addr = v
	}
	if v := get("SELLERDESK_METRICS_ADDR"); v != "" {
		if _, _, err := net.SplitHostPort(v); err != nil {
			bad("SELLERDESK_METRICS_ADDR", "want host:port, like 127.0.0.1:9090")
		} else if v == c.Addr {
			bad("SELLERDESK_METRICS_ADDR", "want an address of its own, not SELLERDESK_ADDR's")
		}
		c.MetricsAddr = v
	}
	urls := []struct {
		name string
		dst  *string
	}{{"SELLERDESK_B2B_URL", &c.B2BURL}, {"SELLERDESK_B2B_TEST_URL", &c.B2BTestURL}, {"SELLERDESK_SELLER_URL", &c.SellerURL}}
	set := 0
	for _, u := range urls {
		v := get(u.name)
		if v == "" {
			continue
		}
		set++
		p, err := url.Parse(v)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil || p.RawQuery != "" {
			bad(u.name, "want an absolute http(s) URL without credentials or query, like https://api.example.com")
			continue
		}
		*u.dst = strings.TrimRight(v, "/")
	}
	if v := get("SELLERDESK_SELLER_TEST_URL"); v != "" {
		p, err := url.Parse(v)
		switch {
		case err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil || p.RawQuery != "":
			bad("SELLERDESK_SELLER_TEST_URL", "want an absolute http(s) URL without credentials or query, like https://seller-test.example.com")
		case set == 0:
			bad("SELLERDESK_SELLER_TEST_URL", "set it only with the three marketplace URLs (the demo sandbox has no separate test host)")
		default:
			c.SellerTestURL = strings.TrimRight(v, "/")
		}
	}
	if set != 0 && set != len(urls) {
		errs = append(errs, errors.New("SELLERDESK_B2B_URL, SELLERDESK_B2B_TEST_URL and SELLERDESK_SELLER_URL: set all three (real marketplace) or none (demo sandbox)"))
	}
	if v := secret("SELLERDESK_DATABASE_URL"); v != "" {
		c.DatabaseURL = v
	}
	if v := secret("SELLERDESK_SESSION_KEY"); v != "" {
		keys, err := sessions.ParseKeys(v)
		if err != nil {
			bad("SELLERDESK_SESSION_KEY", "want one or more comma-separated keys of 64 hex characters (generate one with: openssl rand -hex 32)")
		}
		c.SessionKeys = keys
	} else if c.Postgres() {
		errs = append(errs, errors.New("SELLERDESK_SESSION_KEY (or SELLERDESK_SESSION_KEY_FILE): required with PostgreSQL (the same key on every instance; never stored beside the data it seals)"))
	}
	durations := []struct {
		name string
		dst  *time.Duration
	}{{"SELLERDESK_SESSION_IDLE", &c.IdleTimeout}, {"SELLERDESK_SESSION_MAX_AGE", &c.AbsoluteTimeout}}
	for _, d := range durations {
		if v := get(d.name); v != "" {
			parsed, err := time.ParseDuration(v)
			if err != nil || parsed < time.Minute {
				bad(d.name, "want a duration of at least 1m, like 8h")
				continue
			}
			*d.dst = parsed
		}
	}
	if c.IdleTimeout > c.AbsoluteTimeout {
		errs = append(errs, errors.New("SELLERDESK_SESSION_IDLE: may not exceed SELLERDESK_SESSION_MAX_AGE"))
	}
	switch v := strings.ToLower(get("SELLERDESK_LOG_LEVEL")); v {
	case "", "info":
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "warn":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		bad("SELLERDESK_LOG_LEVEL", "want debug, info, warn or error")
	}
	switch v := strings.ToLower(get("SELLERDESK_LOG_FORMAT")); v {
	case "", "text":
	case "json":
		c.LogJSON = true
	default:
		bad("SELLERDESK_LOG_FORMAT", "want text or json")
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"SELLERDESK_DEMO_HOSTILE", &c.DemoHostile}} {
		switch v := strings.ToLower(get(b.name)); v {
		case "", "0", "false", "no":
		case "1", "true", "yes":
			*b.dst = true
		default:
			bad(b.name, "want true or false")
		}
	}
	if n, err := demo.ParseProducts(get(demo.ProductsEnv)); err != nil {
		bad(demo.ProductsEnv, "%v", err)
	} else {
		c.DemoProducts = n
	}
	c.SyncInterval = copystore.DefaultInterval
	if v := get("SELLERDESK_SYNC_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 24*time.Hour {
			bad("SELLERDESK_SYNC_INTERVAL", "want a duration from 1m to 24h, like 15m")
		} else {
			c.SyncInterval = d
		}
	}
	if v := get("SELLERDESK_BULK_GUARD_PERCENT"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < 0 || n > 1000:
			bad("SELLERDESK_BULK_GUARD_PERCENT", "want a whole number from 0 (off) to 1000")
		case n == 0:
			c.BulkGuardPercent = -1
		default:
			c.BulkGuardPercent = n
		}
	}
	if v := get("SELLERDESK_BULK_READBACK_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > 24*time.Hour {
			bad("SELLERDESK_BULK_READBACK_DELAY", "want a duration up to 24h, like 2m")
		} else {
			c.BulkReadBackDelay = d
		}
	}
	if v := get("SELLERDESK_HISTORY_RETENTION"); v != "" {
		d, err := audit.ParseRetention(v)
		if err != nil {
			bad("SELLERDESK_HISTORY_RETENTION", "%v, like 400 or 400d", err)
		} else {
			c.HistoryRetention = d
		}
	}
	if v := get("SELLERDESK_TRUSTED_PROXIES"); v != "" {
		p, err := realip.ParseTrusted(v)
		if err != nil {
			bad("SELLERDESK_TRUSTED_PROXIES", "want a comma-separated list of CIDR prefixes or addresses, like 10.0.0.0/8,192.0.2.7: %v", err)
		}
		c.TrustedProxies = p
	}
	switch v := strings.ToLower(get("SELLERDESK_API_PROFILE")); v {
	case "", string(apiclient.ProfileContract):
	case string(apiclient.ProfileLamoda):
		c.APIProfile = apiclient.ProfileLamoda
	default:
		bad("SELLERDESK_API_PROFILE", "want contract (the interface contract, the default) or lamoda (the marketplace's published shapes)")
	}
	if v := strings.ToUpper(get("SELLERDESK_COUNTRY")); v != "" {
		if !slices.Contains(countries, v) {
			bad("SELLERDESK_COUNTRY", "want one of %s", strings.Join(countries, ", "))
		}
		c.Country = v
	}
	switch v := strings.ToLower(get("SELLERDESK_LAMODA_PRICE_API")); v {
	case "", string(apiclient.PriceAPIV1):
	case string(apiclient.PriceAPIV2):
		if c.APIProfile != apiclient.ProfileLamoda {
			bad("SELLERDESK_LAMODA_PRICE_API", "v2 is the lamoda profile's price API; set SELLERDESK_API_PROFILE=lamoda")
		}
		c.LamodaPriceAPI = apiclient.PriceAPIV2
	default:
		bad("SELLERDESK_LAMODA_PRICE_API", "want v1 (the JSON-RPC set-prices, the default) or v2 (the Seller API v2)")
	}
	if v := get("SELLERDESK_LAMODA_FILTER_KEY"); v != "" {
		if len(v) > 64 || strings.ContainsFunc(v, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.')
		}) {
			bad("SELLERDESK_LAMODA_FILTER_KEY", "want a field name such as supplierSku (letters, digits, _ and .)")
		}
		c.LamodaFilterKey = v
	}
	if loc, err := format.LoadZone(get("SELLERDESK_TIMEZONE")); err != nil {
		bad("SELLERDESK_TIMEZONE", "unknown time zone; want an IANA name such as Europe/Moscow (the default) or Asia/Almaty")
	} else {
		c.Timezone = loc
	}
	if len(errs) > 0 {
		return Settings{}, fmt.Errorf("configuration: %w", errors.Join(errs...))
	}
	return c, nil
}

// fileSuffix names a secret's file variant: SELLERDESK_SESSION_KEY_FILE
// holds the path of a file whose content is SELLERDESK_SESSION_KEY.
const fileSuffix = "_FILE"

// secretNames are the settings that may come from a file.
var secretNames = []string{"SELLERDESK_SESSION_KEY", "SELLERDESK_DATABASE_URL"}

// maxSecretFile bounds a secret file: a key list or a URL is far smaller.
const maxSecretFile = 64 << 10

// readSecretFile reads a secret file, trimmed of surrounding white space
// (an editor's final newline). Its content never appears in an error.
func readSecretFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the file: %w", err)
	}
	defer f.Close()
	b := make([]byte, maxSecretFile+1)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("cannot read the file %s", path)
	}
	if n > maxSecretFile {
		return "", fmt.Errorf("the file %s is larger than %d bytes", path, maxSecretFile)
	}
	v := strings.TrimSpace(string(b[:n]))
	if v == "" {
		return "", fmt.Errorf("the file %s is empty", path)
	}
	return v, nil
}

// settingNames are every SELLERDESK_* variable LoadSettings reads (a
// test holds the list to this file's source).
var settingNames = []string{
	"SELLERDESK_ADDR", "SELLERDESK_METRICS_ADDR", "SELLERDESK_B2B_URL", "SELLERDESK_B2B_TEST_URL", "SELLERDESK_SELLER_URL", "SELLERDESK_SELLER_TEST_URL",
	"SELLERDESK_DATABASE_URL", "SELLERDESK_SESSION_KEY", "SELLERDESK_SESSION_IDLE", "SELLERDESK_SESSION_MAX_AGE",
	"SELLERDESK_LOG_LEVEL", "SELLERDESK_LOG_FORMAT", "SELLERDESK_DEMO_HOSTILE", demo.ProductsEnv, "SELLERDESK_SYNC_INTERVAL",
	"SELLERDESK_BULK_GUARD_PERCENT", "SELLERDESK_BULK_READBACK_DELAY", "SELLERDESK_HISTORY_RETENTION", "SELLERDESK_TRUSTED_PROXIES",
	"SELLERDESK_API_PROFILE", "SELLERDESK_COUNTRY", "SELLERDESK_LAMODA_PRICE_API", "SELLERDESK_LAMODA_FILTER_KEY", "SELLERDESK_TIMEZONE",
}

// toolingNames are SELLERDESK_* variables the tests, journeys and benchmarks
// read; the dashboard ignores them without a warning.
var toolingNames = []string{"SELLERDESK_E2E", "SELLERDESK_E2E_LANG", "SELLERDESK_E2E_ARTIFACTS", "SELLERDESK_TEST_POSTGRES_URL"}

// UnknownVariables names the SELLERDESK_* variables of environ
// ("NAME=value" entries, as os.Environ gives them) the dashboard does not
// read: a misspelt name would otherwise be ignored without a word. Values
// are never looked at.
func UnknownVariables(environ []string) []string {
	known := map[string]bool{}
	for _, n := range settingNames {
		known[n] = true
	}
	for _, n := range secretNames {
		known[n+fileSuffix] = true
	}
	for _, n := range toolingNames {
		known[n] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SELLERDESK_") && !known[name] && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
