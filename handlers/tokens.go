package handlers

import (
	"context"
	"errors"
	"sync"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// sessionTokens keeps a user's marketplace tokens in their server-side
// session, so every dashboard instance sees the same tokens and a refresh
// made by one request serves the next. It is an apiclient.TokenStore.
type sessionTokens struct {
	store *sessions.Store
	id    string
	// account is the ID of the session's account the tokens belong to:
	// each account of a session keeps its own (see name).
	account string
	// sess, when set, is the request's session: its tokens were read with
	// it, and the first look at a token uses that read.
	sess *sessions.Session
}

var (
	_ apiclient.TokenStore         = sessionTokens{}
	_ apiclient.TokenRefreshLocker = sessionTokens{}
)

// tokenName is the session's name for a token: its interface and, for the
// B2B API, its environment ("b2b/test", "seller").
func tokenName(key apiclient.TokenKey) string {
	if key.Kind == apiclient.TokenKind("b2b") {
		return "b2b/" + string(key.Environment)
	}
	return string(key.Kind)
}

// name is the session's name for the account's token of key.
func (s sessionTokens) name(key apiclient.TokenKey) string {
	return accountTokenName(s.account, key)
}

// accountTokenName is the session's name for the token of key of the
// account whose ID is account.
func accountTokenName(account string, key apiclient.TokenKey) string {
	return account + "/" + tokenName(key)
}

// LoadToken returns the token read with the request's session, if there is
// one and it was not forgotten; otherwise it reads the session store. A
// token is forgotten when its refresh begins (LockTokenRefresh), so the
// refresh decides on what the store holds then: a token refreshed
// meanwhile by another request or instance is used, not requested again.
func (s sessionTokens) LoadToken(ctx context.Context, key apiclient.TokenKey) (apiclient.Token, bool, error) {
	if s.sess != nil {
		if t, ok := s.sess.ReadToken(ctx, s.name(key)); ok {
			return apiToken(t), true, nil
		}
	}
	all, err := s.store.LoadTokens(ctx, s.id)
	if err != nil {
		if errors.Is(err, sessions.ErrNotFound) {
			return apiclient.Token{}, false, nil
		}
		return apiclient.Token{}, false, errSessionStore(err)
	}
	t, ok := all[s.name(key)]
	if !ok {
		return apiclient.Token{}, false, nil
	}
	return apiToken(t), true, nil
}

func apiToken(t sessions.StoredToken) apiclient.Token {
	return apiclient.Token{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, IssuedAt: t.IssuedAt, ExpiresAt: t.ExpiresAt}
}

// SaveToken stores a refreshed token. A session logged out meanwhile stays
// logged out: the store refuses to recreate it, and the refreshed token is
// simply dropped.
func (s sessionTokens) SaveToken(ctx context.Context, key apiclient.TokenKey, t apiclient.Token) error {
	if s.sess != nil {
		s.sess.ForgetReadToken(s.name(key))
	}
	err := s.store.SaveToken(ctx, s.id, s.name(key), storedToken(t))
	if err != nil && !errors.Is(err, sessions.ErrNotFound) {
		return errSessionStore(err)
	}
	return nil
}

// LockTokenRefresh serialises refreshes of one session's token across
// requests (and, with a shared database, across instances).
func (s sessionTokens) LockTokenRefresh(ctx context.Context, key apiclient.TokenKey) (func(), error) {
	if s.sess != nil {
		s.sess.ForgetReadToken(s.name(key))
	}
	unlock, err := s.store.LockTokenRefresh(ctx, s.id, s.name(key))
	if err != nil {
		return nil, errSessionStore(err)
	}
	return unlock, nil
}

func storedToken(t apiclient.Token) sessions.StoredToken {
	return sessions.StoredToken{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, IssuedAt: t.IssuedAt, ExpiresAt: t.ExpiresAt}
}

// capturedTokens is the token store of a login attempt: the session that
// will hold the tokens does not exist until the login succeeds, so tokens
// are kept here and handed to the session afterwards.
type capturedTokens struct {
	mu     sync.Mutex
	tokens map[string]apiclient.Token
}

func newCapturedTokens() *capturedTokens {
	return &capturedTokens{tokens: map[string]apiclient.Token{}}
}

func (c *capturedTokens) LoadToken(_ context.Context, key apiclient.TokenKey) (apiclient.Token, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tokens[tokenName(key)]
	return t, ok, nil
}

func (c *capturedTokens) SaveToken(_ context.Context, key apiclient.TokenKey, t apiclient.Token) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens[tokenName(key)] = t
	return nil
}

// handTo stages the captured tokens in sess as the tokens of the account
// whose ID is account (stored by the session's next Save).
func (c *capturedTokens) handTo(sess *sessions.Session, account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, t := range c.tokens {
		sess.SetToken(account+"/"+name, storedToken(t)) // accountTokenName
	}
}
