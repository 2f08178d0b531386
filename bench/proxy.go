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

// FormSink is the floor of P4: a loopback server whose handler only reads
// and parses a posted form (net/http's ParseForm, as the dashboard's router
// does) and answers 204. Posting the price form to it costs what any
// dashboard must spend before it may send the first chunk, since nothing is
// sent until every row is validated: the browser's encoding of the form, its
// upload and its parsing.
type FormSink struct {
	URL  string
	srv  *http.Server
	done chan struct{}
}

// StartFormSink starts a form sink. Close stops it.
func StartFormSink() (*FormSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := &FormSink{URL: "http://" + ln.Addr().String(), done: make(chan struct{}),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Close stops the sink.
func (s *FormSink) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	<-s.done
}
