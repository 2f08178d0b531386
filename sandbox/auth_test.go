package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// authTarget is one authenticated operation and how its 401 looks.
type authTarget struct {
	name   string
	env    string // token environment the target accepts
	send   func(t *testing.T, s *Sandbox, header []string) result
	expect func(t *testing.T, got result, reason string)
}

func authTargets() []authTarget {
	b2b := func(t *testing.T, got result, reason string) {
		t.Helper()
		expect(t, got, http.StatusUnauthorized, fmt.Sprintf(`{"code":0,"description":%q,"errors":[]}`, "Authorization error: "+reason))
	}
	rpcBody := func(method string, params string) func(t *testing.T, s *Sandbox, h []string) result {
		return func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodPost, "/jsonrpc", `{"jsonrpc":"2.0","id":"u-42","method":"`+method+`","params":`+params+`}`, h...)
		}
	}
	rpcExpect := func(t *testing.T, got result, reason string) {
		t.Helper()
		expect(t, got, http.StatusOK, fmt.Sprintf(`{"jsonrpc":"2.0","id":"u-42","error":{"code":401,"message":"Unauthorized","data":{"reason":%q}}}`, reason))
	}
	return []authTarget{
		{"b2b orders production", envB2BProduction, func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodGet, "/api/v1/orders", "", h...)
		}, b2b},
		{"b2b orders test env", envB2BTest, func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodGet, "/test/api/v1/orders?limit=5", "", h...)
		}, b2b},
		{"b2b resend", envB2BProduction, func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodPost, "/api/v1/notifications/resend", `{"orderNrs":["RU1"]}`, h...)
		}, b2b},
		{"b2b gift certificate", envB2BProduction, func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodGet, "/api/v1/gift-certificates/GC-1001-0001", "", h...)
		}, func(t *testing.T, got result, reason string) {
			t.Helper()
			expect(t, got, http.StatusUnauthorized, fmt.Sprintf(`{"code":401,"message":"Unauthorized","description":%q,"errors":[]}`, reason))
		}},
		{"rpc list", envSeller, rpcBody("v1.nomenclatures.list", `{"seller_id":1001}`), rpcExpect},
		{"rpc store", envSeller, rpcBody("v1.nomenclatures.store", `{"seller_id":1001,"items":[]}`), rpcExpect},
		{"rpc set-prices", envSeller, rpcBody("v1.nomenclatures.set-prices", `{"prices":[]}`), rpcExpect},
		{"rest return boxes", envSeller, func(t *testing.T, s *Sandbox, h []string) result {
			return doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001", "", h...)
		}, func(t *testing.T, got result, reason string) {
			t.Helper()
			expect(t, got, http.StatusUnauthorized, fmt.Sprintf(`{"error":{"code":"UNAUTHORIZED","message":%q}}`, reason))
		}},
	}
}

// tokenFor issues a valid token of env for seller 1001.
func tokenFor(t *testing.T, s *Sandbox, env string) string {
	switch env {
	case envB2BProduction:
		return b2bToken(t, s, "", cred1001)
	case envB2BTest:
		return b2bToken(t, s, "/test", cred1001)
	}
	return sellerToken(t, s, cred1001)
}

// otherEnv names an environment whose tokens the target must refuse.
func otherEnv(env string) string {
	if env == envSeller {
		return envB2BProduction
	}
	if env == envB2BProduction {
		return envB2BTest
	}
	return envSeller
}

func signWith(t *testing.T, method jwt.SigningMethod, key any, claims jwt.Claims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAuthFailures covers spec §5 items 6 and 7 for every authenticated
// operation of the three interfaces, each in its own error shape.
func TestAuthFailures(t *testing.T) {
	for _, target := range authTargets() {
		t.Run(target.name, func(t *testing.T) {
			s := New(Options{})
			good := tokenFor(t, s, target.env)
			// Claims of a real token, re-signed: forged and unsigned variants.
			var claims tokenClaims
			if _, _, err := jwt.NewParser().ParseUnverified(good, &claims); err != nil {
				t.Fatal(err)
			}
			forged := signWith(t, jwt.SigningMethodHS256, []byte("not-the-sandbox-key"), claims)
			unsigned := signWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims)
			parts := strings.Split(good, ".")
			tampered := parts[0] + "." + strings.TrimRight(jsonB64(t, map[string]any{"seller_id": 1002, "env": claims.Env, "sub": claims.Subject, "exp": claims.ExpiresAt.Unix(), "jti": claims.ID}), "=") + "." + parts[2]

			cases := []struct {
				name   string
				header []string
				reason string
			}{
				{"missing header", nil, "authorization header is missing"},
				{"empty header", []string{"Authorization", ""}, "authorization header is missing"},
				{"lower-case scheme", []string{"Authorization", "bearer " + good}, errBadScheme.reason},
				{"two spaces", []string{"Authorization", "Bearer  " + good}, errBadScheme.reason},
				{"basic scheme", []string{"Authorization", "Basic ZGVtbzpzZWNyZXQ="}, errBadScheme.reason},
				{"token scheme", []string{"Authorization", "Token " + good}, errBadScheme.reason},
				{"no space", []string{"Authorization", "Bearer" + good}, errBadScheme.reason},
				{"scheme only", []string{"Authorization", "Bearer "}, errBadScheme.reason},
				{"bare token", []string{"Authorization", good}, errBadScheme.reason},
				{"trailing text", []string{"Authorization", "Bearer " + good + " extra"}, errBadScheme.reason},
				{"two headers", []string{"Authorization", "Bearer " + good, "Authorization", "Bearer " + good}, errBadScheme.reason},
				{"garbled", []string{"Authorization", "Bearer not.a.jwt"}, "access token is invalid"},
				{"random text", []string{"Authorization", "Bearer hello"}, "access token is invalid"},
				{"forged signature", []string{"Authorization", "Bearer " + forged}, "access token is invalid"},
				{"alg none", []string{"Authorization", "Bearer " + unsigned}, "access token is invalid"},
				{"tampered claims", []string{"Authorization", "Bearer " + tampered}, "access token is invalid"},
				{"other environment", []string{"Authorization", "Bearer " + tokenFor(t, s, otherEnv(target.env))}, errOtherEnv.reason},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					target.expect(t, target.send(t, s, tc.header), tc.reason)
				})
			}
			t.Run("expired", func(t *testing.T) {
				s := New(Options{})
				tok := tokenFor(t, s, target.env)
				s.Advance(899 * time.Second)
				if got := target.send(t, s, bearer(tok)); got.status == http.StatusUnauthorized || strings.Contains(string(got.body), `"code":401`) {
					t.Fatalf("token rejected before expiry: %s", got.body)
				}
				s.Advance(time.Second)
				target.expect(t, target.send(t, s, bearer(tok)), "access token has expired")
			})
			t.Run("revoked", func(t *testing.T) {
				s := New(Options{})
				tok := tokenFor(t, s, target.env)
				s.RevokeCredentials(cred1001.ClientID)
				target.expect(t, target.send(t, s, bearer(tok)), "access token has been revoked")
			})
			t.Run("token of another sandbox", func(t *testing.T) {
				other := New(Options{Seed: 99})
				target.expect(t, target.send(t, s, bearer(tokenFor(t, other, target.env))), "access token is invalid")
			})
		})
	}
}

func jsonB64(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestTokenTTL checks the lifetime override and that expires_in follows it.
func TestTokenTTL(t *testing.T) {
	s := New(Options{TokenTTL: 30 * time.Second})
	r := doReq(t, s, http.MethodPost, "/auth/token", `{"client_id":"demo-1001","client_secret":"sandbox-secret-1001","grant_type":"client_credentials"}`)
	var tok struct {
		ExpiresIn int `json:"expires_in"`
	}
	_ = json.Unmarshal(r.body, &tok)
	if tok.ExpiresIn != 30 {
		t.Fatalf("expires_in = %d, want 30", tok.ExpiresIn)
	}
	s.SetTokenTTL(5 * time.Second)
	seller := sellerToken(t, s, cred1001)
	var claims tokenClaims
	if _, _, err := jwt.NewParser().ParseUnverified(seller, &claims); err != nil {
		t.Fatal(err)
	}
	if got := claims.ExpiresAt.Sub(claims.IssuedAt.Time); got != 5*time.Second {
		t.Fatalf("exp - iat = %v, want 5s", got)
	}
	if claims.SellerID != 1001 || claims.Subject != "demo-1001" || claims.ID == "" {
		t.Fatalf("claims = %+v", claims)
	}
	s.Advance(5 * time.Second)
	r = rpc(t, s, seller, "v1.nomenclatures.list", map[string]any{"seller_id": 1001})
	if !strings.Contains(string(r.body), `"code":401`) {
		t.Fatalf("want 401 after 5s, got %s", r.body)
	}
	s.SetTokenTTL(0)
	if s.TokenTTL() != 30*time.Second {
		t.Fatalf("SetTokenTTL(0) = %v, want the configured 30s", s.TokenTTL())
	}
}

// TestParallelTokens checks that issuing many tokens at once works and that
// every one of them is valid (spec §5.7: no restriction).
func TestParallelTokens(t *testing.T) {
	s := New(Options{})
	const n = 20
	bodies := make(chan []byte, n)
	for range n {
		go func() {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/jsonrpc/v1/tokens.create",
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"v1.tokens.create","params":{"client_id":"demo-1002","client_secret":"sandbox-secret-1002","grant_type":"client_credentials"}}`)))
			bodies <- rec.Body.Bytes()
		}()
	}
	seen := map[string]bool{}
	for range n {
		var env struct {
			Result struct {
				AccessToken string `json:"access_token"`
			} `json:"result"`
		}
		if err := json.Unmarshal(<-bodies, &env); err != nil || env.Result.AccessToken == "" {
			t.Fatalf("token request failed: %v", err)
		}
		tok := env.Result.AccessToken
		if seen[tok] {
			t.Fatal("duplicate token")
		}
		seen[tok] = true
		r := rpc(t, s, tok, "v1.nomenclatures.list", map[string]any{"seller_id": 1002, "limit": 1})
		if strings.Contains(string(r.body), `"error"`) {
			t.Fatalf("token refused: %s", r.body)
		}
	}
	if got := s.Counters().TokensIssued["seller"]; got != n {
		t.Fatalf("TokensIssued[seller] = %d, want %d", got, n)
	}
}

// TestEnvironmentSeparation checks that each token store only accepts its own
// tokens, and that the seller REST API takes the seller token.
func TestEnvironmentSeparation(t *testing.T) {
	s := New(Options{})
	toks := map[string]string{
		envB2BProduction: b2bToken(t, s, "", cred1002),
		envB2BTest:       b2bToken(t, s, "/test", cred1002),
		envSeller:        sellerToken(t, s, cred1002),
	}
	targets := map[string]func(tok string) result{
		envB2BProduction: func(tok string) result {
			return doReq(t, s, http.MethodGet, "/api/v1/orders?limit=1", "", bearer(tok)...)
		},
		envB2BTest: func(tok string) result {
			return doReq(t, s, http.MethodGet, "/test/api/v1/orders?limit=1", "", bearer(tok)...)
		},
		envSeller: func(tok string) result {
			return doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1002&limit=1", "", bearer(tok)...)
		},
	}
	for tokEnv, tok := range toks {
		for targetEnv, send := range targets {
			t.Run(tokEnv+" token at "+targetEnv, func(t *testing.T) {
				want := http.StatusUnauthorized
				if tokEnv == targetEnv {
					want = http.StatusOK
				}
				if got := send(tok); got.status != want {
					t.Fatalf("status %d, want %d: %s", got.status, want, got.body)
				}
			})
		}
	}
	r := rpc(t, s, toks[envB2BProduction], "v1.nomenclatures.list", map[string]any{"seller_id": 1002})
	expect(t, r, 200, `{"jsonrpc":"2.0","id":"t-1","error":{"code":401,"message":"Unauthorized","data":{"reason":"access token was issued for another environment or interface"}}}`)
	if r := doReq(t, s, http.MethodGet, "/test/api/v1/gift-certificates/GC-1002-0002", "", bearer(toks[envB2BTest])...); r.status != 200 {
		t.Fatalf("gift certificate in the test environment: %d %s", r.status, r.body)
	}
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(toks[envB2BProduction])...); r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
	}
}
