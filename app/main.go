package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/buildinfo"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Main is the sellerdesk command: args are its arguments (without the
// program's name), environ its environment ("NAME=value", os.Environ).
//
//	sellerdesk               serve until ctx ends
//	sellerdesk -version      print the build and exit
//	sellerdesk -healthcheck  exit 0 when the server on SELLERDESK_ADDR answers /healthz, 1 when not
//	sellerdesk backup PATH   write a consistent copy of the SQLite database (and its .key) while it runs
//
// It returns the process's exit code.
func Main(ctx context.Context, args, environ []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sellerdesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.Bool("version", false, "print the version and exit")
	health := fs.Bool("healthcheck", false, "exit 0 when the server on SELLERDESK_ADDR answers /healthz, 1 when not (the container's HEALTHCHECK)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sellerdesk [-version | -healthcheck | backup PATH]\nSettings are the SELLERDESK_* environment variables (docs/operations.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	getenv := lookup(environ)
	switch rest := fs.Args(); {
	case *version:
		fmt.Fprintln(stdout, "sellerdesk", buildinfo.Get())
		return 0
	case *health:
		if err := Healthcheck(ctx, getenv("SELLERDESK_ADDR")); err != nil {
			fmt.Fprintln(stderr, "sellerdesk: unhealthy:", err)
			return 1
		}
		return 0
	case len(rest) == 2 && rest[0] == "backup":
		if err := Backup(ctx, getenv, rest[1], stdout); err != nil {
			fmt.Fprintln(stderr, "sellerdesk: backup:", err)
			return 1
		}
		return 0
	case len(rest) > 0:
		fs.Usage()
		return 2
	}
	if err := serve(ctx, getenv, environ, stdout, nil); err != nil {
		fmt.Fprintln(stderr, "sellerdesk:", err)
		return 1
	}
	return 0
}

// lookup is getenv over environ; the last entry of a name wins, as in
// os.Getenv.
func lookup(environ []string) func(string) string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// Healthcheck GETs /healthz from the server listening on addr
// (SELLERDESK_ADDR; "" is the default 127.0.0.1:8080, an unspecified host
// is this machine's loopback) and fails unless it answers 200 within 3 s.
// It needs no shell, so it serves as a distroless image's HEALTHCHECK.
func Healthcheck(ctx context.Context, addr string) error {
	u, err := healthURL(addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return nil
}

func healthURL(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("SELLERDESK_ADDR: want host:port or :port, like :8080")
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// Backup writes a consistent copy of the dashboard's SQLite database to
// dst (sqldb.DB.BackupTo: SQLite's online backup, while the server runs)
// and, when the session key is the generated one kept beside the database,
// a copy of that key file to dst + ".key": the pair restores together. With PostgreSQL it
// refuses: pg_dump is that database's backup (docs/operations.md).
func Backup(ctx context.Context, getenv func(string) string, dst string, stdout io.Writer) error {
	cfg, err := LoadSettings(getenv)
	if err != nil {
		return err
	}
	if cfg.Postgres() {
		return errors.New("the database is PostgreSQL: back it up with pg_dump (docs/operations.md)")
	}
	src, err := sqldb.SQLitePath(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no database to back up: %w", err)
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("%s exists: name a new file", dst)
	}
	keyDst := dst + ".key"
	copyKey := len(cfg.SessionKeys) == 0
	if copyKey {
		if _, err := os.Stat(keyDst); err == nil {
			return fmt.Errorf("%s exists: name a new file", keyDst)
		}
	}
	db, err := sqldb.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.BackupTo(ctx, dst); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "database copied to", dst)
	if !copyKey {
		fmt.Fprintln(stdout, "the session key comes from SELLERDESK_SESSION_KEY(_FILE): keep it with the backup, apart from it")
		return nil
	}
	if err := copyFile(cfg.KeyFile(), keyDst); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(stdout, "no session key file beside the database: nothing else to keep")
			return nil
		}
		return fmt.Errorf("session key: %w", err)
	}
	fmt.Fprintln(stdout, "session key copied to", keyDst, "(restore both together)")
	return nil
}

// copyFile copies a small private file to a new file readable by its
// owner only.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(dst)
		return err
	}
	return f.Close()
}
