package app

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveFor runs Serve with vars until the test's cleanup and returns the
// dashboard's address and its log.
func serveFor(t *testing.T, vars map[string]string) (addr string, out *syncBuffer, stop func()) {
	t.Helper()
	vars["SELLERDESK_ADDR"] = "127.0.0.1:0"
	vars["SELLERDESK_DATABASE_URL"] = filepath.Join(t.TempDir(), "s.db")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	out = &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, env(vars), out, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("not ready")
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("shutdown: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("no shutdown")
		}
	}
	t.Cleanup(stop)
	return addr, out, stop
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Without SELLERDESK_METRICS_ADDR no metrics are served, on a listener of
// their own or on the dashboard's.
func TestMetricsOffWhenUnset(t *testing.T) {
	addr, out, stop := serveFor(t, map[string]string{})
	if code, _ := get(t, "http://"+addr+"/metrics"); code != http.StatusNotFound && code != http.StatusSeeOther {
		t.Errorf("the dashboard's /metrics: %d, want no metrics there", code)
	}
	stop()
	if strings.Contains(out.String(), "metrics are served") {
		t.Error("a metrics listener started with SELLERDESK_METRICS_ADDR unset")
	}
}

// With SELLERDESK_METRICS_ADDR the metrics are served there, at /metrics
// only, and the listener stops with the server.
func TestMetricsListener(t *testing.T) {
	maddr := freeAddr(t)
	addr, out, stop := serveFor(t, map[string]string{"SELLERDESK_METRICS_ADDR": maddr})
	if code, _ := get(t, "http://"+addr+"/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz: %d", code)
	}
	code, body := get(t, "http://"+maddr+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{"sellerdesk_build_info{", `sellerdesk_http_request_duration_seconds_count{method="GET",route="/healthz",status="2xx"} 1`,
		"sellerdesk_db_connections{", "go_goroutines ", "process_"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if code, _ := get(t, "http://"+maddr+"/"); code != http.StatusNotFound {
		t.Errorf("the metrics listener's /: %d, want 404", code)
	}
	if code, _ := get(t, "http://"+addr+"/metrics"); code == http.StatusOK {
		t.Error("the dashboard's own listener serves the metrics too")
	}
	stop()
	if !strings.Contains(out.String(), "metrics are served") {
		t.Error("the start log does not say where the metrics are")
	}
	if c, err := net.DialTimeout("tcp", maddr, 2*time.Second); err == nil {
		c.Close()
		t.Error("the metrics listener is still open after shutdown")
	}
}

func TestLoadConfigMetricsAddr(t *testing.T) {
	c, err := LoadSettings(env(map[string]string{"SELLERDESK_METRICS_ADDR": "127.0.0.1:9090"}))
	if err != nil || c.MetricsAddr != "127.0.0.1:9090" {
		t.Errorf("%q %v", c.MetricsAddr, err)
	}
	if c, err := LoadSettings(env(nil)); err != nil || c.MetricsAddr != "" {
		t.Errorf("default: %q %v, want off", c.MetricsAddr, err)
	}
	for _, v := range []string{"9090", "127.0.0.1:8080"} {
		if _, err := LoadSettings(env(map[string]string{"SELLERDESK_METRICS_ADDR": v})); err == nil || !strings.Contains(err.Error(), "SELLERDESK_METRICS_ADDR") {
			t.Errorf("%q: %v", v, err)
		}
	}
}
