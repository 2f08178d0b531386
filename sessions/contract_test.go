package sessions

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	gsessions "github.com/gorilla/sessions"
)

// Canary values: tests assert they never appear at rest or in logs.
const (
	canarySecret = "CANARY-SECRET-7f3a9c1e"
	canaryToken  = "CANARY-TOKEN-5b2d8e4f"
)

// testClock is an injectable clock, safe for concurrent use.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// syncBuffer collects log output from concurrent requests.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

// env is one contract subtest's world: a backend, a clock, a store.
type env struct {
	t       testing.TB
	backend Backend
	clock   *testClock
	store   *Store
	logs    *syncBuffer
}

func newEnv(t testing.TB, b Backend, mod func(*Options)) *env {
	t.Helper()
	e := &env{t: t, backend: b, clock: newTestClock(), logs: &syncBuffer{}}
	opts := Options{
		Keys:   [][]byte{testKey(1)},
		Now:    e.clock.Now,
		Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if mod != nil {
		mod(&opts)
	}
	e.store = e.storeWith(opts)
	return e
}

func (e *env) storeWith(opts Options) *Store {
	e.t.Helper()
	if opts.Now == nil {
		opts.Now = e.clock.Now
	}
	st, err := NewStore(e.backend, opts)
	if err != nil {
		e.t.Fatalf("NewStore: %v", err)
	}
	return st
}

// request builds a request carrying the given cookies.
func request(cookies ...*http.Cookie) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://dash.example/", nil)
	for _, c := range cookies {
		if c != nil {
			r.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
	return r
}

func load(t testing.TB, st *Store, cookies ...*http.Cookie) *Session {
	t.Helper()
	s, err := st.Load(request(cookies...))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

// save saves s and returns the session cookie it set, or nil.
func save(t testing.TB, s *Session) *http.Cookie {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := s.Save(request(), rec); err != nil {
		t.Fatalf("Save: %v", err)
	}
	return sessionCookie(rec.Result())
}

func sessionCookie(resp *http.Response) *http.Cookie {
	var found *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == DefaultCookieName {
			if found != nil {
				panic("two session cookies in one response")
			}
			found = c
		}
	}
	return found
}

// login stores a logged-in session and returns it with its cookie.
func (e *env) login() (*Session, *http.Cookie) {
	e.t.Helper()
	s := load(e.t, e.store)
	s.Renew()
	d := s.Data()
	d.ClientID, d.ClientSecret, d.Environment, d.SellerID = "client-1", canarySecret, "test", 42
	c := save(e.t, s)
	if c == nil {
		e.t.Fatal("login: Save set no cookie")
	}
	return s, c
}

func realisticJWT(seed string) string {
	// Header, a claims body and a signature of about the size the
	// marketplace issues: ~400 characters.
	b64 := base64.RawURLEncoding.EncodeToString
	header := b64([]byte(`{"alg":"RS256","typ":"JWT","kid":"d3f1c2b4a5968778"}`))
	claims := b64([]byte(fmt.Sprintf(`{"iss":"https://auth.marketplace.example","sub":"client-%s","aud":"seller-api","scope":"orders nomenclature prices return-boxes","seller_id":42,"iat":1793000000,"exp":1793000900,"jti":"%s-0f8e7d6c5b4a"}`, seed, seed)))
	sig := b64(bytes.Repeat([]byte(seed[:1]), 96))
	return header + "." + claims + "." + sig
}

// sandboxJWT is a token shaped as the sandbox issues it: HS256, the
// seller, environment and registered claims, a random 32-byte signature.
func sandboxJWT(t *testing.T, a Account, name string, now time.Time) string {
	b64 := base64.RawURLEncoding.EncodeToString
	claims := fmt.Sprintf(`{"seller_id":%d,"env":%q,"iss":"sellerdesk-sandbox","sub":%q,"exp":%d,"iat":%d,"jti":%q}`,
		a.SellerID, strings.SplitN(name, "/", 2)[0], a.ClientID, now.Add(15*time.Minute).Unix(), now.Unix(), randomHex(t, 16))
	sig := make([]byte, 32)
	if _, err := rand.Read(sig); err != nil {
		t.Fatal(err)
	}
	return b64([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + b64([]byte(claims)) + "." + b64(sig)
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// runStoreContract is the behaviour every Backend must show, exercised
// through the Store as the dashboard uses it. newBackend returns a fresh,
// empty backend; it is closed by the suite.
func runStoreContract(t *testing.T, newBackend func(t *testing.T) Backend) {
	fresh := func(t *testing.T, mod func(*Options)) *env {
		b := newBackend(t)
		t.Cleanup(func() { b.Close() })
		return newEnv(t, b, mod)
	}

	t.Run("RoundTrip", func(t *testing.T) {
		e := fresh(t, nil)
		s := load(t, e.store)
		if !s.IsNew() || s.LoggedIn() {
			t.Fatalf("no cookie: IsNew=%v LoggedIn=%v, want true, false", s.IsNew(), s.LoggedIn())
		}
		if c := save(t, s); c != nil {
			t.Fatalf("an empty new session set a cookie; want no record for anonymous visitors")
		}
		s, c := e.login()
		s2 := load(t, e.store, c)
		if s2.IsNew() || !s2.LoggedIn() || s2.ID() != s.ID() {
			t.Fatalf("reload: IsNew=%v LoggedIn=%v sameID=%v", s2.IsNew(), s2.LoggedIn(), s2.ID() == s.ID())
		}
		if d := s2.Data(); d.ClientID != "client-1" || d.ClientSecret != canarySecret || d.SellerID != 42 || d.Environment != "test" {
			t.Fatalf("reloaded data = %v", d)
		}
		// An unchanged session sets no cookie again.
		if c := save(t, s2); c != nil {
			t.Fatalf("saving an unchanged session set a cookie")
		}
	})

	t.Run("FlashesReturnToDrafts", func(t *testing.T) {
		e := fresh(t, nil)
		_, c := e.login()
		s := load(t, e.store, c)
		s.AddFlash("success", "Prices saved")
		s.AddFlash("error", "2 rejected")
		if !s.SetReturnTo("/orders?page=2") {
			t.Fatal("SetReturnTo refused a local path")
		}
		if s.SetReturnTo("//evil.example") {
			t.Fatal("SetReturnTo accepted //evil.example")
		}
		s.SetDraft("prices", url.Values{"price[SKU-1]": {"12.50"}})
		save(t, s)

		s = load(t, e.store, c)
		if got := s.PopFlashes(); len(got) != 2 || got[0] != (Flash{"success", "Prices saved"}) || got[1].Kind != "error" {
			t.Fatalf("PopFlashes = %v", got)
		}
		if got := s.PopReturnTo("/"); got != "/orders?page=2" {
			t.Fatalf("PopReturnTo = %q", got)
		}
		if got := s.PopDraft("prices").Get("price[SKU-1]"); got != "12.50" {
			t.Fatalf("PopDraft = %q", got)
		}
		save(t, s)
		s = load(t, e.store, c)
		if len(s.PopFlashes()) != 0 || s.PopReturnTo("/") != "/" || s.Draft("prices") != nil {
			t.Fatal("popped values came back")
		}
		if s.SetDraft("huge", url.Values{"x": {strings.Repeat("a", MaxDraftBytes)}}) {
			t.Fatal("SetDraft kept a draft over MaxDraftBytes")
		}
	})

	t.Run("BadCookies", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		other := e.storeWith(Options{Keys: [][]byte{testKey(9)}})
		foreign := func() *http.Cookie { // the same id, signed with another key
			rec := httptest.NewRecorder()
			if err := other.setCookie(rec, request(), DefaultCookieName, s.ID()); err != nil {
				t.Fatal(err)
			}
			return sessionCookie(rec.Result())
		}()
		flip := func(i int) string {
			b := []byte(c.Value)
			b[i] ^= 0x01
			return string(b)
		}
		cases := map[string]string{
			"flipped first byte":  flip(0),
			"flipped middle byte": flip(len(c.Value) / 2),
			"flipped last byte":   flip(len(c.Value) - 1),
			"truncated":           c.Value[:len(c.Value)-5],
			"half":                c.Value[:len(c.Value)/2],
			"base64 garbage":      base64.URLEncoding.EncodeToString([]byte("garbage|garbage|garbage")),
			"not base64":          "%%%***!!!",
			"empty":               "",
			"huge":                strings.Repeat("A", 4000),
			"another key":         foreign.Value,
		}
		for name, v := range cases {
			t.Run(name, func(t *testing.T) {
				got, err := e.store.Load(request(&http.Cookie{Name: DefaultCookieName, Value: v}))
				if err != nil {
					t.Fatalf("Load: %v; want a new session, no error", err)
				}
				if !got.IsNew() || got.LoggedIn() || got.ID() == s.ID() {
					t.Fatalf("IsNew=%v LoggedIn=%v sameID=%v; want a new, empty session", got.IsNew(), got.LoggedIn(), got.ID() == s.ID())
				}
			})
		}
		logs := e.logs.String()
		if !strings.Contains(logs, "cookie rejected") {
			t.Errorf("no debug line for rejected cookies; logs:\n%s", logs)
		}
		for _, v := range []string{c.Value, foreign.Value, s.ID(), canarySecret} {
			if strings.Contains(logs, v) {
				t.Errorf("logs contain a cookie value, session id or secret:\n%s", logs)
			}
		}
		// The genuine cookie still works.
		if !load(t, e.store, c).LoggedIn() {
			t.Fatal("the genuine cookie stopped working")
		}
	})

	t.Run("KeyRotation", func(t *testing.T) {
		e := fresh(t, nil) // signs with key 1
		_, c1 := e.login()
		s0, c0 := e.login() // a second session, idle during the rotation
		rotated := e.storeWith(Options{Keys: [][]byte{testKey(2), testKey(1)}})
		s := load(t, rotated, c1)
		if !s.LoggedIn() {
			t.Fatal("after adding a new first key, a session signed by the old key is not loaded")
		}
		s.AddFlash("info", "hello")
		c2 := save(t, s) // re-seals the payload and re-signs the cookie with key 2
		if c2 == nil {
			t.Fatal("Save did not re-sign a cookie signed by the old key")
		}
		if tokErr := rotated.SaveToken(context.Background(), s.ID(), "seller", StoredToken{AccessToken: "a"}); tokErr != nil {
			t.Fatal(tokErr)
		}
		onlyNew := e.storeWith(Options{Keys: [][]byte{testKey(2)}})
		if got := load(t, onlyNew, c2); !got.LoggedIn() || got.Data().Flashes[0].Text != "hello" {
			t.Fatal("a session re-sealed under the new key does not load once the old key is removed")
		}
		if got := load(t, onlyNew, c1); !got.IsNew() {
			t.Fatal("the pre-rotation cookie, signed by the removed key, was accepted")
		}
		if got := load(t, onlyNew, c0); !got.IsNew() || got.ID() == s0.ID() {
			t.Fatal("a cookie signed by a removed key was accepted")
		}
		toks, err := onlyNew.LoadTokens(context.Background(), s.ID())
		if err != nil || toks["seller"].AccessToken != "a" {
			t.Fatalf("LoadTokens after rotation = %v, %v", toks, err)
		}
	})

	t.Run("RemovedKeyRejected", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		onlyNew := e.storeWith(Options{Keys: [][]byte{testKey(2)}})
		got := load(t, onlyNew, c)
		if !got.IsNew() || got.ID() == s.ID() {
			t.Fatal("a cookie signed by a removed key was accepted")
		}
		// Even a correctly signed cookie cannot open a payload sealed
		// under a removed key.
		forged := e.storeWith(Options{Keys: [][]byte{testKey(2), testKey(3)}})
		fc := func() *http.Cookie {
			rec := httptest.NewRecorder()
			if err := forged.setCookie(rec, request(), DefaultCookieName, s.ID()); err != nil {
				t.Fatal(err)
			}
			return sessionCookie(rec.Result())
		}()
		if got := load(t, onlyNew, fc); got.LoggedIn() {
			t.Fatal("a payload sealed under a removed key was opened")
		}
	})

	t.Run("FixationRenew", func(t *testing.T) {
		e := fresh(t, nil)
		// An attacker plants a pre-login session (say, with a flash).
		pre := load(t, e.store)
		pre.AddFlash("info", "please log in")
		planted := save(t, pre)
		oldID := pre.ID()

		s := load(t, e.store, planted)
		if s.ID() != oldID {
			t.Fatal("planted session did not load")
		}
		s.Renew()
		if s.ID() == oldID {
			t.Fatal("Renew kept the id")
		}
		s.Data().ClientID, s.Data().ClientSecret = "client-1", canarySecret
		s.SetToken("seller", StoredToken{AccessToken: canaryToken})
		c := save(t, s)
		if c == nil || c.Value == planted.Value {
			t.Fatal("Renew + Save set no new cookie")
		}
		if _, err := e.backend.Load(context.Background(), oldID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("old id after Renew: %v, want ErrNotFound", err)
		}
		if got := load(t, e.store, planted); !got.IsNew() || got.LoggedIn() {
			t.Fatal("the pre-login cookie maps to a session after login")
		}
		got := load(t, e.store, c)
		if !got.LoggedIn() || got.ID() != s.ID() {
			t.Fatal("the new cookie does not load the logged-in session")
		}
		toks, err := e.store.LoadTokens(context.Background(), got.ID())
		if err != nil || toks["seller"].AccessToken != canaryToken {
			t.Fatalf("token staged with SetToken: %v, %v", toks, err)
		}
	})

	t.Run("DestroyThenReplay", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: canaryToken}); err != nil {
			t.Fatal(err)
		}
		s = load(t, e.store, c)
		s.Destroy()
		expired := save(t, s)
		if expired == nil || expired.MaxAge >= 0 || expired.Value != "" {
			t.Fatalf("Destroy: cookie = %+v, want an expired, empty cookie", expired)
		}
		if _, err := e.backend.Load(ctx, s.ID()); !errors.Is(err, ErrNotFound) {
			t.Fatalf("record after Destroy: %v, want ErrNotFound", err)
		}
		if _, err := e.store.LoadTokens(ctx, s.ID()); !errors.Is(err, ErrNotFound) {
			t.Fatalf("tokens after Destroy: %v, want ErrNotFound", err)
		}
		if got := load(t, e.store, c); !got.IsNew() || got.LoggedIn() {
			t.Fatal("replaying the cookie after logout loaded a session")
		}
	})

	t.Run("IdleTimeout", func(t *testing.T) {
		e := fresh(t, nil)
		_, c := e.login()
		for range 3 { // sliding: each visit within the idle timeout extends it
			e.clock.Advance(DefaultIdleTimeout - time.Minute)
			if !load(t, e.store, c).LoggedIn() {
				t.Fatal("session expired although used within the idle timeout")
			}
		}
		e.clock.Advance(DefaultIdleTimeout)
		if got := load(t, e.store, c); got.LoggedIn() || !got.IsNew() {
			t.Fatal("session survived the idle timeout")
		}
	})

	t.Run("IdleTimeoutSlidesOnlyOncePerMinute", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		rec0, _ := e.backend.Load(ctx, s.ID())
		e.clock.Advance(30 * time.Second)
		load(t, e.store, c)
		rec1, _ := e.backend.Load(ctx, s.ID())
		if !rec1.LastSeen.Equal(rec0.LastSeen) {
			t.Fatal("a read within a minute wrote last_seen")
		}
		e.clock.Advance(31 * time.Second)
		load(t, e.store, c)
		rec2, _ := e.backend.Load(ctx, s.ID())
		if !rec2.LastSeen.After(rec0.LastSeen) || !rec2.ExpiresAt.After(rec0.ExpiresAt) {
			t.Fatal("a read after a minute did not slide last_seen and expires_at")
		}
	})

	t.Run("AbsoluteTimeout", func(t *testing.T) {
		e := fresh(t, nil)
		_, c := e.login()
		for elapsed := time.Duration(0); elapsed < DefaultAbsoluteTimeout-8*time.Hour; elapsed += 7 * time.Hour {
			e.clock.Advance(7 * time.Hour)
			if !load(t, e.store, c).LoggedIn() {
				t.Fatalf("session expired after %v although used every 7h", elapsed)
			}
		}
		e.clock.Advance(8 * time.Hour)
		if got := load(t, e.store, c); got.LoggedIn() {
			t.Fatal("session survived its absolute lifetime")
		}
	})

	t.Run("NoResurrection", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		slow := load(t, e.store, c) // a slow request, still running...
		logout := load(t, e.store, c)
		logout.Destroy()
		save(t, logout) // ...while another logs out

		if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "late"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("SaveToken after logout: %v, want ErrNotFound", err)
		}
		slow.Data().DisplayName = "late write"
		rec := httptest.NewRecorder()
		if err := slow.Save(request(), rec); err != nil {
			t.Fatalf("Save after logout elsewhere: %v, want nil (the user is simply logged out)", err)
		}
		if ck := sessionCookie(rec.Result()); ck == nil || ck.MaxAge >= 0 {
			t.Fatal("Save after logout elsewhere did not expire the cookie")
		}
		if _, err := e.backend.Load(ctx, s.ID()); !errors.Is(err, ErrNotFound) {
			t.Fatalf("session resurrected: %v", err)
		}
		if _, err := e.store.LoadTokens(ctx, s.ID()); !errors.Is(err, ErrNotFound) {
			t.Fatalf("tokens after logout: %v", err)
		}
		if load(t, e.store, c).LoggedIn() {
			t.Fatal("the cookie works again after logout")
		}
	})

	t.Run("BackendNotFound", func(t *testing.T) {
		e := fresh(t, nil)
		ctx := context.Background()
		now := e.clock.Now()
		id := newID()
		if _, err := e.backend.Load(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Load: %v", err)
		}
		if err := e.backend.UpdatePayload(ctx, id, []byte("x"), now, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdatePayload: %v", err)
		}
		if err := e.backend.Touch(ctx, id, now, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("Touch: %v", err)
		}
		if err := e.backend.SaveToken(ctx, id, "seller", []byte("x"), now); !errors.Is(err, ErrNotFound) {
			t.Errorf("SaveToken: %v", err)
		}
		if _, err := e.backend.LoadTokens(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("LoadTokens: %v", err)
		}
		if err := e.backend.Delete(ctx, id); err != nil {
			t.Errorf("Delete of a missing session: %v, want nil", err)
		}
		rec := Record{ID: id, Payload: []byte("p"), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}
		if err := e.backend.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := e.backend.Create(ctx, rec); err == nil {
			t.Error("Create of an existing id succeeded; it must never overwrite")
		}
		got, err := e.backend.Load(ctx, id)
		if err != nil || !got.CreatedAt.Equal(now) || !got.ExpiresAt.Equal(rec.ExpiresAt) || string(got.Payload) != "p" {
			t.Errorf("Load = %+v, %v", got, err)
		}
	})

	t.Run("TokensIndependentOfPayload", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "old"}); err != nil {
			t.Fatal(err)
		}
		a := load(t, e.store, c) // request A: will save a flash later
		b := load(t, e.store, c) // request B: refreshes the token
		if err := e.store.SaveToken(ctx, b.ID(), "seller", StoredToken{AccessToken: "new"}); err != nil {
			t.Fatal(err)
		}
		a.AddFlash("info", "saved")
		save(t, a)
		tok, ok, err := e.store.LoadToken(ctx, s.ID(), "seller")
		if err != nil || !ok || tok.AccessToken != "new" {
			t.Fatalf("token after a later payload save = %q, %v, %v; want the refreshed token", tok.AccessToken, ok, err)
		}
		// A request that did not change the payload does not overwrite
		// one that did.
		x := load(t, e.store, c)
		y := load(t, e.store, c)
		y.Data().DisplayName = "Shop"
		save(t, y)
		save(t, x)
		if got := load(t, e.store, c).Data().DisplayName; got != "Shop" {
			t.Fatalf("an unchanged session's Save overwrote another's change: DisplayName = %q", got)
		}
	})

	t.Run("TokensReadWithSession", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		if got, err := e.backend.Load(ctx, s.ID()); err != nil || got.Tokens == nil || len(got.Tokens) != 0 {
			t.Fatalf("Load of a session without tokens = %v, %v; want an empty, non-nil map", got.Tokens, err)
		}
		if _, ok := load(t, e.store, c).ReadToken(ctx, "seller"); ok {
			t.Error("ReadToken found a token the session does not have")
		}
		for name, v := range map[string]string{"seller": "s1", "b2b/test": "b1"} {
			if err := e.store.SaveToken(ctx, s.ID(), name, StoredToken{AccessToken: v}); err != nil {
				t.Fatal(err)
			}
		}
		rec, err := e.backend.Load(ctx, s.ID())
		if err != nil || len(rec.Tokens) != 2 || len(rec.Payload) == 0 {
			t.Fatalf("Load = %d tokens, %d payload bytes, %v; want 2 tokens with the payload", len(rec.Tokens), len(rec.Payload), err)
		}
		a := load(t, e.store, c)
		if tok, ok := a.ReadToken(ctx, "seller"); !ok || tok.AccessToken != "s1" {
			t.Fatalf("ReadToken(seller) = %q, %v; want s1", tok.AccessToken, ok)
		}
		// A refresh elsewhere is not seen in what was read; forgetting the
		// token sends the caller to the store, which has it.
		if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "s2"}); err != nil {
			t.Fatal(err)
		}
		if tok, _ := a.ReadToken(ctx, "seller"); tok.AccessToken != "s1" {
			t.Errorf("ReadToken after a later save = %q, want what was read (s1)", tok.AccessToken)
		}
		a.ForgetReadToken("seller")
		if _, ok := a.ReadToken(ctx, "seller"); ok {
			t.Error("ReadToken found a forgotten token")
		}
		if tok, ok := a.ReadToken(ctx, "b2b/test"); !ok || tok.AccessToken != "b1" {
			t.Errorf("ReadToken(b2b/test) after forgetting seller = %q, %v; want b1", tok.AccessToken, ok)
		}
		if tok, ok, _ := e.store.LoadToken(ctx, s.ID(), "seller"); !ok || tok.AccessToken != "s2" {
			t.Errorf("store token = %q, want s2", tok.AccessToken)
		}
		// A renewed or destroyed session has no tokens of the old id.
		r := load(t, e.store, c)
		r.Renew()
		if _, ok := r.ReadToken(ctx, "b2b/test"); ok {
			t.Error("ReadToken after Renew found the old session's token")
		}
		d := load(t, e.store, c)
		d.Destroy()
		if _, ok := d.ReadToken(ctx, "b2b/test"); ok {
			t.Error("ReadToken after Destroy found a token")
		}
	})

	t.Run("ConcurrentSaves", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		const workers = 8
		const rounds = 10
		var wg sync.WaitGroup
		errs := make(chan error, 2*workers*rounds)
		for w := range workers {
			wg.Add(2)
			go func() { // token refreshes
				defer wg.Done()
				for i := range rounds {
					name := fmt.Sprintf("tok-%d", w)
					if err := e.store.SaveToken(ctx, s.ID(), name, StoredToken{AccessToken: fmt.Sprintf("%d-%d", w, i)}); err != nil {
						errs <- err
					}
				}
			}()
			go func() { // page requests saving flashes
				defer wg.Done()
				for i := range rounds {
					sess, err := e.store.Load(request(c))
					if err != nil {
						errs <- err
						continue
					}
					sess.AddFlash("info", fmt.Sprintf("%d-%d", w, i))
					if err := sess.Save(request(), httptest.NewRecorder()); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("concurrent operation: %v", err)
		}
		toks, err := e.store.LoadTokens(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		for w := range workers {
			if got, want := toks[fmt.Sprintf("tok-%d", w)].AccessToken, fmt.Sprintf("%d-%d", w, rounds-1); got != want {
				t.Errorf("token %d = %q, want %q: a payload save clobbered a token", w, got, want)
			}
		}
		if !load(t, e.store, c).LoggedIn() {
			t.Fatal("session lost under concurrent saves")
		}
	})

	t.Run("Purge", func(t *testing.T) {
		e := fresh(t, func(o *Options) { o.PurgeBatchSize = 7 })
		ctx := context.Background()
		var doomed []string
		for range 20 {
			s, _ := e.login()
			if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: "t"}); err != nil {
				t.Fatal(err)
			}
			doomed = append(doomed, s.ID())
		}
		e.clock.Advance(DefaultIdleTimeout - time.Hour)
		var alive []*http.Cookie
		for range 5 {
			_, c := e.login()
			alive = append(alive, c)
		}
		e.clock.Advance(2 * time.Hour) // the first 20 are now idle too long

		n, err := e.backend.Purge(ctx, e.clock.Now(), 7)
		if err != nil || n != 7 {
			t.Fatalf("Purge(limit 7) = %d, %v; want 7: batches are bounded", n, err)
		}
		total, err := e.store.PurgeExpired(ctx)
		if err != nil || total != 13 {
			t.Fatalf("PurgeExpired = %d, %v; want the remaining 13", total, err)
		}
		for _, id := range doomed {
			if _, err := e.backend.Load(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Fatalf("expired session not purged: %v", err)
			}
			if _, err := e.backend.LoadTokens(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Fatalf("tokens of a purged session: %v", err)
			}
		}
		for _, c := range alive {
			if !load(t, e.store, c).LoggedIn() {
				t.Fatal("purge deleted a live session")
			}
		}
	})

	t.Run("PurgerStopsWithContext", func(t *testing.T) {
		e := fresh(t, nil)
		s, _ := e.login()
		e.clock.Advance(DefaultAbsoluteTimeout)
		ctx, cancel := context.WithCancel(context.Background())
		done := e.store.StartPurger(ctx, time.Hour) // purges at once, then hourly
		deadline := time.Now().Add(5 * time.Second)
		for {
			if _, err := e.backend.Load(context.Background(), s.ID()); errors.Is(err, ErrNotFound) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the purger did not delete the expired session")
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the purger did not stop with its context")
		}
	})

	t.Run("SealedAtRest", func(t *testing.T) {
		e := fresh(t, nil)
		s, c := e.login()
		ctx := context.Background()
		if err := e.store.SaveToken(ctx, s.ID(), "seller", StoredToken{AccessToken: canaryToken, RefreshToken: canaryToken + "-r"}); err != nil {
			t.Fatal(err)
		}
		rec, err := e.backend.Load(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		toks, err := e.backend.LoadTokens(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		raw := [][]byte{rec.Payload, toks["seller"]}
		for _, b := range raw {
			for _, canary := range []string{canarySecret, canaryToken, "client-1"} {
				if bytes.Contains(b, []byte(canary)) {
					t.Fatalf("stored bytes contain %q in clear", canary)
				}
			}
		}
		// A payload moved into another session's row does not open there.
		other, oc := e.login()
		now := e.clock.Now()
		if err := e.backend.UpdatePayload(ctx, other.ID(), rec.Payload, now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := load(t, e.store, oc); got.LoggedIn() && got.Data().ClientSecret == canarySecret {
			t.Fatal("a payload swapped between sessions was accepted")
		}
		// A token moved to another name or session does not open.
		if err := e.backend.SaveToken(ctx, s.ID(), "b2b", toks["seller"], now); err != nil {
			t.Fatal(err)
		}
		got, _ := e.store.LoadTokens(ctx, s.ID())
		if _, ok := got["b2b"]; ok {
			t.Fatal("a token moved to another name was accepted")
		}
		if !load(t, e.store, c).LoggedIn() {
			t.Fatal("the original session broke")
		}
	})

	t.Run("CookieAttributes", func(t *testing.T) {
		e := fresh(t, nil)
		proxied := e.storeWith(Options{Keys: [][]byte{testKey(1)}, TrustProxyHeaders: true})
		cases := []struct {
			name       string
			store      *Store
			tls        bool
			forwarded  string
			wantSecure bool
		}{
			{"plain http", e.store, false, "", false},
			{"tls", e.store, true, "", true},
			{"forwarded https, proxy not trusted", e.store, false, "https", false},
			{"forwarded https, proxy trusted", proxied, false, "https", true},
			{"forwarded http, proxy trusted", proxied, false, "http", false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				s := load(t, tc.store)
				s.Data().ClientID = "c"
				r := request()
				if tc.tls {
					r.TLS = &tls.ConnectionState{}
				}
				if tc.forwarded != "" {
					r.Header.Set("X-Forwarded-Proto", tc.forwarded)
				}
				w := httptest.NewRecorder()
				if err := s.Save(r, w); err != nil {
					t.Fatal(err)
				}
				header := w.Result().Header.Values("Set-Cookie")
				if len(header) != 1 {
					t.Fatalf("Set-Cookie headers: %d, want 1", len(header))
				}
				c := sessionCookie(w.Result())
				if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Domain != "" || c.Secure != tc.wantSecure {
					t.Fatalf("cookie %q: HttpOnly=%v SameSite=%v Path=%q Domain=%q Secure=%v", header[0], c.HttpOnly, c.SameSite, c.Path, c.Domain, c.Secure)
				}
				if strings.Contains(strings.ToLower(header[0]), "domain=") {
					t.Fatalf("cookie has a Domain attribute: %q", header[0])
				}
				if c.MaxAge <= 0 || len(c.Value) > 200 {
					t.Fatalf("cookie MaxAge=%d, len(value)=%d", c.MaxAge, len(c.Value))
				}
				if strings.Contains(header[0], "c\"") || strings.Contains(header[0], s.ID()) {
					t.Fatal("cookie carries more than a signed id")
				}
			})
		}
	})

	t.Run("StoredSize", func(t *testing.T) {
		e := fresh(t, nil)
		s, _ := e.login()
		ctx := context.Background()
		now := e.clock.Now()
		for _, name := range []string{"b2b", "seller"} {
			tok := StoredToken{AccessToken: realisticJWT(name), IssuedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
			if name == "seller" {
				tok.RefreshToken = strings.Repeat("r", 64)
			}
			if len(tok.AccessToken) < 380 {
				t.Fatalf("test JWT is only %d characters", len(tok.AccessToken))
			}
			if err := e.store.SaveToken(ctx, s.ID(), name, tok); err != nil {
				t.Fatal(err)
			}
		}
		n, err := e.backend.StoredSize(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("stored size of a logged-in session with two tokens: %d bytes", n)
		if n >= 2048 {
			t.Fatalf("stored size %d bytes, want < 2048", n)
		}
		if n < 800 {
			t.Fatalf("stored size %d bytes is implausibly small: the measurement misses the tokens", n)
		}
	})

	t.Run("StoredSizeTwentyAccounts", func(t *testing.T) {
		// A session holding MaxAccounts accounts, each with both its
		// tokens as the sandbox issues them (HS256 JWTs with a seller,
		// environment, subject and id, and a 64-hex refresh token), is
		// read on every page: its stored size stays within 16 KB.
		e := fresh(t, nil)
		s, cookie := e.login()
		d := s.Data()
		d.SetOnlyAccount(d.Current())
		for i := 2; i <= MaxAccounts; i++ {
			a := Account{ClientID: fmt.Sprintf("client-%02d-%s", i, randomHex(t, 4)), ClientSecret: canarySecret + "-" + randomHex(t, 16), Environment: "test",
				DisplayName: fmt.Sprintf("Магазин спортивных товаров №%d", i), SellerID: int64(100000 + i)}
			if err := d.AddAccount(a); err != nil {
				t.Fatal(err)
			}
		}
		save(t, s)
		ctx := context.Background()
		now := e.clock.Now()
		accounts := d.AccountList()
		if len(accounts) != MaxAccounts {
			t.Fatalf("%d accounts, want %d", len(accounts), MaxAccounts)
		}
		tokens := map[string]StoredToken{}
		for i, a := range accounts {
			for _, name := range []string{"b2b/test", "seller"} {
				tok := StoredToken{AccessToken: sandboxJWT(t, a, name, now), IssuedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
				if name == "b2b/test" {
					tok.RefreshToken = randomHex(t, 32)
				}
				tokens[a.ID()+"/"+name] = tok
				if err := e.store.SaveToken(ctx, s.ID(), a.ID()+"/"+name, tok); err != nil {
					t.Fatal(err)
				}
				if i == 0 && len(tok.AccessToken) < 250 {
					t.Fatalf("test JWT is only %d characters", len(tok.AccessToken))
				}
			}
		}
		n, err := e.backend.StoredSize(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("stored size of a session with %d accounts and their tokens: %d bytes", MaxAccounts, n)
		if n > 16<<10 {
			t.Fatalf("stored size %d bytes, want <= %d", n, 16<<10)
		}
		if n < 2*MaxAccounts*250 {
			t.Fatalf("stored size %d bytes is implausibly small: the measurement misses the tokens", n)
		}
		got := load(t, e.store, cookie)
		if len(got.Data().AccountList()) != MaxAccounts {
			t.Fatalf("loaded %d accounts, want %d", len(got.Data().AccountList()), MaxAccounts)
		}
		for name, want := range tokens {
			tok, ok := got.ReadToken(ctx, name)
			if !ok || tok.AccessToken != want.AccessToken || tok.RefreshToken != want.RefreshToken ||
				!tok.IssuedAt.Equal(want.IssuedAt) || !tok.ExpiresAt.Equal(want.ExpiresAt) {
				t.Fatalf("token %s not read back as saved", name)
			}
		}
	})

	t.Run("TokenScope", func(t *testing.T) {
		// A load scoped to one account's tokens reads those with the
		// session; the others stay in the store, where LoadToken finds them.
		e := fresh(t, nil)
		s, cookie := e.login()
		ctx := context.Background()
		now := e.clock.Now()
		names := []string{"aaaa/b2b/test", "aaaa/seller", "bbbb/b2b/test", "bbbb/seller", "aaaab/seller"}
		for _, name := range names {
			if err := e.store.SaveToken(ctx, s.ID(), name, StoredToken{AccessToken: "tok-" + name, IssuedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		r := request(cookie)
		got, err := e.store.Load(r.WithContext(WithTokenScope(r.Context(), "aaaa/")))
		if err != nil || got.IsNew() {
			t.Fatalf("scoped load: %v", err)
		}
		for _, name := range names {
			_, read := got.ReadToken(ctx, name)
			if want := strings.HasPrefix(name, "aaaa/"); read != want {
				t.Fatalf("%s read with the session: %v, want %v", name, read, want)
			}
			tok, ok, err := e.store.LoadToken(ctx, s.ID(), name)
			if err != nil || !ok || tok.AccessToken != "tok-"+name {
				t.Fatalf("%s from the store: %+v %v %v", name, tok, ok, err)
			}
		}
		all := load(t, e.store, cookie)
		for _, name := range names {
			if _, read := all.ReadToken(ctx, name); !read {
				t.Fatalf("%s not read by an unscoped load", name)
			}
		}
		if got.Data().ClientID != "client-1" {
			t.Fatal("the scoped load lost the payload")
		}
	})

	t.Run("Locks", func(t *testing.T) {
		e := fresh(t, nil)
		s, _ := e.login()
		ctx := context.Background()
		unlock, err := e.store.LockTokenRefresh(ctx, s.ID(), "seller")
		if err != nil {
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := e.store.LockTokenRefresh(short, s.ID(), "seller"); err == nil {
			t.Fatal("a held lock was taken twice")
		}
		other, err := e.store.LockTokenRefresh(ctx, s.ID(), "b2b")
		if err != nil {
			t.Fatalf("another token's lock: %v", err)
		}
		other()
		got := make(chan struct{})
		go func() {
			u, err := e.store.LockTokenRefresh(ctx, s.ID(), "seller")
			if err == nil {
				u()
			}
			close(got)
		}()
		select {
		case <-got:
			t.Fatal("the lock was taken while held")
		case <-time.After(50 * time.Millisecond):
		}
		unlock()
		unlock() // idempotent
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			t.Fatal("waiter not woken by unlock")
		}
	})

	t.Run("GorillaInterface", func(t *testing.T) {
		e := fresh(t, nil)
		var gstore gsessions.Store = e.store
		r := request()
		gs, err := gstore.Get(r, DefaultCookieName)
		if err != nil || !gs.IsNew {
			t.Fatalf("Get: %v, IsNew=%v", err, gs.IsNew)
		}
		gs.Values["theme"] = "dark"
		gs.AddFlash("welcome")
		w := httptest.NewRecorder()
		if err := gs.Save(r, w); err != nil {
			t.Fatal(err)
		}
		c := sessionCookie(w.Result())
		if c == nil {
			t.Fatal("no cookie")
		}
		gs2, err := gstore.Get(request(c), DefaultCookieName)
		if err != nil || gs2.IsNew || gs2.Values["theme"] != "dark" {
			t.Fatalf("reload: %v IsNew=%v theme=%v", err, gs2.IsNew, gs2.Values["theme"])
		}
		if fl := gs2.Flashes(); len(fl) != 1 || fl[0] != "welcome" {
			t.Fatalf("flashes = %v", fl)
		}
		typed, ok := FromGorilla(gs2)
		if !ok || typed.ID() != gs2.ID {
			t.Fatal("FromGorilla")
		}
		gs2.Values["n"] = 3
		if err := gs2.Save(request(c), httptest.NewRecorder()); err == nil {
			t.Fatal("a non-string value was accepted")
		}
		delete(gs2.Values, "n")
		gs2.Options.MaxAge = -1
		w = httptest.NewRecorder()
		if err := gs2.Save(request(c), w); err != nil {
			t.Fatal(err)
		}
		if ck := sessionCookie(w.Result()); ck == nil || ck.MaxAge >= 0 {
			t.Fatal("MaxAge -1 did not expire the cookie")
		}
		if _, err := e.backend.Load(context.Background(), gs2.ID); !errors.Is(err, ErrNotFound) {
			t.Fatal("MaxAge -1 did not delete the record")
		}
	})

	t.Run("Unavailable", func(t *testing.T) {
		b := newBackend(t)
		e := newEnv(t, b, func(o *Options) { o.OperationTimeout = 500 * time.Millisecond })
		_, c := e.login()
		b.Close() // the database goes away
		start := time.Now()
		_, err := e.store.Load(request(c))
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Load with the database gone: %v, want ErrUnavailable", err)
		}
		if strings.Contains(err.Error(), "password") && !strings.Contains(err.Error(), "xxxxx") {
			t.Fatalf("error may leak a password: %v", err)
		}
		if err := e.store.SaveToken(context.Background(), "x", "seller", StoredToken{}); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("SaveToken with the database gone: %v, want ErrUnavailable", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("failing took %v; want it bounded by OperationTimeout", d)
		}
	})
}
