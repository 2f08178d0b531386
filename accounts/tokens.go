package accounts

import (
	"context"
	"errors"
	"sync"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// TokenName is the session store's name of the token of key of the
// account whose ID is account: the account's ID, then the token's
// interface and, for the B2B API, its environment ("…/seller",
// "…/b2b/test", "…/seller-v2"). Sessions stored under these names must keep working:
// never change them.
func TokenName(account string, key apiclient.TokenKey) string {
	if key.Kind == apiclient.KindB2B {
		return account + "/b2b/" + string(key.Environment)
	}
	return account + "/" + string(key.Kind)
}

// everyKey is every token an account may hold, as far as its name tells
// them apart: the lamoda profile's Seller API v2 token included.
var everyKey = []apiclient.TokenKey{
	{Kind: apiclient.KindSeller},
	{Kind: apiclient.KindSellerV2},
	{Kind: apiclient.KindB2B, Environment: apiclient.Production},
	{Kind: apiclient.KindB2B, Environment: apiclient.Test},
}

// storeFailed marks a failure of the session store met while reading or
// saving an account's tokens: it matches sqldb.ErrUnavailable (the caller
// may try again later) and keeps the store's error.
func storeFailed(err error) error {
	return sqldb.Unavailable("sessions", err)
}

// sessionTokens keeps an account's marketplace tokens in its session's
// server-side store, so every dashboard instance sees the same tokens and
// a refresh made by one request serves the next. It is an
// apiclient.TokenStore.
type sessionTokens struct {
	store *sessions.Store
	id    string
	// account is the ID of the session's account the tokens belong to:
	// each account of a session keeps its own (TokenName).
	account string
	// sess, when set, is the request's session: its tokens were read with
	// it, and the first look at a token uses that read.
	sess *sessions.Session
}

var (
	_ apiclient.TokenStore         = sessionTokens{}
	_ apiclient.TokenRefreshLocker = sessionTokens{}
)

// LoadToken returns the token read with the request's session, if there is
// one and it was not forgotten; otherwise it reads the session store. A
// token is forgotten when its refresh begins (LockTokenRefresh), so the
// refresh decides on what the store holds then: a token refreshed
// meanwhile by another request or instance is used, not requested again.
func (s sessionTokens) LoadToken(ctx context.Context, key apiclient.TokenKey) (apiclient.Token, bool, error) {
	name := TokenName(s.account, key)
	if s.sess != nil {
		if t, ok := s.sess.ReadToken(ctx, name); ok {
			return apiToken(t), true, nil
		}
	}
	t, ok, err := s.store.LoadToken(ctx, s.id, name)
	if err != nil {
		if errors.Is(err, sessions.ErrNotFound) {
			return apiclient.Token{}, false, nil
		}
		return apiclient.Token{}, false, storeFailed(err)
	}
	if !ok {
		return apiclient.Token{}, false, nil
	}
	return apiToken(t), true, nil
}

// SaveToken stores a refreshed token. A session logged out meanwhile stays
// logged out: the store refuses to recreate it, and the refreshed token is
// simply dropped.
func (s sessionTokens) SaveToken(ctx context.Context, key apiclient.TokenKey, t apiclient.Token) error {
	name := TokenName(s.account, key)
	if s.sess != nil {
		s.sess.ForgetReadToken(name)
	}
	err := s.store.SaveToken(ctx, s.id, name, storedToken(t))
	if err != nil && !errors.Is(err, sessions.ErrNotFound) {
		return storeFailed(err)
	}
	return nil
}

// LockTokenRefresh serialises refreshes of one session's token across
// requests (and, with a shared database, across instances).
func (s sessionTokens) LockTokenRefresh(ctx context.Context, key apiclient.TokenKey) (func(), error) {
	name := TokenName(s.account, key)
	if s.sess != nil {
		s.sess.ForgetReadToken(name)
	}
	unlock, err := s.store.LockTokenRefresh(ctx, s.id, name)
	if err != nil {
		return nil, storeFailed(err)
	}
	return unlock, nil
}

func apiToken(t sessions.StoredToken) apiclient.Token {
	return apiclient.Token{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, IssuedAt: t.IssuedAt, ExpiresAt: t.ExpiresAt}
}

func storedToken(t apiclient.Token) sessions.StoredToken {
	return sessions.StoredToken{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, IssuedAt: t.IssuedAt, ExpiresAt: t.ExpiresAt}
}

// ForgetTokens overwrites every stored token of the account whose ID is
// account in session sessionID empty: nothing of an account dropped from
// a session stays usable in it. A session gone already is not an error.
func (s *Service) ForgetTokens(ctx context.Context, sessionID, account string) error {
	for _, key := range everyKey {
		err := s.sessions.SaveToken(ctx, sessionID, TokenName(account, key), sessions.StoredToken{})
		if err != nil && !errors.Is(err, sessions.ErrNotFound) {
			return storeFailed(err)
		}
	}
	return nil
}

// capturedTokens is the token store of a login attempt: the session that
// will hold the tokens may not exist until the login succeeds, so tokens
// are kept here and handed to the session afterwards (Login.Keep).
type capturedTokens struct {
	mu     sync.Mutex
	tokens map[apiclient.TokenKey]apiclient.Token
}

func newCapturedTokens() *capturedTokens {
	return &capturedTokens{tokens: map[apiclient.TokenKey]apiclient.Token{}}
}

func (c *capturedTokens) LoadToken(_ context.Context, key apiclient.TokenKey) (apiclient.Token, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tokens[key]
	return t, ok, nil
}

func (c *capturedTokens) SaveToken(_ context.Context, key apiclient.TokenKey, t apiclient.Token) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens[key] = t
	return nil
}

// String keeps fmt from printing the captured tokens.
func (c *capturedTokens) String() string { return "accounts.capturedTokens" }

// GoString keeps fmt from printing the captured tokens.
func (c *capturedTokens) GoString() string { return "accounts.capturedTokens{}" }

// handTo stages the captured tokens in sess as the tokens of the account
// whose ID is account (stored by the session's next Save).
func (c *capturedTokens) handTo(sess *sessions.Session, account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, t := range c.tokens {
		sess.SetToken(TokenName(account, key), storedToken(t))
	}
}
