package apiclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/sync/singleflight"
)

// Token lifetime rules.
const (
	// ShortTokenLifetime is assumed when a token endpoint states a missing,
	// zero, negative or absurd lifetime: short, never "forever".
	ShortTokenLifetime = 60 * time.Second
	// MaxTokenLifetime is the longest stated lifetime that is believed.
	MaxTokenLifetime = 24 * time.Hour
	// refreshFraction: a token is refreshed after 80 % of its lifetime
	// (12 minutes into the spec's 15; spec §5.7 advises 10 to 14).
	refreshFraction = 0.8
	// refreshTimeout bounds one shared token refresh, which runs detached
	// from any single caller's cancellation.
	refreshTimeout = 60 * time.Second
)

// Credentials is one client id and secret pair (spec §5), valid for the B2B
// platform API of its environment and for the seller APIs. Its String,
// GoString and LogValue never print the secret.
type Credentials struct {
	ClientID     string
	ClientSecret string
	Environment  Environment
}

// String returns the credentials with the secret redacted.
func (c Credentials) String() string {
	return fmt.Sprintf("Credentials{ClientID: %q, ClientSecret: %s, Environment: %q}", c.ClientID, redactedMark(c.ClientSecret), string(c.Environment))
}

// GoString returns the credentials with the secret redacted, for %#v.
func (c Credentials) GoString() string {
	return fmt.Sprintf("apiclient.Credentials{ClientID: %q, ClientSecret: %s, Environment: %q}", c.ClientID, redactedMark(c.ClientSecret), string(c.Environment))
}

// LogValue logs the client id and environment only.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("client_id", c.ClientID),
		slog.String("client_secret", redactedMark(c.ClientSecret)),
		slog.String("environment", string(c.Environment)))
}

func redactedMark(s string) string {
	if s == "" {
		return `""`
	}
	return "[REDACTED]"
}

// TokenKind names one of the tokens of a credential pair.
type TokenKind string

// Token kinds. The seller REST API uses the seller token; the lamoda
// profile's Seller API v2 (prices) has a token of its own.
const (
	KindB2B      TokenKind = "b2b"
	KindSeller   TokenKind = "seller"
	KindSellerV2 TokenKind = "seller-v2"
)

// TokenKey identifies a cached token: the client id, a fingerprint of the
// secret (so a changed secret does not reuse an old token), the environment
// and the kind. It never contains the secret.
type TokenKey struct {
	ClientID    string
	Fingerprint string
	Environment Environment
	Kind        TokenKind
}

// String returns a compact form of the key, safe to log.
func (k TokenKey) String() string {
	return string(k.Kind) + "/" + string(k.Environment) + "/" + k.ClientID + "/" + k.Fingerprint
}

// Fingerprint returns a short, one-way hash of the credentials for TokenKey:
// it tells two secrets apart without revealing either.
func Fingerprint(creds Credentials) string {
	h := sha256.New()
	h.Write([]byte("sellerdesk/apiclient/token-key\x00"))
	h.Write([]byte(creds.ClientID))
	h.Write([]byte{0})
	h.Write([]byte(creds.ClientSecret))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Token is an access token with its timing. Its String, GoString and
// LogValue never print the token values.
type Token struct {
	AccessToken  string
	RefreshToken string
	IssuedAt     time.Time
	ExpiresAt    time.Time
}

// RefreshAt returns when the token should be replaced: 80 % into its
// lifetime (a token without IssuedAt is refreshed ShortTokenLifetime/5
// before ExpiresAt).
func (t Token) RefreshAt() time.Time {
	if t.IssuedAt.IsZero() || !t.ExpiresAt.After(t.IssuedAt) {
		return t.ExpiresAt.Add(-ShortTokenLifetime / 5)
	}
	life := t.ExpiresAt.Sub(t.IssuedAt)
	return t.IssuedAt.Add(time.Duration(float64(life) * refreshFraction))
}

// Valid reports whether the token has a value and is not expired at now.
func (t Token) Valid(now time.Time) bool {
	return t.AccessToken != "" && now.Before(t.ExpiresAt)
}

// String returns the token's timing with the values redacted.
func (t Token) String() string {
	return fmt.Sprintf("Token{AccessToken: %s, RefreshToken: %s, IssuedAt: %s, ExpiresAt: %s}",
		redactedMark(t.AccessToken), redactedMark(t.RefreshToken),
		t.IssuedAt.UTC().Format(time.RFC3339), t.ExpiresAt.UTC().Format(time.RFC3339))
}

// GoString returns the token's timing with the values redacted, for %#v.
func (t Token) GoString() string { return "apiclient." + t.String() }

// LogValue logs the token's timing only.
func (t Token) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("access_token", redactedMark(t.AccessToken)),
		slog.Time("issued_at", t.IssuedAt), slog.Time("expires_at", t.ExpiresAt))
}

// TokenStore keeps tokens between calls, for example in the user's
// server-side session so that several dashboard instances share them.
// Implementations must be safe for concurrent use.
type TokenStore interface {
	// LoadToken returns the stored token for key and whether there was one.
	LoadToken(ctx context.Context, key TokenKey) (Token, bool, error)
	// SaveToken stores tok for key, replacing any earlier token.
	SaveToken(ctx context.Context, key TokenKey, tok Token) error
}

// TokenRefreshLocker is optionally implemented by a TokenStore shared
// between processes. The client takes the lock around a refresh and reads the
// store again after acquiring it, so a token refreshed meanwhile by another
// process is used instead of requesting one more.
type TokenRefreshLocker interface {
	LockTokenRefresh(ctx context.Context, key TokenKey) (unlock func(), err error)
}

// NewMemoryTokenStore returns an in-process TokenStore.
func NewMemoryTokenStore() TokenStore {
	return &memoryStore{m: make(map[TokenKey]*Token)}
}

// memoryStore keeps pointers so that even a reflective walk (a %s on a
// struct that holds it) prints addresses, not token values.
type memoryStore struct {
	mu sync.Mutex
	m  map[TokenKey]*Token
}

// LoadToken returns a copy of the stored token.
func (s *memoryStore) LoadToken(_ context.Context, key TokenKey) (Token, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.m[key]
	if !ok {
		return Token{}, false, nil
	}
	return *t, true, nil
}

// SaveToken stores a copy of tok.
func (s *memoryStore) SaveToken(_ context.Context, key TokenKey, tok Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = &tok
	return nil
}

// String keeps fmt from printing the stored tokens.
func (s *memoryStore) String() string { return "apiclient.MemoryTokenStore" }

// GoString keeps fmt from printing the stored tokens.
func (s *memoryStore) GoString() string { return "apiclient.MemoryTokenStore{}" }

// Account is one credential pair bound to a Client: its services share the
// pair's two tokens (B2B, seller). It is cheap to create, for example once
// per dashboard request with the session's token store.
type Account struct {
	// B2B is the B2B platform API (REST), in the credentials' environment.
	B2B *B2BService
	// Seller is the seller JSON-RPC API.
	Seller *SellerService
	// ReturnBoxes is the seller REST API's return boxes, with the seller token.
	ReturnBoxes *ReturnBoxesService

	st *accountState
}

// accountState sits behind a pointer so that printing an Account value never
// reaches the secret.
type accountState struct {
	c        *Client
	creds    *Credentials // behind a pointer: a reflective walk prints an address
	store    TokenStore
	b2b      *tokenSource
	seller   *tokenSource
	sellerV2 *tokenSource // the lamoda profile's Seller API v2
}

// Account binds creds to c. A nil store means c's default store (see
// Options.Store); an empty Environment means Production.
func (c *Client) Account(creds Credentials, store TokenStore) *Account {
	if store == nil {
		store = c.store
	}
	if creds.Environment == "" {
		creds.Environment = Production
	}
	st := &accountState{c: c, creds: &creds, store: store}
	fp := Fingerprint(creds)
	st.b2b = &tokenSource{st: st, key: TokenKey{ClientID: creds.ClientID, Fingerprint: fp, Environment: creds.Environment, Kind: KindB2B}}
	st.seller = &tokenSource{st: st, key: TokenKey{ClientID: creds.ClientID, Fingerprint: fp, Environment: creds.Environment, Kind: KindSeller}}
	st.sellerV2 = &tokenSource{st: st, key: TokenKey{ClientID: creds.ClientID, Fingerprint: fp, Environment: creds.Environment, Kind: KindSellerV2}}
	a := &Account{st: st}
	a.B2B = &B2BService{a: st}
	a.Seller = &SellerService{a: st}
	a.ReturnBoxes = &ReturnBoxesService{a: st}
	return a
}

// String describes the account without its secret.
func (a Account) String() string {
	if a.st == nil {
		return "apiclient.Account{}"
	}
	return fmt.Sprintf("apiclient.Account{ClientID: %q, Environment: %q}", a.st.creds.ClientID, string(a.st.creds.Environment))
}

// GoString describes the account without its secret, for %#v.
func (a Account) GoString() string { return a.String() }

// LogValue logs the client id and environment only.
func (a Account) LogValue() slog.Value {
	if a.st == nil {
		return slog.StringValue("apiclient.Account{}")
	}
	return a.st.creds.LogValue()
}

// Credentials returns the account's credentials.
func (a *Account) Credentials() Credentials { return *a.st.creds }

// TokenKey returns the store key of the account's token of the given kind.
func (a *Account) TokenKey(kind TokenKind) TokenKey {
	return a.st.source(kind).key
}

// source is the account's token of kind.
func (st *accountState) source(kind TokenKind) *tokenSource {
	switch kind {
	case KindSeller:
		return st.seller
	case KindSellerV2:
		return st.sellerV2
	}
	return st.b2b
}

// Login obtains both tokens now, bypassing any cached ones, and stores them:
// the B2B token of the credentials' environment and the seller token. It is
// meant for a login form: rejected credentials give a *CredentialsError,
// which matches ErrUnauthorized and unwraps to the decoded answer (the B2B
// platform answers 400 for a wrong pair, the seller API a business error
// 401). Other failures (network, rate limits, ...) are returned as they are.
func (a *Account) Login(ctx context.Context) error {
	if a.st.creds.ClientID == "" || a.st.creds.ClientSecret == "" {
		return &CredentialsError{Kind: KindB2B, Environment: a.st.creds.Environment,
			Err: fmt.Errorf("client id and client secret are required: %w", ErrValidation)}
	}
	var wg sync.WaitGroup
	var errB2B, errSeller error
	wg.Add(2)
	go func() { defer wg.Done(); _, errB2B = a.st.b2b.refresh(ctx, Token{}, refreshForce) }()
	go func() { defer wg.Done(); _, errSeller = a.st.seller.refresh(ctx, Token{}, refreshForce) }()
	wg.Wait()
	return errors.Join(errB2B, errSeller)
}

// Token returns a valid token of the given kind, from the store or freshly
// obtained. Services call this themselves; it is exported for diagnostics
// and for callers that talk to an operation this package does not cover.
func (a *Account) Token(ctx context.Context, kind TokenKind) (Token, error) {
	return a.st.source(kind).token(ctx)
}

// secrets lists the values to scrub from every answer, log line and error
// for this account: the client secret, also in the forms a URL query and
// a URL path give it (the lamoda profile's B2B token request carries it in
// its query), and extra (tokens).
func (st *accountState) secrets(extra ...string) []string {
	out := make([]string, 0, 4+len(extra))
	sec := st.creds.ClientSecret
	out = append(out, sec)
	if q := url.QueryEscape(sec); q != sec {
		out = append(out, q)
	}
	if p := url.PathEscape(sec); p != sec && p != url.QueryEscape(sec) {
		out = append(out, p)
	}
	out = append(out, extra...)
	return out
}

// authed runs fn with a token of ts and applies the 401 rule: on a 401
// answer, obtain one new token and retry once; a second 401 is returned as
// an error matching ErrUnauthorized. A write whose outcome is unknown is
// not retried, only its token renewed. Token endpoint failures are returned
// as they are (a rejected pair is a *CredentialsError).
func (st *accountState) authed(ctx context.Context, ts *tokenSource, fn func(cs *callState, token string) error) error {
	cs := st.c.newCallState(ctx)
	tok, err := ts.token(ctx)
	if err != nil {
		return err
	}
	err = fn(cs, tok.AccessToken)
	if !isAuthRejection(err) {
		return err
	}
	st.c.log.LogAttrs(ctx, slog.LevelInfo, "apiclient token rejected; refreshing once", slog.String("kind", string(ts.key.Kind)))
	tok2, err2 := ts.refresh(ctx, tok, refreshRejected)
	if err2 != nil {
		return err2
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		// A write answered with a success status that refused the token:
		// the token is renewed for the next call, the write not replayed.
		return err
	}
	err = fn(cs, tok2.AccessToken)
	if isAuthRejection(err) {
		return fmt.Errorf("apiclient: %s token rejected again after a refresh: %w", ts.key.Kind, err)
	}
	return err
}

func isAuthRejection(err error) bool {
	if err == nil || !errors.Is(err, ErrUnauthorized) {
		return false
	}
	var ce *CredentialsError
	return !errors.As(err, &ce)
}

// tokenSource is one token (kind) of one account.
type tokenSource struct {
	st  *accountState
	key TokenKey
}

// token returns the stored token while it is before its refresh time, and
// otherwise a refreshed one. If a refresh fails for a reason other than
// rejected credentials while the old token is still valid, the old token is
// used.
func (ts *tokenSource) token(ctx context.Context) (Token, error) {
	c := ts.st.c
	tok, ok, err := ts.st.store.LoadToken(ctx, ts.key)
	if err != nil {
		c.log.LogAttrs(ctx, slog.LevelWarn, "apiclient token store load failed", slog.String("key", ts.key.String()), slog.String("error", err.Error()))
		ok = false
	}
	now := c.now()
	if ok && tok.AccessToken != "" && now.Before(tok.RefreshAt()) {
		return tok, nil
	}
	fresh, err := ts.refresh(ctx, tok, refreshDue)
	if err != nil {
		var ce *CredentialsError
		if ok && tok.Valid(now) && !errors.As(err, &ce) && ctx.Err() == nil {
			c.log.LogAttrs(ctx, slog.LevelWarn, "apiclient token refresh failed; using the current token until it expires",
				slog.String("key", ts.key.String()), slog.String("error", err.Error()))
			return tok, nil
		}
		return Token{}, err
	}
	return fresh, nil
}

type flightResult struct {
	tok   Token
	store TokenStore
}

// refreshMode says why a token is refreshed.
type refreshMode int

const (
	// refreshDue: the cached token reached its refresh time (or there is
	// none). A token in the store that is not yet due is used instead.
	refreshDue refreshMode = iota
	// refreshRejected: the server answered 401 to the stale token. A
	// different token in the store that is not yet due is used instead.
	refreshRejected
	// refreshForce: Login; always a new token.
	refreshForce
)

// refresh obtains a new token, collapsing concurrent refreshes of the same
// key within the process into one call. stale is the token the caller found
// unusable. Before calling the token endpoint, the store is read again
// (under the store's lock, if it has one), so a token saved meanwhile by
// another caller or process is used instead of requesting one more.
func (ts *tokenSource) refresh(ctx context.Context, stale Token, mode refreshMode) (Token, error) {
	c := ts.st.c
	flightKey := ts.key.String()
	if mode == refreshForce {
		flightKey += "/force"
	}
	for try := 0; try < 2; try++ {
		ch := c.flights.DoChan(flightKey, func() (any, error) {
			// Detached from the first caller's cancellation: other callers
			// wait for this flight too. Bounded by refreshTimeout.
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshTimeout)
			defer cancel()
			tok, err := ts.refreshLocked(fctx, stale, mode)
			return flightResult{tok: tok, store: ts.st.store}, err
		})
		var res singleflight.Result
		select {
		case <-ctx.Done():
			return Token{}, ctx.Err()
		case res = <-ch:
		}
		if res.Err != nil {
			return Token{}, res.Err
		}
		fr := res.Val.(flightResult)
		if res.Shared && !sameStore(fr.store, ts.st.store) {
			if err := ts.st.store.SaveToken(ctx, ts.key, fr.tok); err != nil {
				c.log.LogAttrs(ctx, slog.LevelWarn, "apiclient token store save failed", slog.String("key", ts.key.String()), slog.String("error", err.Error()))
			}
		}
		// A flight started for another reason may hand back the very token
		// this caller saw rejected; then one more flight.
		if mode == refreshRejected && fr.tok.AccessToken == stale.AccessToken {
			continue
		}
		return fr.tok, nil
	}
	return Token{}, fmt.Errorf("apiclient: %s token refresh returned the rejected token: %w", ts.key.Kind, ErrUnauthorized)
}

func sameStore(a, b TokenStore) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() == reflect.Pointer && vb.Kind() == reflect.Pointer {
		return va.Pointer() == vb.Pointer() && va.Type() == vb.Type()
	}
	return false
}

// refreshLocked runs inside the flight: lock (if the store supports it),
// re-read, fetch, save.
func (ts *tokenSource) refreshLocked(ctx context.Context, stale Token, mode refreshMode) (Token, error) {
	c := ts.st.c
	store := ts.st.store
	if locker, ok := store.(TokenRefreshLocker); ok {
		unlock, err := locker.LockTokenRefresh(ctx, ts.key)
		if err != nil {
			return Token{}, fmt.Errorf("apiclient: lock token refresh: %w", err)
		}
		defer unlock()
	}
	if mode != refreshForce {
		if tok, ok, err := store.LoadToken(ctx, ts.key); err == nil && ok &&
			tok.AccessToken != "" && c.now().Before(tok.RefreshAt()) &&
			(mode != refreshRejected || tok.AccessToken != stale.AccessToken) {
			return tok, nil // refreshed meanwhile by another caller or process
		}
	}
	var tok Token
	var err error
	switch ts.key.Kind {
	case KindSeller:
		tok, err = ts.st.fetchSellerToken(ctx)
	case KindSellerV2:
		tok, err = ts.st.fetchSellerV2Token(ctx)
	default:
		tok, err = ts.st.fetchB2BToken(ctx)
	}
	if err != nil {
		return Token{}, err
	}
	if err := store.SaveToken(ctx, ts.key, tok); err != nil {
		c.log.LogAttrs(ctx, slog.LevelWarn, "apiclient token store save failed", slog.String("key", ts.key.String()), slog.String("error", err.Error()))
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "apiclient token issued", slog.String("key", ts.key.String()),
		slog.Time("expires_at", tok.ExpiresAt), slog.Time("refresh_at", tok.RefreshAt()))
	return tok, nil
}

// tokenResponse is the token body of both token endpoints.
type tokenResponse struct {
	AccessToken  string          `json:"access_token"`
	TokenType    string          `json:"token_type"`
	ExpiresIn    json.RawMessage `json:"expires_in"`
	RefreshToken string          `json:"refresh_token"`
}

// newToken computes the token's timing: the stated expires_in if sane
// (else ShortTokenLifetime), shortened by the JWT's own exp when that is
// earlier. The JWT is parsed without verification, for timing only; its
// lifetime is taken as exp-iat when iat is present, so a server clock that
// differs from ours does not matter.
func (c *Client) newToken(tr tokenResponse, issued time.Time) Token {
	life := ShortTokenLifetime
	if secs, ok := parseExpiresIn(tr.ExpiresIn); ok && secs > 0 && time.Duration(secs)*time.Second <= MaxTokenLifetime {
		life = time.Duration(secs) * time.Second
	}
	if jl, ok := jwtLifetime(tr.AccessToken, issued); ok && jl < life {
		life = jl
	}
	return Token{AccessToken: tr.AccessToken, RefreshToken: tr.RefreshToken, IssuedAt: issued, ExpiresAt: issued.Add(life)}
}

func parseExpiresIn(raw json.RawMessage) (int64, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" || s == "null" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > -1e12 && f < 1e12 {
		return int64(f), true
	}
	return 0, false
}

// jwtLifetime returns the remaining lifetime the JWT itself claims.
func jwtLifetime(access string, issued time.Time) (time.Duration, bool) {
	if strings.Count(access, ".") != 2 {
		return 0, false
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(access, claims); err != nil {
		return 0, false
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return 0, false
	}
	iat, err := claims.GetIssuedAt()
	if err == nil && iat != nil {
		d := exp.Sub(iat.Time)
		if d <= 0 {
			return ShortTokenLifetime / 6, true // already expired by its own account: very short
		}
		return d, true
	}
	d := exp.Sub(issued)
	if d <= 0 {
		return 0, false // our clock or theirs is off; fall back to expires_in
	}
	return d, true
}

// fetchB2BToken issues a B2B token at {b2b}/auth/token, as the wire
// profile asks it: POST with a JSON body (contract) or GET with the query
// (lamoda). Both answer in snake_case.
func (st *accountState) fetchB2BToken(ctx context.Context) (Token, error) {
	c := st.c
	base, err := c.b2bBase(st.creds.Environment)
	if err != nil {
		return Token{}, err
	}
	method, target, body := c.wire.b2b.tokenRequest(base, st.creds)
	req := &request{op: "b2b token", method: method, url: target, body: body, secrets: st.secrets()}
	issued := c.now()
	resp, err := c.send(ctx, c.newCallState(ctx), retryIdempotent, req, b2bErrorBody)
	if err != nil {
		return Token{}, err
	}
	if resp.status != 200 && resp.status != 201 {
		e := b2bErrorBody(resp)
		switch resp.status {
		case 400, 401, 403:
			return Token{}, &CredentialsError{Kind: KindB2B, Environment: st.creds.Environment, Err: e}
		}
		return Token{}, e
	}
	var tr tokenResponse
	if err := resp.decode(&tr); err != nil {
		return Token{}, err
	}
	if tr.AccessToken == "" {
		return Token{}, resp.unexpected("token response without access_token")
	}
	return c.newToken(tr, issued), nil
}

// fetchSellerToken issues a seller token with the JSON-RPC method
// v1.tokens.create, in the wire profile's params and result shapes.
func (st *accountState) fetchSellerToken(ctx context.Context) (Token, error) {
	c := st.c
	params, answer := c.wire.rpc.tokenCall(st.creds)
	path := c.sellerTokenPath
	if c.wire.profile != ProfileContract {
		path = c.wire.rpc.path("v1.tokens.create")
	}
	issued := c.now()
	err := st.rpc(ctx, c.newCallState(ctx), rpcCall{
		method: "v1.tokens.create", path: path, params: params, policy: retryIdempotent,
	}, "", answer)
	if err != nil {
		var re *RPCError
		if errors.As(err, &re) && (re.Code == 401 || re.Code == 403 || re.Code == RPCInvalidParams || authWord(re.Message) != "") {
			return Token{}, &CredentialsError{Kind: KindSeller, Environment: st.creds.Environment, Err: err}
		}
		var ue *UnexpectedResponseError
		if errors.As(err, &ue) && (ue.Status == 400 || ue.Status == 401 || ue.Status == 403) {
			return Token{}, &CredentialsError{Kind: KindSeller, Environment: st.creds.Environment, Err: err}
		}
		return Token{}, err
	}
	tr := answer.token()
	if tr.AccessToken == "" {
		return Token{}, &UnexpectedResponseError{Op: "seller rpc v1.tokens.create", Reason: "token result without an access token"}
	}
	return c.newToken(tr, issued), nil
}
