package apiclient_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// market is a hand-written fake of the three interfaces for edge cases the
// sandbox cannot produce. Token endpoints are built in; everything else is
// delegated to the optional handlers.
type market struct {
	b2bTokenCalls    atomic.Int64
	sellerTokenCalls atomic.Int64
	apiCalls         atomic.Int64

	mu         sync.Mutex
	expiresIn  string // raw JSON for expires_in; "" = omitted
	tokenDelay time.Duration
	issue      func(kind string, n int64) string // access token value; nil = "<kind>-tok-<n>"
	// refreshPrefix prefixes the B2B refresh token ("" = "b2b-refresh-").
	refreshPrefix string

	// tokenStatus, when non-zero, makes the B2B token endpoint answer with
	// it and tokenBody.
	tokenStatus int
	tokenBody   string
	// sellerTokenError, when non-empty, is the raw JSON-RPC error object of
	// v1.tokens.create.
	sellerTokenError string

	b2b  http.HandlerFunc                                         // /api/v1/...
	rpc  func(w http.ResponseWriter, r *http.Request, req rpcReq) // non-token JSON-RPC
	rest http.HandlerFunc                                         // /api/v2/...
}

type rpcReq struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      string          `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

func newMarket() *market { return &market{expiresIn: "900"} }

func (m *market) token(kind string, n int64) string {
	m.mu.Lock()
	issue := m.issue
	m.mu.Unlock()
	if issue != nil {
		return issue(kind, n)
	}
	return fmt.Sprintf("%s-tok-%d", kind, n)
}

func (m *market) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	delay, exp, tStatus, tBody, sErr := m.tokenDelay, m.expiresIn, m.tokenStatus, m.tokenBody, m.sellerTokenError
	refresh := m.refreshPrefix
	if refresh == "" {
		refresh = "b2b-refresh-"
	}
	m.mu.Unlock()
	expField := ""
	if exp != "" {
		expField = `,"expires_in":` + exp
	}
	switch {
	case r.URL.Path == "/auth/token" || r.URL.Path == "/test/auth/token":
		n := m.b2bTokenCalls.Add(1)
		time.Sleep(delay)
		w.Header().Set("Content-Type", "application/json")
		if tStatus != 0 {
			w.WriteHeader(tStatus)
			io.WriteString(w, tBody)
			return
		}
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer"%s,"refresh_token":"%s%d"}`, m.token("b2b", n), expField, refresh, n)
	case strings.HasPrefix(r.URL.Path, "/jsonrpc"):
		var req rpcReq
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad json", 400)
			return
		}
		if req.Method == "v1.tokens.create" {
			n := m.sellerTokenCalls.Add(1)
			time.Sleep(delay)
			w.Header().Set("Content-Type", "application/json")
			if sErr != "" {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"error":%s}`, req.ID, sErr)
				return
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"result":{"access_token":%q,"token_type":"Bearer"%s}}`, req.ID, m.token("seller", n), expField)
			return
		}
		m.apiCalls.Add(1)
		if m.rpc == nil {
			http.NotFound(w, r)
			return
		}
		m.rpc(w, r, req)
	case strings.HasPrefix(r.URL.Path, "/api/v1/"):
		m.apiCalls.Add(1)
		if m.b2b == nil {
			http.NotFound(w, r)
			return
		}
		m.b2b(w, r)
	case strings.HasPrefix(r.URL.Path, "/api/v2/"):
		m.apiCalls.Add(1)
		if m.rest == nil {
			http.NotFound(w, r)
			return
		}
		m.rest(w, r)
	default:
		http.NotFound(w, r)
	}
}

// rpcResult writes a JSON-RPC success answer.
func rpcResult(w http.ResponseWriter, id string, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"result":%s}`, id, result)
}

// rpcError writes a JSON-RPC error answer.
func rpcError(w http.ResponseWriter, id string, code int, msg, data string) {
	w.Header().Set("Content-Type", "application/json")
	if data == "" {
		data = "null"
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"error":{"code":%d,"message":%q,"data":%s}}`, id, code, msg, data)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// fakeClock is a settable clock for token expiry.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// handlerTransport serves requests in memory, without sockets, so that
// tests can run inside a testing/synctest bubble.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

type clientConfig struct {
	opts  apiclient.Options
	creds apiclient.Credentials
}

// newClient returns an account on a client whose three base URLs point at
// base (B2B test at base+"/test").
func newClient(t testing.TB, base string, mod ...func(*clientConfig)) *apiclient.Account {
	t.Helper()
	cfg := clientConfig{
		opts: apiclient.Options{
			B2BBaseURL:     base,
			B2BTestBaseURL: base + "/test",
			SellerBaseURL:  base,
		},
		creds: apiclient.Credentials{ClientID: "client-1", ClientSecret: "secret-1", Environment: apiclient.Production},
	}
	for _, f := range mod {
		f(&cfg)
	}
	c, err := apiclient.New(cfg.opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.Account(cfg.creds, nil)
}

// serve starts h on an httptest server and returns an account against it.
func serve(t testing.TB, h http.Handler, mod ...func(*clientConfig)) (*apiclient.Account, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return newClient(t, srv.URL, mod...), srv
}

// inMemory returns an account that reaches h without sockets.
func inMemory(t testing.TB, h http.Handler, mod ...func(*clientConfig)) *apiclient.Account {
	t.Helper()
	return newClient(t, "http://market.test", append([]func(*clientConfig){func(c *clientConfig) {
		c.opts.HTTPClient = &http.Client{Transport: handlerTransport{h}}
	}}, mod...)...)
}

func withNow(now func() time.Time) func(*clientConfig) {
	return func(c *clientConfig) { c.opts.Now = now }
}

func withBudget(d time.Duration) func(*clientConfig) {
	return func(c *clientConfig) { c.opts.RetryBudget = d }
}

const emptyOrders = `{"page":1,"limit":20,"pages":1,"total":0,"_embedded":{"orders":[]}}`

// newServer starts h and returns its URL.
func newServer(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
