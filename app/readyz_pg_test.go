package app_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// tcpProxy forwards connections to target until stop, which also cuts
// every connection in flight: the database "stops" for its clients.
type tcpProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *tcpProxy) stop() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestReadyzPostgresDown: with PostgreSQL gone, /readyz answers 503 and
// /healthz still 200 (a liveness check: restarting the dashboard would not
// bring the database back).
func TestReadyzPostgresDown(t *testing.T) {
	u, err := url.Parse(sqldbtest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newTCPProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	s, err := app.LoadSettings(func(k string) string {
		switch k {
		case "SELLERDESK_DATABASE_URL":
			return u.String()
		case "SELLERDESK_SESSION_KEY":
			return strings.Repeat("ab", 32)
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), s.Config(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if w := get(t, a.Handler, "/readyz"); w.Code != http.StatusOK {
		t.Fatalf("/readyz with PostgreSQL up: %d", w.Code)
	}
	proxy.stop()
	start := time.Now()
	if w := get(t, a.Handler, "/readyz"); w.Code != http.StatusServiceUnavailable {
		t.Errorf("/readyz with PostgreSQL down: %d, want 503", w.Code)
	}
	t.Logf("/readyz answered 503 in %v", time.Since(start)) // for information: bounded by the handler's 1 s
	if w := get(t, a.Handler, "/healthz"); w.Code != http.StatusOK {
		t.Errorf("/healthz with PostgreSQL down: %d, want 200", w.Code)
	}
}
