package app

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServerTimeouts: the server has every timeout a slow or idle client
// needs, and a client that dribbles its headers is disconnected.
func TestServerTimeouts(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	srv := newServer(context.Background(), http.NotFoundHandler(), log)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadHeaderTimeout > 30*time.Second || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 ||
		srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 || srv.MaxHeaderBytes > 1<<20 {
		t.Fatalf("server timeouts: header %v read %v write %v idle %v max header %d",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
	// The same server with a short header timeout, so the test is fast.
	srv.ReadHeaderTimeout = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	// A header line every 100 ms for 30 s, never finishing: kept to the end
	// it would hold the connection for 30 s; cut by the 300 ms header
	// timeout it ends far sooner, with room for a loaded machine.
	_ = conn.SetDeadline(time.Now().Add(40 * time.Second))
	for range 300 {
		if _, err := io.WriteString(conn, "X-Slow: 1\r\n"); err != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, err = io.ReadAll(conn)
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("slow-headers client kept for %v (read err %v)", d, err)
	}
}

func TestTrustedProxiesConfig(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "SELLERDESK_TRUSTED_PROXIES" {
				return v
			}
			return ""
		}
	}
	c, err := LoadSettings(env(""))
	if err != nil || len(c.TrustedProxies) != 0 {
		t.Fatalf("default: %v %v, want none trusted", c.TrustedProxies, err)
	}
	c, err = LoadSettings(env("10.0.0.0/8, 192.0.2.7"))
	if err != nil || len(c.TrustedProxies) != 2 {
		t.Fatalf("two proxies: %v %v", c.TrustedProxies, err)
	}
	if _, err := LoadSettings(env("10.0.0.0/99")); err == nil || !strings.Contains(err.Error(), "SELLERDESK_TRUSTED_PROXIES") {
		t.Fatalf("bad prefix: %v", err)
	}
}
