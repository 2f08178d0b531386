package bench

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// Proxy is a pass-through reverse proxy (net/http/httputil) in front of the
// sandbox, on its own loopback server. It does nothing a dashboard could
// avoid: one more loopback hop, the request and the answer copied through.
// Its figures are the floor of any dashboard in front of the same sandbox
// on the same cores, measured side by side with the dashboard and the
// direct calls (P1, P6).
type Proxy struct {
	URL  string // the proxy's origin
	srv  *http.Server
	done chan struct{}
}

// StartProxy starts a proxy to the sandbox's origin. Close stops it.
func (e *Env) StartProxy() (*Proxy, error) {
	origin, err := url.Parse(e.Market.SellerURL)
	if err != nil {
		return nil, err
	}
	origin.Path = ""
	rp := httputil.NewSingleHostReverseProxy(origin)
	rp.Transport = newTransport()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{URL: "http://" + ln.Addr().String(), done: make(chan struct{}),
		srv: &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		defer close(p.done)
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
	<-p.done
}

// Via returns a copy of d whose calls go through the proxy at origin, with
// the same tokens and its own keep-alive connections.
func (d *Direct) Via(origin string) *Direct {
	base := strings.TrimSuffix(d.e.Market.SellerURL, "/")
	re := func(u string) string { return origin + strings.TrimPrefix(u, base) }
	v := *d
	v.Client = &http.Client{Timeout: 60 * time.Second, Transport: newTransport()}
	v.OrdersURL, v.RPCURL, v.BoxesURL = re(d.OrdersURL), re(d.RPCURL), re(d.BoxesURL)
	return &v
}
