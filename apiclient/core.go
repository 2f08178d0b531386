package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"
)

// Environment selects the B2B platform environment of a credential pair.
type Environment string

// Environments of the B2B platform API.
const (
	Production Environment = "production"
	Test       Environment = "test"
)

// Defaults of the shared core.
const (
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = "sellerdesk-apiclient/1"
	// DefaultRetryBudget is the total time one call may spend waiting
	// between 429/503 retries when Options.RetryBudget is zero.
	DefaultRetryBudget = 30 * time.Second
	// DefaultMaxResponseBytes bounds every response body that is read.
	DefaultMaxResponseBytes = 16 << 20
	// DefaultMaxIdleConnsPerHost sizes the idle pool of the default
	// transport for the dashboard's concurrency.
	DefaultMaxIdleConnsPerHost = 64
)

// Options configures a Client. The three base URLs are those of spec §1:
// the B2B platform API in production and test, and the seller APIs (the
// JSON-RPC API lives at SellerBaseURL+"/jsonrpc", the REST API at
// SellerBaseURL+"/api").
type Options struct {
	// B2BBaseURL is {b2b_base_url}, the production B2B platform. Required.
	B2BBaseURL string
	// B2BTestBaseURL is {b2b_demo_base_url}, the B2B test environment.
	// Optional; calls for Test credentials fail without it.
	B2BTestBaseURL string
	// SellerBaseURL is {seller_base_url}. Required.
	SellerBaseURL string
	// SellerTestBaseURL is a separate seller host for Test credentials,
	// which some partners have. Optional: the contract gives the seller
	// APIs one host, so without it Test credentials edit the live
	// catalogue (see SellerTestSeparate).
	SellerTestBaseURL string
	// HTTPClient is used for every request; nil builds one with timeouts
	// and pooled connections (see NewHTTPClient).
	HTTPClient *http.Client
	// UserAgent is sent with every request; "" means DefaultUserAgent.
	UserAgent string
	// Logger receives debug lines per request and info lines per retry;
	// nil discards them. No line ever contains a secret or a token.
	Logger *slog.Logger
	// Now is the clock for token expiry; nil means time.Now. Retry waits
	// always use real timers (so testing/synctest can fake them).
	Now func() time.Time
	// RetryBudget is the default total wait for 429/503 retries of one
	// call: 0 means DefaultRetryBudget, a negative value disables
	// automatic retries. WithRetryBudget overrides it per call.
	RetryBudget time.Duration
	// Store is the token store of accounts created without one; nil means
	// a new in-memory store.
	Store TokenStore
	// MaxResponseBytes bounds each response body; 0 means
	// DefaultMaxResponseBytes. Larger bodies are an unexpected response.
	MaxResponseBytes int64
	// SellerTokenPath is the path, below SellerBaseURL, where
	// v1.tokens.create is called: "" means "/jsonrpc" (the root); the spec
	// also allows "/jsonrpc/v1/tokens.create". The lamoda profile calls
	// each method at its own path and ignores this field.
	SellerTokenPath string
	// Profile is the wire profile: ProfileContract ("" means it) or
	// ProfileLamoda. It is chosen once, here.
	Profile Profile
	// Country is sent where the lamoda profile needs one (RU, BY, KZ or
	// UA); "" means DefaultCountry. The contract profile has no country.
	Country string
	// PriceAPI is the API the lamoda profile writes card prices through:
	// PriceAPIV1 ("" means it) or PriceAPIV2. The contract profile has one
	// price method and refuses any other value.
	PriceAPI PriceAPI
	// Observer, when set, is told of every attempt and every wait before
	// a retry (metrics); nil observes nothing.
	Observer Observer
}

// Client is the shared core: one HTTP client, one token-refresh coordinator
// and the configuration of the three interfaces. It is safe for concurrent
// use and meant to live as long as the program. Per-user state lives in
// Accounts, which are cheap to create per request.
type Client struct {
	b2bProd, b2bTest, seller *url.URL
	sellerTest               *url.URL // nil: Test credentials use seller too
	hc                       *http.Client
	ua                       string
	log                      *slog.Logger
	now                      func() time.Time
	budget                   time.Duration
	store                    TokenStore
	maxBody                  int64
	sellerTokenPath          string
	wire                     wire
	priceAPI                 PriceAPI
	flights                  singleflight.Group
	obs                      Observer // nil: nothing observed
}

// New validates opts and returns a Client.
func New(opts Options) (*Client, error) {
	c := &Client{
		hc:              opts.HTTPClient,
		ua:              opts.UserAgent,
		log:             opts.Logger,
		now:             opts.Now,
		budget:          opts.RetryBudget,
		store:           opts.Store,
		maxBody:         opts.MaxResponseBytes,
		sellerTokenPath: opts.SellerTokenPath,
		obs:             opts.Observer,
	}
	var err error
	if c.wire, err = newWire(opts.Profile, opts.Country); err != nil {
		return nil, err
	}
	if c.priceAPI, err = checkPriceAPI(c.wire.profile, opts.PriceAPI); err != nil {
		return nil, err
	}
	if c.b2bProd, err = parseBase("B2BBaseURL", opts.B2BBaseURL, true); err != nil {
		return nil, err
	}
	if c.b2bTest, err = parseBase("B2BTestBaseURL", opts.B2BTestBaseURL, false); err != nil {
		return nil, err
	}
	if c.seller, err = parseBase("SellerBaseURL", opts.SellerBaseURL, true); err != nil {
		return nil, err
	}
	if c.sellerTest, err = parseBase("SellerTestBaseURL", opts.SellerTestBaseURL, false); err != nil {
		return nil, err
	}
	if c.hc == nil {
		c.hc = NewHTTPClient()
	}
	if c.ua == "" {
		c.ua = DefaultUserAgent
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	switch {
	case c.budget == 0:
		c.budget = DefaultRetryBudget
	case c.budget < 0:
		c.budget = 0
	}
	if c.store == nil {
		c.store = NewMemoryTokenStore()
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxResponseBytes
	}
	if c.sellerTokenPath == "" {
		c.sellerTokenPath = "/jsonrpc"
	}
	if !strings.HasPrefix(c.sellerTokenPath, "/") {
		return nil, errors.New("apiclient: SellerTokenPath must start with '/'")
	}
	return c, nil
}

func parseBase(name, raw string, required bool) (*url.URL, error) {
	if raw == "" {
		if required {
			return nil, fmt.Errorf("apiclient: %s is required", name)
		}
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("apiclient: %s must be an absolute http or https URL", name)
	}
	if u.User != nil {
		return nil, fmt.Errorf("apiclient: %s must not carry user information", name)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// NewHTTPClient returns the HTTP client a Client uses when Options.HTTPClient
// is nil: dial, TLS handshake and response-header timeouts, keep-alives, and
// an idle pool of DefaultMaxIdleConnsPerHost connections per host so that
// concurrent dashboard requests reuse connections. The overall deadline of a
// call comes from its context; Timeout is only a backstop for callers that
// pass a context without one.
func NewHTTPClient() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          4 * DefaultMaxIdleConnsPerHost,
		MaxIdleConnsPerHost:   DefaultMaxIdleConnsPerHost,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   2 * time.Minute,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			// Never follow redirects: a redirected POST would lose its
			// body and a redirect could carry the Authorization header
			// somewhere else.
			return http.ErrUseLastResponse
		},
	}
}

func (c *Client) b2bBase(env Environment) (*url.URL, error) {
	switch env {
	case Production, "":
		return c.b2bProd, nil
	case Test:
		if c.b2bTest == nil {
			return nil, errors.New("apiclient: no B2B test base URL configured")
		}
		return c.b2bTest, nil
	}
	return nil, fmt.Errorf("apiclient: unknown environment %q", string(env))
}

func joinURL(base *url.URL, path string, q url.Values) string {
	u := *base
	u.Path = base.Path + path
	u.RawPath = ""
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// request is one HTTP exchange to perform (possibly several times).
type request struct {
	op      string // human name, e.g. "b2b list orders"
	method  string
	url     string
	body    []byte // JSON; nil = no body
	token   string // bearer token; "" = no Authorization header
	write   bool   // the request changes state on the server
	secrets []string
}

// response is a fully read answer.
type response struct {
	op          string
	status      int
	header      http.Header
	body        []byte
	requestID   string
	contentType string
	readErr     string // non-empty: body could not be read completely
	tooLarge    bool
}

// roundTrip performs one attempt: it sends req with a fresh X-Request-ID and
// reads the whole (bounded) body, scrubbing known secrets from it.
func (c *Client) roundTrip(ctx context.Context, req *request, attempt int) (*response, error) {
	reqID := uuid.NewString()
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	// Once the headers are on the wire the server may act on the request,
	// so a write that fails after that point has an unknown outcome.
	var sent atomic.Bool
	trace := &httptrace.ClientTrace{
		WroteHeaders: func() { sent.Store(true) },
	}
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), req.method, req.url, body)
	if err != nil {
		return nil, fmt.Errorf("apiclient: %s: build request: %w", req.op, err)
	}
	hreq.Header.Set("User-Agent", c.ua)
	hreq.Header.Set("X-Request-ID", reqID)
	hreq.Header.Set("Accept", "application/json")
	if req.body != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if req.token != "" {
		hreq.Header.Set("Authorization", "Bearer "+req.token)
	}
	start := time.Now()
	hresp, err := c.hc.Do(hreq)
	if err != nil {
		c.observeRequest(req.op, 0, time.Since(start))
		c.log.LogAttrs(ctx, slog.LevelDebug, "apiclient request failed",
			slog.String("op", req.op), slog.String("method", req.method), slog.String("path", hreq.URL.Path),
			slog.String("upstream_request_id", reqID), slog.Int("attempt", attempt),
			slog.Duration("duration", time.Since(start)), slog.String("error", scrub(errorText(err), req.secrets)))
		err = &transportError{op: req.op, requestID: reqID, err: err, secrets: req.secrets}
		if req.write && sent.Load() {
			return nil, &outcomeUnknownError{op: req.op, err: err}
		}
		return nil, err
	}
	defer hresp.Body.Close()
	r := &response{
		op:          req.op,
		status:      hresp.StatusCode,
		header:      hresp.Header,
		requestID:   reqID,
		contentType: scrub(hresp.Header.Get("Content-Type"), req.secrets),
	}
	var data []byte
	var rerr error
	switch {
	case hresp.ContentLength > c.maxBody:
		r.tooLarge = true // announced as too large: not read at all
	case hresp.ContentLength > 0:
		// Read into one buffer of the announced size instead of growing
		// one; a body that ends early is cut short (ErrUnexpectedEOF), one
		// that goes on is left unread, as net/http would refuse it anyway.
		data = make([]byte, hresp.ContentLength)
		var n int
		n, rerr = io.ReadFull(hresp.Body, data)
		data = data[:n]
	default:
		data, rerr = io.ReadAll(io.LimitReader(hresp.Body, c.maxBody+1))
	}
	if rerr != nil && ctx.Err() != nil {
		// the caller gave up while the body was arriving
		err := &transportError{op: req.op, requestID: reqID, err: ctx.Err(), secrets: req.secrets}
		if req.write {
			return nil, &outcomeUnknownError{op: req.op, err: err}
		}
		return nil, err
	}
	switch {
	case rerr != nil:
		r.readErr = "body truncated: " + shortReadError(rerr)
	case int64(len(data)) > c.maxBody:
		r.tooLarge = true
	}
	if r.tooLarge {
		data = nil
	}
	r.body = scrubBytes(data, req.secrets)
	c.observeRequest(req.op, r.status, time.Since(start))
	c.log.LogAttrs(ctx, slog.LevelDebug, "apiclient request",
		slog.String("op", req.op), slog.String("method", req.method), slog.String("path", hreq.URL.Path),
		slog.Int("status", r.status), slog.String("upstream_request_id", reqID), slog.Int("attempt", attempt),
		slog.Int("bytes", len(data)), slog.Duration("duration", time.Since(start)))
	if r.readErr != "" && req.write {
		return nil, &outcomeUnknownError{op: req.op, err: r.unexpected(r.readErr)}
	}
	return r, nil
}

// transportError is a failure to get an answer at all.
type transportError struct {
	op, requestID string
	err           error
	secrets       []string
}

func (e *transportError) Error() string {
	return "apiclient: " + e.op + ": " + scrub(errorText(e.err), e.secrets) + " [request " + e.requestID + "]"
}

func (e *transportError) Unwrap() error { return e.err }

func errorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		// url.Error repeats method and URL; the op already says what failed
		return ue.Err.Error()
	}
	return err.Error()
}

func shortReadError(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected EOF"
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err.Error()
	}
	return truncate(err.Error(), 80)
}

func (r *response) unexpected(reason string) *UnexpectedResponseError {
	return &UnexpectedResponseError{Op: r.op, Status: r.status, ContentType: r.contentType, Reason: reason, RequestID: r.requestID}
}

// jsonProblem returns nil when the body is readable JSON, else the
// UnexpectedResponseError that says why not.
func (r *response) jsonProblem() *UnexpectedResponseError {
	switch {
	case r.tooLarge:
		return r.unexpected("body larger than the size limit")
	case r.readErr != "":
		return r.unexpected(r.readErr)
	case len(bytes.TrimSpace(r.body)) == 0:
		return r.unexpected("empty body")
	}
	if r.contentType == "" {
		if b := bytes.TrimSpace(r.body); b[0] != '{' && b[0] != '[' {
			return r.unexpected("no content type and not JSON")
		}
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.contentType)
	if err != nil {
		return r.unexpected("malformed content type")
	}
	if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		if mt == "text/html" || bytes.HasPrefix(bytes.TrimSpace(r.body), []byte("<")) {
			return r.unexpected("HTML page instead of JSON")
		}
		return r.unexpected("content type is not JSON")
	}
	return nil
}

// decode reads the body as JSON into v. Unknown fields are ignored. Errors
// never quote the body.
func (r *response) decode(v any) error {
	if p := r.jsonProblem(); p != nil {
		return p
	}
	opts := decodeOptions
	if d, ok := v.(decodeWith); ok {
		v, opts = d.v, d.opts
	}
	if err := jsonv2.Unmarshal(r.body, v, opts); err != nil {
		return r.unexpected(jsonErrorReason(err))
	}
	return nil
}

// scrub replaces every known secret in s with a marker.
func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, "[REDACTED]")
		}
	}
	return s
}

func scrubBytes(b []byte, secrets []string) []byte {
	for _, sec := range secrets {
		if len(sec) < 4 {
			continue
		}
		if containsSecret(b, sec) {
			b = bytes.ReplaceAll(b, []byte(sec), []byte("[REDACTED]"))
		}
		// the JSON-escaped form, if different (e.g. a secret with '/' or '"')
		if !needsJSONEscape(sec) {
			continue
		}
		if esc, err := json.Marshal(sec); err == nil {
			esc = esc[1 : len(esc)-1]
			if string(esc) != sec && bytes.Contains(b, esc) {
				b = bytes.ReplaceAll(b, esc, []byte("[REDACTED]"))
			}
		}
	}
	return b
}

// secretProbe is how much of a long secret containsSecret looks for first.
// bytes.Index finds needles this short with vector instructions; a needle
// longer than the vector limit (31 or 63 bytes on amd64, a JWT access token
// is several hundred) falls back to Rabin-Karp, which made scrubbing every
// answer cost more than the rest of the API client (BENCHMARKS.md, P7).
const secretProbe = 16

// containsSecret reports whether sec occurs in b, exactly like
// bytes.Contains(b, []byte(sec)), but finds long secrets by a short prefix
// first and compares the rest only where the prefix matched.
func containsSecret(b []byte, sec string) bool {
	if len(sec) <= secretProbe {
		return bytes.Contains(b, []byte(sec))
	}
	probe := []byte(sec[:secretProbe])
	for i := 0; len(b)-i >= len(sec); {
		j := bytes.Index(b[i:], probe)
		if j < 0 {
			return false
		}
		i += j
		if len(b)-i >= len(sec) && string(b[i:i+len(sec)]) == sec {
			return true
		}
		i++
	}
	return false
}

// needsJSONEscape reports whether json.Marshal would write s differently
// from its bytes (quotes aside): control characters, '"', '\\', the HTML
// characters '<', '>' and '&', U+2028, U+2029 and invalid UTF-8. Only then
// is the escaped form worth looking for.
func needsJSONEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// SellerTestSeparate reports whether Test credentials have a seller host of
// their own. Without one, prices and stock changed with Test credentials
// are live.
func (c *Client) SellerTestSeparate() bool { return c.sellerTest != nil }

// sellerBase is the seller host for the account's environment.
func (st *accountState) sellerBase() *url.URL {
	if st.creds.Environment == Test && st.c.sellerTest != nil {
		return st.c.sellerTest
	}
	return st.c.seller
}
