package scaleout

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

const (
	postgresEnv = "SELLERDESK_TEST_POSTGRES_URL"
	skipMessage = "set " + postgresEnv + "=postgres://... (sessions/testdata/start-postgres.sh starts one) to run"

	// The seeded sandbox account used throughout.
	demoClientID = "demo-1001"
	demoSecret   = "sandbox-secret-1001"
	demoSeller   = 1001
)

// requirePostgres returns the test database URL or skips the test.
func requirePostgres(t *testing.T) string {
	t.Helper()
	base := os.Getenv(postgresEnv)
	if base == "" {
		t.Skip(skipMessage)
	}
	return base
}

// freshSchema creates an empty schema in the test database, dropped when
// the test ends, and returns a URL whose connections use it: each test sees
// only its own sessions, so it can count rows.
func freshSchema(t *testing.T, base string) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", postgresEnv, redacted(err, base))
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "scaleout_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(ctx)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", postgresEnv)
	}
	q := u.Query()
	q.Set("search_path", schema)
	if !q.Has("connect_timeout") { // a loaded machine's connect, as in sqldbtest.PostgresURL
		q.Set("connect_timeout", "30")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// redacted is err's text without the password of dsn.
func redacted(err error, dsn string) string {
	s := err.Error()
	if u, perr := url.Parse(dsn); perr == nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			s = strings.ReplaceAll(s, pw, "xxxxx")
		}
	}
	return s
}

// pair is two dashboard instances, A and B, in front of one sandbox and one
// session database.
type pair struct {
	Market  *demo.Marketplace
	Sandbox *sandbox.Sandbox
	A, B    *testapp.App
	DSN     string
}

// newPair starts a sandbox and two dashboards on the database at dsn
// (each migrates it; several instances may do so at once). Each dashboard
// opens the database itself (its own connection pool) and has its own
// store and marketplace client, as separate processes would; the sessions,
// the per-seller lock and every other store are shared through it.
func newPair(t *testing.T, dsn string, opts testapp.Options) *pair {
	t.Helper()
	m, err := demo.Start(sandbox.New(opts.Sandbox))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	p := &pair{Market: m, Sandbox: m.Sandbox, DSN: dsn}
	for _, app := range []**testapp.App{&p.A, &p.B} {
		o := opts
		o.Market, o.Database = m, dsn
		*app = testapp.New(t, o)
	}
	return p
}

// sharedPair is a pair on a fresh schema of the test database.
func sharedPair(t *testing.T, opts testapp.Options) *pair {
	t.Helper()
	return newPair(t, freshSchema(t, requirePostgres(t)), opts)
}

// on returns a browser pointed at app that carries from's cookies (from
// being a browser of the other instance): the same person, routed to
// another instance by the load balancer.
func on(t *testing.T, from *testapp.Browser, fromApp, app *testapp.App) *testapp.Browser {
	t.Helper()
	src, _ := url.Parse(fromApp.URL)
	dst, _ := url.Parse(app.URL)
	cookies := from.Client.Jar.Cookies(src)
	if len(cookies) == 0 {
		t.Fatal("no cookies to carry over")
	}
	b := app.Browser(t)
	b.Client.Jar.SetCookies(dst, cookies)
	b.Account = from.Account // the same session's current account
	return b
}

// countRows counts the rows of a table in the schema of dsn.
func countRows(t *testing.T, dsn, table string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", redacted(err, dsn))
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// result is one answer of a request sent from a helper goroutine (which
// must not call t.Fatal).
type result struct {
	status int
	body   string
	header http.Header
	err    error
}

// fetch sends a request with client, without testing.T.
func fetch(client *http.Client, method, rawURL string, form url.Values) result {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, rawURL, body)
	if err != nil {
		return result{err: err}
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := client.Do(req)
	if err != nil {
		return result{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return result{status: resp.StatusCode, body: string(raw), header: resp.Header, err: err}
}

// waitFor polls cond every 10 ms until it holds or the timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
