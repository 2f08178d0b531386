package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// settingsApp builds the dashboard as cmd/web does, from environment
// settings, on a SQLite file in dir.
func settingsApp(t *testing.T, db string, extra ...string) *app.App {
	t.Helper()
	env := map[string]string{"SELLERDESK_DATABASE_URL": db}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	s, err := app.LoadSettings(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), s.Config(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

// TestReadyz: /readyz answers 200 while the database answers, 503 once
// shutdown begins (Drain) and 503 when the database is gone; /healthz, a
// liveness check, stays 200 throughout.
func TestReadyz(t *testing.T) {
	a := settingsApp(t, filepath.Join(t.TempDir(), "s.db"))
	if w := get(t, a.Handler, "/readyz"); w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("/readyz of a running dashboard: %d %q", w.Code, w.Body)
	}
	a.Drain()
	if w := get(t, a.Handler, "/readyz"); w.Code != http.StatusServiceUnavailable {
		t.Errorf("/readyz after Drain: %d, want 503", w.Code)
	}
	if w := get(t, a.Handler, "/healthz"); w.Code != http.StatusOK {
		t.Errorf("/healthz after Drain: %d, want 200", w.Code)
	}

	b := settingsApp(t, filepath.Join(t.TempDir(), "s.db"))
	_ = b.DB.Close()
	if w := get(t, b.Handler, "/readyz"); w.Code != http.StatusServiceUnavailable || strings.Contains(w.Body.String(), "sql") {
		t.Errorf("/readyz with the database closed: %d %q, want 503 without the reason", w.Code, w.Body)
	}
	if w := get(t, b.Handler, "/healthz"); w.Code != http.StatusOK {
		t.Errorf("/healthz with the database closed: %d, want 200", w.Code)
	}
}

// TestMainVersion: -version prints the build and exits 0 without serving.
func TestMainVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := app.Main(context.Background(), []string{"-version"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("-version: exit %d, %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "sellerdesk ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("-version printed %q", out.String())
	}
	if code := app.Main(context.Background(), []string{"frobnicate"}, nil, &out, &errOut); code != 2 {
		t.Errorf("an unknown command: exit %d, want 2", code)
	}
}

// TestMainHealthcheck: -healthcheck exits 0 when /healthz on
// SELLERDESK_ADDR answers 200 (":port" reaches the loopback), non-zero when
// nothing listens or the answer is not 200.
func TestMainHealthcheck(t *testing.T) {
	a := settingsApp(t, filepath.Join(t.TempDir(), "s.db"))
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	var out, errOut bytes.Buffer
	if code := app.Main(context.Background(), []string{"-healthcheck"}, []string{"SELLERDESK_ADDR=:" + port}, &out, &errOut); code != 0 {
		t.Errorf("-healthcheck on a running server: exit %d, %s", code, errOut.String())
	}

	down := httptest.NewServer(http.NotFoundHandler())
	addr := down.Listener.Addr().String()
	if code := app.Main(context.Background(), []string{"-healthcheck"}, []string{"SELLERDESK_ADDR=" + addr}, &out, &errOut); code == 0 {
		t.Error("-healthcheck on a server answering 404: exit 0")
	}
	down.Close()
	if code := app.Main(context.Background(), []string{"-healthcheck"}, []string{"SELLERDESK_ADDR=" + addr}, &out, &errOut); code == 0 {
		t.Error("-healthcheck with nothing listening: exit 0")
	}
}

// TestBackupRestore: `sellerdesk backup PATH`, taken while the dashboard
// runs on its SQLite file, writes the database and its generated key; put
// back in place of the originals, the pair opens (the key is taken, not
// generated again) and shows the same history.
func TestBackupRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "sellerdesk.db")
	a := settingsApp(t, db)
	at := time.Now().Truncate(time.Millisecond)
	for i, sku := range []string{"SKU-1", "SKU-2"} {
		if err := a.Audit.Record(ctx, audit.Entry{At: at.Add(time.Duration(i) * time.Second), ClientID: "c-1", SellerID: 1001, Environment: "production",
			Kind: audit.KindPrice, Outcome: audit.Accepted, Message: i18n.Plain("ok"),
			Items: []audit.Item{{Key: sku, Old: i18n.Plain("10"), New: i18n.Plain("12"), Outcome: audit.Accepted}}}); err != nil {
			t.Fatal(err)
		}
	}
	want, n, err := a.Audit.List(ctx, audit.Filter{SellerID: 1001, Environment: "production"}, 10, 0, 10)
	if err != nil || n != 2 {
		t.Fatalf("history before the backup: %d entries, %v", n, err)
	}

	backup := filepath.Join(t.TempDir(), "backup.db")
	var out, errOut bytes.Buffer
	if code := app.Main(ctx, []string{"backup", backup}, []string{"SELLERDESK_DATABASE_URL=" + db}, &out, &errOut); code != 0 {
		t.Fatalf("backup while running: exit %d, %s", code, errOut.String())
	}
	for _, f := range []string{backup, backup + ".key"} {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatalf("backup wrote no %s: %v", filepath.Base(f), err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(f), st.Mode().Perm())
		}
	}
	if code := app.Main(ctx, []string{"backup", backup}, []string{"SELLERDESK_DATABASE_URL=" + db}, &out, &errOut); code == 0 {
		t.Error("a backup over an existing one succeeded")
	}
	if err := a.Audit.Record(ctx, audit.Entry{At: at.Add(time.Minute), SellerID: 1001, Environment: "production", Kind: audit.KindPrice, Outcome: audit.Accepted}); err != nil {
		t.Fatal(err)
	}

	// Restore: the pair, copied in place of a lost data directory.
	restoreDir := t.TempDir()
	restored := filepath.Join(restoreDir, "sellerdesk.db")
	for src, dst := range map[string]string{backup: restored, backup + ".key": restored + ".key"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	origKey, _ := os.ReadFile(db + ".key")
	r := settingsApp(t, restored)
	if gotKey, _ := os.ReadFile(restored + ".key"); !bytes.Equal(gotKey, origKey) {
		t.Error("the restored dashboard replaced the restored key")
	}
	got, n, err := r.Audit.List(ctx, audit.Filter{SellerID: 1001, Environment: "production"}, 10, 0, 10)
	if err != nil || n != 2 || len(got) != 2 {
		t.Fatalf("restored history: %d entries, %v; want the 2 of the backup", n, err)
	}
	for i := range want {
		if got[i].At != want[i].At || len(got[i].Items) != 1 || got[i].Items[0].Key != want[i].Items[0].Key {
			t.Errorf("restored entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if w := get(t, r.Handler, "/readyz"); w.Code != http.StatusOK {
		t.Errorf("restored dashboard /readyz: %d", w.Code)
	}
}

// TestBackupRefusesPostgres: PostgreSQL is backed up with pg_dump.
func TestBackupRefusesPostgres(t *testing.T) {
	var out, errOut bytes.Buffer
	env := []string{"SELLERDESK_DATABASE_URL=postgres://u@127.0.0.1:1/db", "SELLERDESK_SESSION_KEY=" + strings.Repeat("ab", 32)}
	if code := app.Main(context.Background(), []string{"backup", filepath.Join(t.TempDir(), "b.db")}, env, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "pg_dump") {
		t.Errorf("backup of PostgreSQL: exit %d, %q; want a refusal naming pg_dump", code, errOut.String())
	}
}

// uaRecorder records the User-Agent of the requests it passes on.
type uaRecorder struct {
	mu  sync.Mutex
	got []string
}

func (u *uaRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	u.mu.Lock()
	u.got = append(u.got, r.Header.Get("User-Agent"))
	u.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// TestUserAgentNamesTheBuild: the marketplace sees SellerDesk/<version>,
// the version -version prints.
func TestUserAgentNamesTheBuild(t *testing.T) {
	rec := &uaRecorder{}
	dir := t.TempDir()
	a, err := app.New(context.Background(), app.Config{
		DemoSandbox: &sandbox.Options{},
		DatabaseURL: filepath.Join(dir, "s.db"), KeyFile: filepath.Join(dir, "s.db.key"),
		APIOptions: func(o *apiclient.Options) { o.HTTPClient = &http.Client{Transport: rec} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	form := url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"production"}}
	req := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	a.Handler.ServeHTTP(httptest.NewRecorder(), req)

	var out bytes.Buffer
	app.Main(context.Background(), []string{"-version"}, nil, &out, &out)
	version := strings.Fields(out.String())[1]
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.got) == 0 {
		t.Fatal("the login made no marketplace call")
	}
	for _, ua := range rec.got {
		if ua != "SellerDesk/"+version {
			t.Errorf("User-Agent %q, want SellerDesk/%s", ua, version)
		}
	}
}
