package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/sellerdesk/sellerdesk/apiclient"
)

// bearer returns the token of r's Authorization header.
func bearer(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func TestTokenLifetime(t *testing.T) {
	clock := newFakeClock()
	tests := []struct {
		name      string
		expiresIn string
		issue     func(kind string, n int64) string
		want      time.Duration
	}{
		{name: "stated", expiresIn: "900", want: 900 * time.Second},
		{name: "stated as string", expiresIn: `"600"`, want: 600 * time.Second},
		{name: "missing", expiresIn: "", want: apiclient.ShortTokenLifetime},
		{name: "null", expiresIn: "null", want: apiclient.ShortTokenLifetime},
		{name: "zero", expiresIn: "0", want: apiclient.ShortTokenLifetime},
		{name: "negative", expiresIn: "-900", want: apiclient.ShortTokenLifetime},
		{name: "absurd", expiresIn: "999999999999", want: apiclient.ShortTokenLifetime},
		{name: "just over a day", expiresIn: "86401", want: apiclient.ShortTokenLifetime},
		{name: "a day", expiresIn: "86400", want: 24 * time.Hour},
		{
			name: "jwt exp earlier than expires_in", expiresIn: "900", want: 300 * time.Second,
			issue: func(kind string, n int64) string {
				// the server's clock is a week behind ours: only exp-iat counts
				iat := clock.Now().Add(-7 * 24 * time.Hour)
				return signed(jwt.MapClaims{"sub": "client-1", "iat": iat.Unix(), "exp": iat.Add(300 * time.Second).Unix()})
			},
		},
		{
			name: "jwt exp later than expires_in", expiresIn: "900", want: 900 * time.Second,
			issue: func(kind string, n int64) string {
				iat := clock.Now()
				return signed(jwt.MapClaims{"iat": iat.Unix(), "exp": iat.Add(3600 * time.Second).Unix()})
			},
		},
		{
			name: "jwt exp without iat", expiresIn: "", want: 45 * time.Second,
			issue: func(kind string, n int64) string {
				return signed(jwt.MapClaims{"exp": clock.Now().Add(45 * time.Second).Unix()})
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMarket()
			m.expiresIn = tt.expiresIn
			m.issue = tt.issue
			acct, _ := serve(t, m, withNow(clock.Now))
			for _, kind := range []apiclient.TokenKind{apiclient.KindB2B, apiclient.KindSeller} {
				tok, err := acct.Token(context.Background(), kind)
				if err != nil {
					t.Fatal(err)
				}
				if got := tok.ExpiresAt.Sub(tok.IssuedAt); got != tt.want {
					t.Errorf("%s lifetime = %v, want %v", kind, got, tt.want)
				}
				if got, want := tok.RefreshAt().Sub(tok.IssuedAt), tt.want*8/10; got != want {
					t.Errorf("%s refresh after %v, want %v", kind, got, want)
				}
			}
		})
	}
}

func signed(claims jwt.MapClaims) string {
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("test-key"))
	if err != nil {
		panic(err)
	}
	return s
}

func TestTokenRefreshAheadOfExpiry(t *testing.T) {
	clock := newFakeClock()
	m := newMarket()
	m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, emptyOrders) }
	acct, _ := serve(t, m, withNow(clock.Now))
	ctx := context.Background()
	call := func() {
		t.Helper()
		if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	call()
	clock.Advance(719 * time.Second) // before 80 % of 900 s
	call()
	if n := m.b2bTokenCalls.Load(); n != 1 {
		t.Fatalf("token calls before refresh time = %d, want 1", n)
	}
	clock.Advance(2 * time.Second) // 721 s: past 80 %, token still valid
	call()
	if n := m.b2bTokenCalls.Load(); n != 2 {
		t.Fatalf("token calls after refresh time = %d, want 2", n)
	}
	call()
	if n := m.b2bTokenCalls.Load(); n != 2 {
		t.Fatalf("token calls = %d, want 2 (new token cached)", n)
	}
}

func TestOneTokenCallUnderConcurrency(t *testing.T) {
	clock := newFakeClock()
	m := newMarket()
	m.tokenDelay = 20 * time.Millisecond
	m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, emptyOrders) }
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		rpcResult(w, req.ID, `{"page":1,"pages":1,"nomenclatures":[]}`)
	}
	acct, srv := serve(t, m, withNow(clock.Now))
	ctx := context.Background()
	if err := acct.Login(ctx); err != nil {
		t.Fatal(err)
	}
	clock.Advance(900 * time.Second) // both tokens expired
	// 100 callers on one account plus 100 on accounts created per request
	// with the same credentials and store, as the dashboard does.
	c, err := apiclient.New(apiclient.Options{B2BBaseURL: srv.URL, SellerBaseURL: srv.URL, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	store := apiclient.NewMemoryTokenStore()
	var wg sync.WaitGroup
	var failures atomic.Int64
	start := make(chan struct{})
	for i := range 100 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
				failures.Add(1)
			}
		}()
		go func() {
			defer wg.Done()
			<-start
			a := c.Account(apiclient.Credentials{ClientID: "client-1", ClientSecret: "secret-1"}, store)
			var err error
			if i%2 == 0 {
				_, err = a.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1})
			} else {
				_, err = a.B2B.ListOrders(ctx, nil)
			}
			if err != nil {
				failures.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if f := failures.Load(); f != 0 {
		t.Fatalf("%d calls failed", f)
	}
	// Login: 1 + 1. Then one refresh of acct's B2B token, and one B2B and
	// one seller token for the second client's store.
	if got := m.b2bTokenCalls.Load(); got != 3 {
		t.Errorf("b2b token calls = %d, want 3", got)
	}
	if got := m.sellerTokenCalls.Load(); got != 2 {
		t.Errorf("seller token calls = %d, want 2", got)
	}
}

func TestUnauthorizedRetriesOnce(t *testing.T) {
	t.Run("401 then success", func(t *testing.T) {
		m := newMarket()
		var seen []string
		m.b2b = func(w http.ResponseWriter, r *http.Request) {
			seen = append(seen, bearer(r))
			if bearer(r) == "b2b-tok-1" {
				writeJSON(w, 401, `{"code":0,"description":"Unauthorized","errors":[]}`)
				return
			}
			writeJSON(w, 200, emptyOrders)
		}
		acct, _ := serve(t, m)
		if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(seen, ","); got != "b2b-tok-1,b2b-tok-2" {
			t.Errorf("tokens sent = %s", got)
		}
	})
	t.Run("401 twice", func(t *testing.T) {
		for name, setup := range map[string]func(m *market){
			"b2b": func(m *market) {
				m.b2b = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 401, `{"code":0,"description":"Unauthorized","errors":[]}`)
				}
			},
			"rpc business 401": func(m *market) {
				m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
					rpcError(w, req.ID, 401, "Unauthorized", `{"reason":"token expired"}`)
				}
			},
			"rpc http 401": func(m *market) {
				m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(401)
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"error":{"code":401,"message":"Unauthorized"}}`, req.ID)
				}
			},
			"rest": func(m *market) {
				m.rest = func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, 401, `{"error":{"code":"UNAUTHORIZED","message":"token expired"}}`)
				}
			},
		} {
			t.Run(name, func(t *testing.T) {
				m := newMarket()
				setup(m)
				acct, _ := serve(t, m)
				ctx := context.Background()
				var err error
				switch {
				case m.b2b != nil:
					_, err = acct.B2B.ListOrders(ctx, nil)
				case m.rpc != nil:
					_, err = acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1})
				default:
					_, err = acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: 1})
				}
				if !errors.Is(err, apiclient.ErrUnauthorized) {
					t.Fatalf("err = %v, want ErrUnauthorized", err)
				}
				tokens := m.b2bTokenCalls.Load() + m.sellerTokenCalls.Load()
				if tokens != 2 || m.apiCalls.Load() != 2 {
					t.Errorf("token calls %d, api calls %d; want 2 and 2", tokens, m.apiCalls.Load())
				}
			})
		}
	})
}

func TestLoginRejectedCredentials(t *testing.T) {
	t.Run("b2b 400", func(t *testing.T) {
		m := newMarket()
		m.tokenStatus = 400
		m.tokenBody = `{"code":0,"description":"This value is not valid.","errors":[{"field":"client_secret","message":"invalid credentials"}]}`
		acct, _ := serve(t, m)
		err := acct.Login(context.Background())
		if !errors.Is(err, apiclient.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		var ce *apiclient.CredentialsError
		var be *apiclient.B2BError
		if !errors.As(err, &ce) || ce.Kind != apiclient.KindB2B || !errors.As(err, &be) || be.Status != 400 {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("seller 401", func(t *testing.T) {
		m := newMarket()
		m.sellerTokenError = `{"code":401,"message":"Unauthorized","data":{"reason":"invalid client credentials"}}`
		acct, _ := serve(t, m)
		err := acct.Login(context.Background())
		var ce *apiclient.CredentialsError
		var re *apiclient.RPCError
		if !errors.Is(err, apiclient.ErrUnauthorized) || !errors.As(err, &ce) || ce.Kind != apiclient.KindSeller || !errors.As(err, &re) {
			t.Fatalf("err = %v", err)
		}
		// a rejected pair is not retried by API calls either
		_, err = acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1})
		if !errors.As(err, &ce) || m.sellerTokenCalls.Load() != 2 {
			t.Errorf("err = %v, token calls %d", err, m.sellerTokenCalls.Load())
		}
	})
	t.Run("login fetches fresh tokens", func(t *testing.T) {
		m := newMarket()
		acct, _ := serve(t, m)
		for range 2 {
			if err := acct.Login(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if m.b2bTokenCalls.Load() != 2 || m.sellerTokenCalls.Load() != 2 {
			t.Errorf("token calls b2b %d seller %d, want 2 and 2", m.b2bTokenCalls.Load(), m.sellerTokenCalls.Load())
		}
	})
	t.Run("test environment uses the test base url", func(t *testing.T) {
		m := newMarket()
		var paths []string
		var mu sync.Mutex
		acct, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			paths = append(paths, r.URL.Path)
			mu.Unlock()
			m.ServeHTTP(w, r)
		}), func(c *clientConfig) { c.creds.Environment = apiclient.Test })
		if err := acct.Login(context.Background()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if !strings.Contains(strings.Join(paths, " "), "/test/auth/token") {
			t.Errorf("paths = %v", paths)
		}
	})
}

// lockingStore simulates a store shared between processes: while the lock
// is held, "another process" has already saved a fresh token.
type lockingStore struct {
	apiclient.TokenStore
	locks  atomic.Int64
	onLock func(key apiclient.TokenKey)
}

func (s *lockingStore) LockTokenRefresh(ctx context.Context, key apiclient.TokenKey) (func(), error) {
	s.locks.Add(1)
	if s.onLock != nil {
		s.onLock(key)
	}
	return func() {}, nil
}

func TestTokenRefreshLockerRereadsStore(t *testing.T) {
	clock := newFakeClock()
	m := newMarket()
	var got []string
	m.b2b = func(w http.ResponseWriter, r *http.Request) {
		got = append(got, bearer(r))
		writeJSON(w, 200, emptyOrders)
	}
	store := &lockingStore{TokenStore: apiclient.NewMemoryTokenStore()}
	store.onLock = func(key apiclient.TokenKey) {
		store.SaveToken(context.Background(), key, apiclient.Token{
			AccessToken: "from-other-process", IssuedAt: clock.Now(), ExpiresAt: clock.Now().Add(900 * time.Second)})
	}
	srv := newServer(t, m)
	c, err := apiclient.New(apiclient.Options{B2BBaseURL: srv, SellerBaseURL: srv, Now: clock.Now, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	acct := c.Account(apiclient.Credentials{ClientID: "c", ClientSecret: "s3cr3t-value"}, nil)
	if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if m.b2bTokenCalls.Load() != 0 || store.locks.Load() != 1 || got[0] != "from-other-process" {
		t.Errorf("token calls %d, locks %d, sent %v", m.b2bTokenCalls.Load(), store.locks.Load(), got)
	}
	key := acct.TokenKey(apiclient.KindB2B)
	if strings.Contains(fmt.Sprint(key), "s3cr3t") || key.Fingerprint == "" || key.ClientID != "c" {
		t.Errorf("key = %v", key)
	}
}

func TestCachedTokenSurvivesFailedRefresh(t *testing.T) {
	clock := newFakeClock()
	m := newMarket()
	m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, emptyOrders) }
	acct, _ := serve(t, m, withNow(clock.Now), withBudget(-1))
	ctx := context.Background()
	if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
		t.Fatal(err)
	}
	clock.Advance(800 * time.Second) // past refresh time, still valid
	m.mu.Lock()
	m.tokenStatus, m.tokenBody = 500, `{"code":0,"description":"internal error","errors":[]}`
	m.mu.Unlock()
	if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
		t.Fatalf("err = %v, want the still valid token to be used", err)
	}
	clock.Advance(200 * time.Second) // expired
	if _, err := acct.B2B.ListOrders(ctx, nil); err == nil {
		t.Fatal("want an error once the token has expired")
	}
}

func TestServerReturningTheSameToken(t *testing.T) {
	clock := newFakeClock()
	m := newMarket()
	m.issue = func(kind string, n int64) string { return "same-" + kind }
	var reject atomic.Bool
	m.b2b = func(w http.ResponseWriter, r *http.Request) {
		if reject.Load() {
			writeJSON(w, 401, `{"code":0,"description":"Unauthorized","errors":[]}`)
			return
		}
		writeJSON(w, 200, emptyOrders)
	}
	acct, _ := serve(t, m, withNow(clock.Now))
	ctx := context.Background()
	if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
		t.Fatal(err)
	}
	clock.Advance(800 * time.Second)
	// refresh ahead of expiry: the server hands out the same value again
	if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
		t.Fatalf("refresh returning the same token: %v", err)
	}
	if n := m.b2bTokenCalls.Load(); n != 2 {
		t.Errorf("token calls = %d, want 2", n)
	}
	// 401, and the refresh keeps returning the rejected token: bounded
	reject.Store(true)
	_, err := acct.B2B.ListOrders(ctx, nil)
	if !errors.Is(err, apiclient.ErrUnauthorized) {
		t.Fatalf("err = %v", err)
	}
	if n := m.b2bTokenCalls.Load(); n > 4 {
		t.Errorf("token calls = %d: the client loops", n)
	}
}
