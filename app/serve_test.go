package app

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	c, err := LoadSettings(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Demo() || c.Addr != "127.0.0.1:8080" || c.DatabaseURL != "sellerdesk.db" || c.IdleTimeout != 8*time.Hour || c.AbsoluteTimeout != 7*24*time.Hour {
		t.Errorf("defaults: %+v", c)
	}
	if c.KeyFile() != "sellerdesk.db.key" {
		t.Errorf("key file %q", c.KeyFile())
	}
	c.DatabaseURL = "sqlite:///var/lib/sd/x.db"
	if c.KeyFile() != "/var/lib/sd/x.db.key" {
		t.Errorf("key file of a sqlite URL: %q", c.KeyFile())
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"partial urls", map[string]string{"SELLERDESK_B2B_URL": "https://b2b.example"}, []string{"set all three"}},
		{"bad url", map[string]string{"SELLERDESK_B2B_URL": "ftp://x", "SELLERDESK_B2B_TEST_URL": "https://t.example", "SELLERDESK_SELLER_URL": "https://s.example"}, []string{"SELLERDESK_B2B_URL: want an absolute http(s) URL"}},
		{"url with credentials", map[string]string{"SELLERDESK_B2B_URL": "https://user:hunter2@b2b.example", "SELLERDESK_B2B_TEST_URL": "https://t.example", "SELLERDESK_SELLER_URL": "https://s.example"}, []string{"without credentials"}},
		{"bad addr", map[string]string{"SELLERDESK_ADDR": "8080"}, []string{"SELLERDESK_ADDR"}},
		{"bad key", map[string]string{"SELLERDESK_SESSION_KEY": "not-hex-secret-value"}, []string{"SELLERDESK_SESSION_KEY: want one or more"}},
		{"postgres without key", map[string]string{"SELLERDESK_DATABASE_URL": "postgres://u:pw@localhost/db"}, []string{"required with PostgreSQL"}},
		{"bad durations", map[string]string{"SELLERDESK_SESSION_IDLE": "5s", "SELLERDESK_SESSION_MAX_AGE": "soon"}, []string{"SELLERDESK_SESSION_IDLE", "SELLERDESK_SESSION_MAX_AGE"}},
		{"idle above max age", map[string]string{"SELLERDESK_SESSION_IDLE": "48h", "SELLERDESK_SESSION_MAX_AGE": "24h"}, []string{"may not exceed"}},
		{"bad bulk settings", map[string]string{"SELLERDESK_BULK_GUARD_PERCENT": "-5", "SELLERDESK_BULK_READBACK_DELAY": "forever"}, []string{"SELLERDESK_BULK_GUARD_PERCENT", "SELLERDESK_BULK_READBACK_DELAY"}},
		{"bad sync interval", map[string]string{"SELLERDESK_SYNC_INTERVAL": "10s"}, []string{"SELLERDESK_SYNC_INTERVAL: want a duration from 1m"}},
		{"bad demo products", map[string]string{"SELLERDESK_DEMO_PRODUCTS": "lots"}, []string{"SELLERDESK_DEMO_PRODUCTS: want a whole number"}},
		{"bad log settings", map[string]string{"SELLERDESK_LOG_LEVEL": "loud", "SELLERDESK_LOG_FORMAT": "xml"}, []string{"SELLERDESK_LOG_LEVEL", "SELLERDESK_LOG_FORMAT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSettings(env(tt.env))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			for _, secret := range []string{"hunter2", "not-hex-secret-value", "pw@"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error echoes a secret: %q", err)
				}
			}
		})
	}
}

func TestLoadConfigRealMarketplace(t *testing.T) {
	c, err := LoadSettings(env(map[string]string{
		"SELLERDESK_B2B_URL": "https://b2b.example/", "SELLERDESK_B2B_TEST_URL": "https://b2b-demo.example",
		"SELLERDESK_SELLER_URL": "https://seller.example", "SELLERDESK_SESSION_KEY": strings.Repeat("ab", 32) + "," + strings.Repeat("cd", 32),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Demo() || c.B2BURL != "https://b2b.example" || len(c.SessionKeys) != 2 || c.SellerTestURL != "" {
		t.Errorf("config %+v", c)
	}
	c, err = LoadSettings(env(map[string]string{
		"SELLERDESK_B2B_URL": "https://b2b.example/", "SELLERDESK_B2B_TEST_URL": "https://b2b-demo.example",
		"SELLERDESK_SELLER_URL": "https://seller.example", "SELLERDESK_SELLER_TEST_URL": "https://seller-test.example/",
		"SELLERDESK_SESSION_KEY": strings.Repeat("ab", 32),
	}))
	if err != nil || c.SellerTestURL != "https://seller-test.example" {
		t.Errorf("with a seller test host: %+v %v", c.SellerTestURL, err)
	}
	if _, err := LoadSettings(env(map[string]string{"SELLERDESK_SELLER_TEST_URL": "https://seller-test.example"})); err == nil ||
		!strings.Contains(err.Error(), "SELLERDESK_SELLER_TEST_URL") {
		t.Errorf("a seller test host without the marketplace URLs: %v", err)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeDemo starts the dashboard as `go run ./cmd/web` would, in demo
// mode, and shuts it down.
func TestServeDemo(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, env(map[string]string{"SELLERDESK_ADDR": "127.0.0.1:0", "SELLERDESK_DATABASE_URL": filepath.Join(dir, "s.db")}), out, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("not ready")
	}
	for _, path := range []string{"/healthz", "/login"} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
		if path == "/login" && !strings.Contains(string(body), "demo-1001") {
			t.Error("login page does not offer the demo credentials")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no shutdown")
	}
	logs := out.String()
	for _, want := range []string{"demo mode", "Seller Desk is listening", "generated a session key"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	// The address to open is said last at start-up, plainly: the first
	// line after the listening line (requests come after it).
	_, after, _ := strings.Cut(logs, "Seller Desk is listening")
	rest := strings.Split(after, "\n")[1:]
	for len(rest) > 0 && strings.TrimSpace(rest[0]) == "" {
		rest = rest[1:]
	}
	if len(rest) == 0 || !strings.HasPrefix(rest[0], "Seller Desk is ready: open http://"+addr) {
		t.Errorf("start-up does not end with the URL to open; after the listening line: %q", rest[:min(2, len(rest))])
	}
}

// TestLoadConfigHistoryRetention: SELLERDESK_HISTORY_RETENTION takes days
// or a duration, defaults to 400 days, and refuses less than a day.
func TestLoadConfigHistoryRetention(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 400 * 24 * time.Hour, "30": 30 * 24 * time.Hour, "90d": 90 * 24 * time.Hour, "720h": 720 * time.Hour} {
		c, err := LoadSettings(env(map[string]string{"SELLERDESK_HISTORY_RETENTION": v}))
		if err != nil || c.HistoryRetention != want {
			t.Errorf("%q: %v %v, want %v", v, c.HistoryRetention, err, want)
		}
	}
	for _, v := range []string{"1h", "0", "forever"} {
		_, err := LoadSettings(env(map[string]string{"SELLERDESK_HISTORY_RETENTION": v}))
		if err == nil || !strings.Contains(err.Error(), "SELLERDESK_HISTORY_RETENTION") {
			t.Errorf("%q: %v", v, err)
		}
	}
}
