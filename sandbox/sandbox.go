package sandbox

import (
	"bytes"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Route names: keys for counters, latency and faults.
const (
	RouteB2BToken     = "b2b.token"
	RouteB2BOrders    = "b2b.orders"
	RouteB2BResend    = "b2b.resend"
	RouteB2BGiftCert  = "b2b.gift-certificates"
	RouteRPCTokens    = "rpc.v1.tokens.create"
	RouteRPCList      = "rpc.v1.nomenclatures.list"
	RouteRPCStore     = "rpc.v1.nomenclatures.store"
	RouteRPCSetPrices = "rpc.v1.nomenclatures.set-prices"
	// The lamoda profile's filtered writes.
	RouteRPCUpdateStock      = "rpc.v1.nomenclatures.update-stock"
	RouteRPCUpdateActivation = "rpc.v1.nomenclatures.update-activation"
	RouteReturnBoxes         = "rest.return-boxes"

	// RouteRPCInvalid names JSON-RPC requests whose method could not be
	// determined (unparsable body, bad envelope, batch) or is unknown.
	RouteRPCInvalid = "rpc.invalid"
	// RouteReturnBox names GET /api/v2/fbs/return-boxes/{code}, the single
	// return box lookup of the seller REST API.
	RouteReturnBox = "rest.return-box"
	// RouteNotFound names requests to paths that the sandbox does not serve.
	RouteNotFound = "not-found"
)

// Defaults applied by New to zero-valued Options fields.
const (
	DefaultSeed             = 1
	DefaultTokenTTL         = 900 * time.Second
	DefaultResendProcessing = 60 * time.Second
)

// DefaultStart is the clock start used when Options.Start is zero.
var DefaultStart = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// maxBodyBytes bounds every request body the sandbox reads.
const maxBodyBytes = 8 << 20

// Options configures a Sandbox. The zero value is usable.
type Options struct {
	Seed             int64         // default 1
	Start            time.Time     // clock start; default 2026-11-02T09:00:00Z
	TokenTTL         time.Duration // default 900s
	ResendProcessing time.Duration // how long a resent notification stays "processing"; default 60s
	PriceApplyDelay  time.Duration // PROCESSING phase of a price change; default 0 (applied at once)
	Admin            bool          // serve the /_sandbox/ admin surface
	Hostile          bool          // add hostile fixture records (markup, 100 KB names, control chars)
	// Live makes the clock follow the wall clock (plus every Advance), for
	// demo mode and integrators: tokens expire and resends finish by
	// themselves. Fixtures are then anchored at the current time when Start
	// is zero. Tests leave it off and move time with Advance.
	Live bool
	// ProductsPerSeller is how many regular products each seller has
	// (default 200, each in every warehouse); benchmarks raise it to send
	// 10,000 distinct SKUs in one mass update, and `-products` /
	// SELLERDESK_DEMO_PRODUCTS to run a large seller. At most
	// MaxProductsPerSeller (barcodes stay unique per seller up to it); New
	// caps larger values.
	ProductsPerSeller int
	// Sellers is how many sellers the sandbox seeds (default and at
	// least the three of SeededCredentials, at most MaxSellers): the
	// sellers beyond the three are 1004, 1005, ..., each with its
	// credentials "demo-<id>" / "sandbox-secret-<id>" (accepted in every
	// environment, Credentials) and data generated from the seed like
	// the others'; the three seeded sellers' data does not change with
	// it. Benchmarks raise it for a session of many accounts.
	Sellers int
	// Profile is the wire profile served: ProfileContract ("" means it)
	// or ProfileLamoda. New panics on any other value.
	Profile string
	Logger  *slog.Logger // nil = discard
}

// Sandbox is the emulator. It is an http.Handler and safe for concurrent use.
type Sandbox struct {
	opts   Options
	log    *slog.Logger
	key    []byte
	offset atomic.Int64 // clock offset from opts.Start, in nanoseconds
	born   time.Time    // wall clock at New, for Live clocks

	verified sync.Map     // token string -> *tokenClaims whose signature checked out
	creds    []Credential // the credentials accepted (set once by New)

	// mu guards the marketplace state below.
	mu            sync.RWMutex
	rng           *rand.Rand
	sellers       map[int64]*sellerData
	skuOwner      map[string]int64 // marketplace SKU -> seller
	orderOwner    map[string]int64 // order number -> seller
	warehouseOf   map[string]int64 // warehouse code -> seller
	notifications map[string]time.Time
	tokens        map[string]map[string]string // env -> jti -> client id
	revoked       map[string]bool
	secrets       map[string]string // rotated secrets by client id (RotateSecret)
	tokenTTL      time.Duration
	idSeq         int64
	// quarantine holds the cards ("<seller>/<parent>") whose last v2
	// price write the price check held (lamoda_v2.go).
	quarantine map[string]bool

	faults   faultSet
	gates    gates
	counters counterSet
}

// New builds a sandbox with seeded fixtures. Zero option fields get the
// documented defaults.
func New(opts Options) *Sandbox {
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	if opts.Start.IsZero() {
		opts.Start = DefaultStart
		if opts.Live {
			opts.Start = time.Now()
		}
	}
	opts.Start = opts.Start.UTC().Truncate(time.Second)
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = DefaultTokenTTL
	}
	if opts.ResendProcessing <= 0 {
		opts.ResendProcessing = DefaultResendProcessing
	}
	opts.ProductsPerSeller = productsOf(opts.ProductsPerSeller)
	opts.Sellers = min(max(opts.Sellers, len(sellerIDs)), MaxSellers)
	if opts.PriceApplyDelay < 0 {
		opts.PriceApplyDelay = 0
	}
	switch opts.Profile {
	case "":
		opts.Profile = ProfileContract
	case ProfileContract, ProfileLamoda:
	default:
		panic("sandbox: unknown Profile " + strconv.Quote(opts.Profile))
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Sandbox{
		born:       time.Now(),
		opts:       opts,
		log:        log,
		key:        []byte("sellerdesk-sandbox-hs256-key/" + itoa(opts.Seed)),
		tokens:     map[string]map[string]string{envB2BProduction: {}, envB2BTest: {}, envSeller: {}, envSellerV2: {}},
		quarantine: map[string]bool{},
		revoked:    map[string]bool{},
		secrets:    map[string]string{},
	}
	s.creds = credentialsFor(opts.Sellers)
	s.counters.init()
	s.faults.latency = map[string]time.Duration{}
	s.resetData()
	return s
}

// resetData rebuilds the marketplace state from the seed. The caller holds mu
// or is the constructor.
func (s *Sandbox) resetData() {
	s.rng = rand.New(rand.NewPCG(uint64(s.opts.Seed), 0x5e11e7de5c))
	s.tokenTTL = s.opts.TokenTTL
	s.notifications = map[string]time.Time{}
	s.idSeq = 0
	fx := buildFixtures(s.opts.Seed, s.opts.Start, s.opts.Hostile, s.opts.ProductsPerSeller, s.opts.Profile == ProfileLamoda, sellerIDsFor(s.opts.Sellers))
	s.sellers = fx.sellers
	s.skuOwner = fx.skuOwner
	s.orderOwner = fx.orderOwner
	s.warehouseOf = fx.warehouseOf
	s.quarantine = map[string]bool{}
}

// Reset restores the seeded fixtures and the configured token lifetime, forgets
// resent notifications, clears faults and latency and zeroes the counters. The
// clock, issued tokens and revoked credentials are kept.
func (s *Sandbox) Reset() {
	s.mu.Lock()
	s.resetData()
	s.mu.Unlock()
	s.ClearFaults()
	s.faults.mu.Lock()
	s.faults.latency = map[string]time.Duration{}
	s.faults.mu.Unlock()
	s.ResetCounters()
}

// SetTokenTTL changes the lifetime of tokens issued from now on. A value of
// zero or less restores the configured lifetime.
func (s *Sandbox) SetTokenTTL(d time.Duration) {
	if d <= 0 {
		d = s.opts.TokenTTL
	}
	s.mu.Lock()
	s.tokenTTL = d
	s.mu.Unlock()
}

// TokenTTL reports the lifetime of tokens issued from now on.
func (s *Sandbox) TokenTTL() time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tokenTTL
}

// iface tells which interface's error shape a request gets.
type iface int

const (
	ifaceB2B iface = iota
	ifaceGift
	ifaceRPC
	ifaceREST
)

// call is one request on its way through the sandbox.
type call struct {
	r       *http.Request
	route   string
	iface   iface
	env     string // token environment the route expects
	prefix  string // "" or "/test" for B2B routes
	body    []byte
	rpc     *rpcRequest
	rpcErr  *rpcError
	auth    *principal
	authErr *authError
	seller  int64 // seller for the in-flight gauge; 0 when unknown
	handle  func(*call) *response
	allow   string // methods allowed, for 405 answers; "" = method is right
	subpath string // path remainder, e.g. the gift certificate code
}

// response is a fully buffered answer; faults may mangle it before it is written.
type response struct {
	status int
	ctype  string
	header http.Header
	body   []byte
}

// ServeHTTP routes the request to the emulated interface it addresses.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Admin && (r.URL.Path == "/_sandbox" || strings.HasPrefix(r.URL.Path, "/_sandbox/")) {
		s.serveAdmin(w, r)
		return
	}
	if id := r.Header.Get("X-Request-ID"); validRequestID(id) {
		w.Header().Set("X-Request-ID", id) // echoed, so client and sandbox logs can be joined
	}
	c := s.route(r)
	if c.r.Body != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
		if err != nil {
			c.body = nil
			c.handle = func(c *call) *response { return tooLarge(c) }
		} else {
			c.body = body
		}
	}
	if c.iface == ifaceRPC && c.allow == "" && c.body != nil {
		s.prepareRPC(c)
	}
	s.identify(c)

	s.counters.request(c.route)
	done := s.counters.enter(c.route, c.seller)
	defer done()

	if !s.gates.wait(c.route, r) {
		return
	}
	if d := s.faults.latencyFor(c.route); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	f, ok := s.faults.take(c.route)
	if ok && f.Kind.beforeHandler() {
		s.serveFault(w, c, f, nil)
		return
	}
	var resp *response
	if c.allow != "" {
		resp = methodNotAllowed(c)
	} else {
		resp = c.handle(c)
	}
	if ok {
		s.serveFault(w, c, f, resp)
		return
	}
	writeResponse(w, resp)
}

// route maps the request path to a route name and handler.
func (s *Sandbox) route(r *http.Request) *call {
	c := &call{r: r, route: RouteNotFound, iface: ifaceB2B, env: envB2BProduction}
	c.handle = func(c *call) *response { return notFound(c) }
	path := r.URL.Path
	if s.lamoda() && strings.HasPrefix(path, "/jsonrpc/v1/") {
		// The gateway calls each method at its own path.
		c.iface, c.env, c.route = ifaceRPC, envSeller, RouteRPCInvalid
		c.subpath = "v1." + path[len("/jsonrpc/v1/"):]
		c.handle = s.handleRPC
		c.allow = allowOnly(r, http.MethodPost)
		return c
	}
	switch {
	case s.lamoda() && (path == "/jsonrpc" || path == "/jsonrpc/"):
		c.iface, c.env = ifaceRPC, envSeller
		c.handle = func(c *call) *response { return rpcHTTPNotFound(c) }
		return c
	case path == "/jsonrpc" || path == "/jsonrpc/":
		c.iface, c.env, c.route = ifaceRPC, envSeller, RouteRPCInvalid
		c.handle = s.handleRPC
		c.allow = allowOnly(r, http.MethodPost)
		return c
	case path == "/jsonrpc/v1/tokens.create":
		c.iface, c.env, c.route = ifaceRPC, envSeller, RouteRPCInvalid
		c.subpath = "v1.tokens.create"
		c.handle = s.handleRPC
		c.allow = allowOnly(r, http.MethodPost)
		return c
	case path == "/api/v2/fbs/return-boxes":
		c.iface, c.env, c.route = ifaceREST, envSeller, RouteReturnBoxes
		c.handle = s.handleReturnBoxes
		c.allow = allowOnly(r, http.MethodGet)
		return c
	case strings.HasPrefix(path, "/api/v2/fbs/return-boxes/") && !strings.Contains(path[len("/api/v2/fbs/return-boxes/"):], "/"):
		c.iface, c.env, c.route = ifaceREST, envSeller, RouteReturnBox
		c.subpath = path[len("/api/v2/fbs/return-boxes/"):]
		c.handle = s.handleReturnBox
		c.allow = allowOnly(r, http.MethodGet)
		return c
	case s.routeV2(c, path):
		return c
	case strings.HasPrefix(path, "/api/v2/") || path == "/api/v2":
		c.iface, c.env = ifaceREST, envSeller
		return c
	case strings.HasPrefix(path, "/jsonrpc/"):
		c.iface, c.env = ifaceRPC, envSeller
		c.handle = func(c *call) *response { return rpcHTTPNotFound(c) }
		return c
	}
	if path == "/test" || strings.HasPrefix(path, "/test/") {
		c.prefix, c.env = "/test", envB2BTest
		path = path[len("/test"):]
	}
	switch {
	case path == "/auth/token":
		c.route, c.handle = RouteB2BToken, s.handleB2BToken
		if s.lamoda() {
			c.allow = allowOnly(r, http.MethodGet) // the query, never a body
		} else {
			c.allow = allowOnly(r, http.MethodPost, http.MethodGet)
		}
	case path == "/api/v1/orders":
		c.route, c.handle = RouteB2BOrders, s.handleOrders
		c.allow = allowOnly(r, http.MethodGet)
	case path == "/api/v1/notifications/resend":
		c.route, c.handle = RouteB2BResend, s.handleResend
		c.allow = allowOnly(r, http.MethodPost)
	case strings.HasPrefix(path, "/api/v1/gift-certificates/") && !strings.Contains(path[len("/api/v1/gift-certificates/"):], "/"):
		c.route, c.handle, c.iface = RouteB2BGiftCert, s.handleGiftCertificate, ifaceGift
		c.subpath = path[len("/api/v1/gift-certificates/"):]
		c.allow = allowOnly(r, http.MethodGet)
	}
	return c
}

// allowOnly returns "" when the request method is one of methods (HEAD counts
// as GET), or the Allow header value otherwise.
func allowOnly(r *http.Request, methods ...string) string {
	for _, m := range methods {
		if r.Method == m || (m == http.MethodGet && r.Method == http.MethodHead) {
			return ""
		}
	}
	return strings.Join(methods, ", ")
}

// identify authenticates the request (for routes that need it) and works out
// the seller for the in-flight gauge.
func (s *Sandbox) identify(c *call) {
	switch c.route {
	case RouteNotFound, RouteRPCInvalid:
		return
	case RouteB2BToken, RouteRPCTokens, RouteV2Token:
		c.seller = s.sellerOfClient(c)
		return
	}
	if c.allow != "" {
		return
	}
	p, err := s.authenticate(c.r.Header.Values("Authorization"), c.env)
	if err != nil {
		c.authErr = err
		return
	}
	c.auth = p
	c.seller = p.sellerID
}

// writeResponse writes a buffered response in one go. JSON bodies end with a
// newline, as most APIs do (and so curl output stays readable).
func writeResponse(w http.ResponseWriter, resp *response) {
	if resp.ctype == ctypeJSON && len(resp.body) > 0 && resp.body[len(resp.body)-1] != '\n' {
		resp.body = append(resp.body, '\n')
	}
	h := w.Header()
	for k, v := range resp.header {
		h[k] = v
	}
	if resp.ctype != "" {
		h.Set("Content-Type", resp.ctype)
	}
	h.Set("Content-Length", itoa(int64(len(resp.body))))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(resp.status)
	_, _ = w.Write(resp.body)
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// validRequestID accepts a request id worth echoing: 1..128 printable ASCII
// characters.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}
