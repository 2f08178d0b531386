package sandbox

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// FaultKind is the kind of failure a Fault injects.
type FaultKind int

// Fault kinds. Kinds that answer instead of the handler (rate limit,
// unavailable, internal, reset, hang, HTML) leave the marketplace state
// untouched; malformed JSON and truncated bodies run the handler first and
// then mangle its answer, so a write is applied although the client cannot
// read the outcome.
const (
	FaultRateLimit     FaultKind = iota // 429 in the interface's error shape, Retry-After as given
	FaultUnavailable                    // 503 in the interface's error shape
	FaultInternal                       // 500 in the interface's error shape (JSON-RPC: -32603 in HTTP 200)
	FaultMalformedJSON                  // the real status with a body that is not valid JSON
	FaultTruncated                      // the real answer cut in half (Content-Length promises more)
	FaultReset                          // the connection is closed without an answer (TCP reset); needs a real connection (httptest.Server): a ResponseRecorder gets a panic(http.ErrAbortHandler)
	FaultHang                           // no answer until the request's context is done
	FaultHTML                           // a proxy's HTML 502 Bad Gateway page
	FaultUnauthorized                   // 401 in the interface's auth error shape, as for an access token the marketplace no longer accepts
	FaultWildRecords                    // a list answer as the marketplace writes it in the wild: its first record with a string id, Moscow-time "YYYY-MM-DD hh:mm:ss" timestamps and nulls, and one unreadable record after it
)

var faultKindNames = []string{"rate_limit", "unavailable", "internal", "malformed_json", "truncated", "reset", "hang", "html", "unauthorized", "wild_records"}

// String returns the kind's name as used by the admin surface, e.g. "rate_limit".
func (k FaultKind) String() string {
	if k >= 0 && int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", int(k))
}

// MarshalText encodes the kind as its name.
func (k FaultKind) MarshalText() ([]byte, error) {
	if k < 0 || int(k) >= len(faultKindNames) {
		return nil, fmt.Errorf("unknown fault kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind name such as "rate_limit" or "html".
func (k *FaultKind) UnmarshalText(b []byte) error {
	for i, n := range faultKindNames {
		if strings.EqualFold(string(b), n) {
			*k = FaultKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown fault kind %q; known: %s", b, strings.Join(faultKindNames, ", "))
}

func (k FaultKind) beforeHandler() bool {
	return k != FaultMalformedJSON && k != FaultTruncated && k != FaultWildRecords
}

// Fault describes an injected failure.
type Fault struct {
	Route      string    `json:"route"`                 // route name; "" = any route
	Kind       FaultKind `json:"kind"`                  // what goes wrong
	RetryAfter string    `json:"retry_after,omitempty"` // 429 only: literal Retry-After value ("" = header absent, "3", or an HTTP date)
	Times      int       `json:"times,omitempty"`       // number of matching requests that fail; 0 = 1; -1 = until cleared
	Every      int       `json:"every,omitempty"`       // >0: every Nth matching request fails instead (until cleared)
}

type faultEntry struct {
	f         Fault
	remaining int // -1 = unlimited
	seen      int
}

// faultSet holds injected faults and latencies.
type faultSet struct {
	mu      sync.Mutex
	list    []*faultEntry
	latency map[string]time.Duration
}

// InjectFault adds a fault. Faults are checked in the order they were added;
// the first one that fires answers the request.
func (s *Sandbox) InjectFault(f Fault) {
	e := &faultEntry{f: f, remaining: f.Times}
	if e.remaining == 0 {
		e.remaining = 1
	}
	if e.remaining < 0 {
		e.remaining = -1
	}
	s.faults.mu.Lock()
	s.faults.list = append(s.faults.list, e)
	s.faults.mu.Unlock()
}

// ClearFaults removes every injected fault. Latencies stay.
func (s *Sandbox) ClearFaults() {
	s.faults.mu.Lock()
	s.faults.list = nil
	s.faults.mu.Unlock()
}

// Faults returns the faults still armed.
func (s *Sandbox) Faults() []Fault {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	out := make([]Fault, 0, len(s.faults.list))
	for _, e := range s.faults.list {
		out = append(out, e.f)
	}
	return out
}

// SetLatency delays every request to route by d before it is handled (route
// "" = every route; a route's own latency wins over it). Zero removes it. The
// delay is real time, not the sandbox clock, and ends early when the client
// goes away.
func (s *Sandbox) SetLatency(route string, d time.Duration) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	if d <= 0 {
		delete(s.faults.latency, route)
		return
	}
	s.faults.latency[route] = d
}

func (fs *faultSet) latencyFor(route string) time.Duration {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if d, ok := fs.latency[route]; ok {
		return d
	}
	return fs.latency[""]
}

// take returns the fault that fires for this request to route, if any.
func (fs *faultSet) take(route string) (Fault, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, e := range fs.list {
		if e.f.Route != "" && e.f.Route != route {
			continue
		}
		if e.f.Every > 0 {
			e.seen++
			if e.seen%e.f.Every == 0 {
				return e.f, true
			}
			continue
		}
		if e.remaining > 0 {
			e.remaining--
			if e.remaining == 0 {
				fs.list = append(fs.list[:i:i], fs.list[i+1:]...)
			}
		}
		return e.f, true
	}
	return Fault{}, false
}

const badGatewayHTML = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`

// serveFault answers with the fault. resp is the handler's answer for the
// kinds that run the handler first.
func (s *Sandbox) serveFault(w http.ResponseWriter, c *call, f Fault, resp *response) {
	s.log.Info("fault injected", "route", c.route, "kind", f.Kind.String())
	switch f.Kind {
	case FaultRateLimit:
		resp = faultBody(c, http.StatusTooManyRequests)
		if f.RetryAfter != "" {
			resp.header = http.Header{"Retry-After": {f.RetryAfter}}
		}
	case FaultUnavailable:
		resp = faultBody(c, http.StatusServiceUnavailable)
	case FaultInternal:
		resp = faultBody(c, http.StatusInternalServerError)
	case FaultUnauthorized:
		resp = unauthorized(c, errRevoked)
	case FaultHTML:
		resp = &response{status: http.StatusBadGateway, ctype: "text/html", body: []byte(badGatewayHTML)}
	case FaultMalformedJSON:
		body := append([]byte(nil), resp.body[:len(resp.body)/2]...)
		resp = &response{status: resp.status, ctype: ctypeJSON, header: resp.header,
			body: append(body, "<<malformed>>"...)}
	case FaultWildRecords:
		resp = &response{status: resp.status, ctype: resp.ctype, header: resp.header, body: wildRecords(resp.body)}
	case FaultTruncated:
		h := w.Header()
		for k, v := range resp.header {
			h[k] = v
		}
		h.Set("Content-Type", resp.ctype)
		h.Set("Content-Length", itoa(int64(len(resp.body))))
		w.WriteHeader(resp.status)
		_, _ = w.Write(resp.body[:len(resp.body)/2])
		_ = http.NewResponseController(w).Flush()
		// The server closes the connection because fewer bytes than the
		// declared Content-Length were written.
		return
	case FaultReset:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler) // HTTP/2 or a recorder: abort the stream
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, not an orderly close
		}
		_ = conn.Close()
		return
	case FaultHang:
		<-c.r.Context().Done()
		return
	}
	writeResponse(w, resp)
}

// faultBody is a 429, 500 or 503 in the shape of the call's interface.
func faultBody(c *call, status int) *response {
	var resp *response
	switch c.iface {
	case ifaceGift:
		switch status {
		case http.StatusTooManyRequests:
			resp = giftError(0, 429, "Too Many Requests", descRateLimited)
		case http.StatusServiceUnavailable:
			resp = giftError(0, 32000, "Server error", descUnavailable)
		default:
			resp = giftError(0, 32603, "Internal error", descInternal)
		}
	case ifaceREST:
		switch status {
		case http.StatusTooManyRequests:
			resp = restError(0, "RATE_LIMITED", descRateLimited)
		case http.StatusServiceUnavailable:
			resp = restError(0, "SERVICE_UNAVAILABLE", "service temporarily unavailable; retry with exponential delay")
		default:
			resp = restError(0, "INTERNAL", "internal server error")
		}
	case ifaceRPC:
		switch status {
		case http.StatusTooManyRequests:
			resp = rpcErrorResponse(c.rpcID(), &rpcError{Code: 429, Message: descRateLimited})
		case http.StatusServiceUnavailable:
			resp = rpcErrorResponse(c.rpcID(), &rpcError{Code: 503, Message: "Service temporarily unavailable"})
		default:
			// A JSON-RPC internal error rides in HTTP 200 like every
			// JSON-RPC error; 429 and 503 above come from the gateway.
			resp = rpcErrorResponse(c.rpcID(), &rpcError{Code: codeInternal, Message: "Internal error"})
			return resp
		}
	default:
		switch status {
		case http.StatusTooManyRequests:
			resp = b2bRateLimited("Too many requests; retry later.")
		case http.StatusServiceUnavailable:
			resp = b2bError(0, descUnavailable)
		default:
			resp = b2bError(0, descInternal)
		}
	}
	resp.status = status
	return resp
}
