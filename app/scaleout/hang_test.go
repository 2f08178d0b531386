package scaleout

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// stallProxy forwards TCP connections to a database and can stall: then it
// stops moving bytes and leaves new connections unanswered, like a database
// host that hangs or a network that drops packets.
type stallProxy struct {
	ln      net.Listener
	target  string
	stalled atomic.Bool
	mu      sync.Mutex
	conns   []net.Conn
}

func startStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	t.Cleanup(p.close)
	go p.serve()
	return p
}

func (p *stallProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c)
		go func() {
			for p.stalled.Load() {
				time.Sleep(10 * time.Millisecond) // hold the connection, answer nothing
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				return
			}
			p.track(up)
			go p.pipe(up, c)
			p.pipe(c, up)
		}()
	}
}

func (p *stallProxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

// pipe copies src to dst, holding bytes back while stalled.
func (p *stallProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		for p.stalled.Load() {
			time.Sleep(10 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			return
		}
	}
}

func (p *stallProxy) close() {
	p.ln.Close()
	p.stalled.Store(false)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// A database that stops answering (rather than refusing connections) still
// gives a 503 "session store unavailable" within a bounded time, and the
// dashboard recovers once it answers again.
func TestDatabaseHangs(t *testing.T) {
	t.Parallel()
	dsn := freshSchema(t, requirePostgres(t))
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startStallProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	p := newPair(t, u.String(), testapp.Options{})

	a := p.A.Browser(t)
	a.LoginDemo()
	b := on(t, a, p.A, p.B)
	client := func(br *testapp.Browser) *http.Client {
		// The client waits far longer than the store's operation timeout
		// (2 s): the 503 itself proves the hang was cut, and a loaded
		// machine cannot turn it into a client-side timeout.
		return &http.Client{Jar: br.Client.Jar, Timeout: 20 * time.Second,
			Transport: &http.Transport{DisableKeepAlives: true}, CheckRedirect: br.Client.CheckRedirect}
	}

	proxy.stalled.Store(true)
	for name, c := range map[string]struct {
		br  *testapp.Browser
		url string
	}{"A": {a, p.A.URL}, "B": {b, p.B.URL}} {
		start := time.Now()
		r := fetch(client(c.br), http.MethodGet, c.url+c.br.InAccount("/orders"), nil)
		took := time.Since(start)
		if r.err != nil {
			t.Errorf("%s with the database hanging: %v (want a 503 from the store's operation timeout)", name, r.err)
			continue
		}
		if r.status != http.StatusServiceUnavailable || !strings.Contains(strings.ToLower(r.body), "session store unavailable") {
			t.Errorf("%s with the database hanging: %d, want 503 \"session store unavailable\"", name, r.status)
		}
		t.Logf("%s answered %d after %v", name, r.status, took.Round(10*time.Millisecond))
	}

	proxy.stalled.Store(false)
	for name, c := range map[string]struct {
		br  *testapp.Browser
		url string
	}{"A": {a, p.A.URL}, "B": {b, p.B.URL}} {
		var r result
		if !waitFor(15*time.Second, func() bool {
			r = fetch(client(c.br), http.MethodGet, c.url+c.br.InAccount("/orders"), nil)
			return r.err == nil && r.status == http.StatusOK
		}) {
			t.Errorf("%s once the database answers again: status %d, err %v; want 200 within 15 s", name, r.status, r.err)
		}
	}
}
