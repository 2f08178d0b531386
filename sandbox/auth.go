package sandbox

import (
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Token environments: the three separate token stores, and the keys of
// Counters.TokensIssued.
const (
	envB2BProduction = "b2b/production"
	envB2BTest       = "b2b/test"
	envSeller        = "seller"
)

// Credential is a seeded client credential pair.
type Credential struct {
	ClientID, ClientSecret string
	SellerID               int64
	B2BProduction          bool // accepted by the B2B production environment
}

// seededCredentials is the one place the sandbox's credentials are defined.
var seededCredentials = []Credential{
	{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", SellerID: 1001, B2BProduction: true},
	{ClientID: "demo-1002", ClientSecret: "sandbox-secret-1002", SellerID: 1002, B2BProduction: true},
	{ClientID: "test-1003", ClientSecret: "sandbox-secret-1003", SellerID: 1003, B2BProduction: false},
}

// SeededCredentials returns the fixed credentials every sandbox accepts. All of
// them work in the B2B test environment and the seller interfaces; only those
// with B2BProduction set work in the B2B production environment.
func SeededCredentials() []Credential {
	return append([]Credential(nil), seededCredentials...)
}

// credentialsFor are the credentials of n sellers (sellerIDsFor): the
// seeded three, then one B2B-production pair per added seller.
func credentialsFor(n int) []Credential {
	cs := SeededCredentials()
	for _, id := range sellerIDsFor(n)[len(sellerIDs):] {
		cs = append(cs, Credential{ClientID: "demo-" + itoa(id), ClientSecret: "sandbox-secret-" + itoa(id), SellerID: id, B2BProduction: true})
	}
	return cs
}

// Credentials returns the credentials this sandbox accepts: those of
// SeededCredentials, then those of the sellers Options.Sellers adds.
func (s *Sandbox) Credentials() []Credential {
	return append([]Credential(nil), s.creds...)
}

func (s *Sandbox) credentialByID(clientID string) (Credential, bool) {
	for _, c := range s.creds {
		if c.ClientID == clientID {
			return c, true
		}
	}
	return Credential{}, false
}

// RevokeCredentials makes later token requests with clientID fail like wrong
// credentials, and makes its existing tokens answer 401.
func (s *Sandbox) RevokeCredentials(clientID string) {
	s.mu.Lock()
	s.revoked[clientID] = true
	s.mu.Unlock()
}

// RotateSecret gives clientID the secret secret: later token requests
// with its former secret fail like wrong credentials. Tokens issued
// before keep working until they expire, as a rotation at a real
// marketplace leaves them.
func (s *Sandbox) RotateSecret(clientID, secret string) {
	s.mu.Lock()
	s.secrets[clientID] = secret
	s.mu.Unlock()
}

// credError tells why a token request was refused.
type credError int

const (
	credOK credError = iota
	credInvalid
	credWrongEnv
)

// checkCredentials validates a credential pair for a token environment.
func (s *Sandbox) checkCredentials(clientID, secret, env string) (Credential, credError) {
	c, ok := s.credentialByID(clientID)
	s.mu.RLock()
	revoked := s.revoked[clientID]
	if rotated, ok := s.secrets[clientID]; ok {
		c.ClientSecret = rotated
	}
	s.mu.RUnlock()
	if !ok || subtle.ConstantTimeCompare([]byte(c.ClientSecret), []byte(secret)) != 1 {
		return Credential{}, credInvalid
	}
	if revoked {
		return Credential{}, credInvalid
	}
	if env == envB2BProduction && !c.B2BProduction {
		return Credential{}, credWrongEnv
	}
	return c, credOK
}

// tokenClaims are the claims of every sandbox JWT. Env tells the token stores
// apart: a token is only accepted by the environment that issued it.
type tokenClaims struct {
	SellerID int64  `json:"seller_id"`
	Env      string `json:"env"`
	jwt.RegisteredClaims
}

// issuedToken is a freshly signed token.
type issuedToken struct {
	access, refresh string
	ttl             time.Duration
}

// issueToken signs a token for cred in env, records it in env's store and
// counts it.
func (s *Sandbox) issueToken(cred Credential, env string) (issuedToken, error) {
	now := s.Now()
	s.mu.Lock()
	ttl := s.tokenTTL
	jti := s.randomHex(16)
	refresh := s.randomHex(32)
	s.tokens[env][jti] = cred.ClientID
	s.mu.Unlock()
	claims := tokenClaims{
		SellerID: cred.SellerID,
		Env:      env,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    "sellerdesk-sandbox",
			Subject:   cred.ClientID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
			ID:        jti,
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	if err != nil {
		return issuedToken{}, err
	}
	s.counters.tokenIssued(env)
	s.log.Info("token issued", "env", env, "client_id", cred.ClientID, "seller_id", cred.SellerID, "ttl", ttl)
	return issuedToken{access: signed, refresh: refresh, ttl: ttl}, nil
}

// randomHex draws n random bytes from the seeded generator. The caller holds mu.
func (s *Sandbox) randomHex(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(s.rng.Uint32())
	}
	return hex.EncodeToString(b)
}

// principal is an authenticated caller.
type principal struct {
	clientID string
	sellerID int64
}

// authError is a 401 with a reason that each interface renders in its shape.
type authError struct {
	reason string
}

func (e *authError) Error() string { return e.reason }

var (
	errNoHeader  = &authError{"authorization header is missing"}
	errBadScheme = &authError{`authorization header must be "Bearer " followed by the access token`}
	errBadToken  = &authError{"access token is invalid"}
	errExpired   = &authError{"access token has expired"}
	errOtherEnv  = &authError{"access token was issued for another environment or interface"}
	errRevoked   = &authError{"access token has been revoked"}
)

// authenticate checks the Authorization header values for a token of env.
func (s *Sandbox) authenticate(values []string, env string) (*principal, *authError) {
	if len(values) == 0 || values[0] == "" {
		return nil, errNoHeader
	}
	if len(values) > 1 {
		return nil, errBadScheme
	}
	raw, ok := strings.CutPrefix(values[0], "Bearer ")
	if !ok || raw == "" || strings.ContainsAny(raw, " \t") {
		return nil, errBadScheme
	}
	claims, err := s.verify(raw)
	if err != nil {
		return nil, errBadToken
	}
	if claims.Env != env {
		return nil, errOtherEnv
	}
	s.mu.RLock()
	clientID, known := s.tokens[env][claims.ID]
	revoked := s.revoked[clientID]
	s.mu.RUnlock()
	if !known || clientID != claims.Subject {
		return nil, errBadToken
	}
	if revoked {
		return nil, errRevoked
	}
	if !s.Now().Before(claims.ExpiresAt.Time) {
		return nil, errExpired
	}
	return &principal{clientID: clientID, sellerID: claims.SellerID}, nil
}

// verify checks a token's signature and returns its claims. Verified tokens
// are remembered (only tokens this sandbox signed get there, so the cache is
// bounded by the tokens issued), which keeps the HMAC and JSON work off the hot
// path of list benchmarks.
func (s *Sandbox) verify(raw string) (*tokenClaims, error) {
	if c, ok := s.verified.Load(raw); ok {
		return c.(*tokenClaims), nil
	}
	claims := new(tokenClaims)
	tok, err := jwt.ParseWithClaims(raw, claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithoutClaimsValidation())
	if err != nil || !tok.Valid || claims.ExpiresAt == nil || claims.ID == "" {
		return nil, errBadToken
	}
	s.verified.Store(raw, claims)
	return claims, nil
}

// sellerOfClient names the seller of a token request for the in-flight gauge:
// the seller of the client_id it carries, or 0.
func (s *Sandbox) sellerOfClient(c *call) int64 {
	id := c.r.URL.Query().Get("client_id")
	if id == "" && len(c.body) > 0 {
		id = sniffClientID(c.body)
	}
	if cred, ok := s.credentialByID(id); ok {
		return cred.SellerID
	}
	return 0
}
