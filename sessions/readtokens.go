package sessions

import (
	"context"
	"sync"
)

// readTokens holds the sealed tokens that Store.Load read in the same
// database read as the session. A page that calls the marketplace uses
// them instead of reading the store a second time (BENCHMARKS.md, P6).
// They are opened only when asked for, and a name is forgotten as soon
// as its token is being refreshed, so that a refresh always decides on
// what the store holds at that moment (see ForgetReadToken).
type readTokens struct {
	mu     sync.Mutex
	sealed map[string][]byte
}

// ReadToken returns the token named name as it was read with the session,
// without another database read. ok is false when the session was not
// loaded from the store, had no such token, the token does not open, or
// it was forgotten (ForgetReadToken). The token may have been replaced in
// the store since the session was read (by a refresh in another request or
// instance); it was current when the request began, which is as fresh as
// any read made a moment later.
func (s *Session) ReadToken(ctx context.Context, name string) (StoredToken, bool) {
	rt := s.readTokens
	if rt == nil {
		return StoredToken{}, false
	}
	rt.mu.Lock()
	sealed, ok := rt.sealed[name]
	rt.mu.Unlock()
	if !ok {
		return StoredToken{}, false
	}
	return s.store.openToken(ctx, s.id, name, sealed)
}

// ForgetReadToken drops the token named name from the tokens read with
// the session: later ReadToken calls report it missing, so the caller
// reads the store. Call it before refreshing a token (the token read at
// the start of the request is due or was rejected; the store may hold a
// newer one) and after saving one.
func (s *Session) ForgetReadToken(name string) {
	rt := s.readTokens
	if rt == nil {
		return
	}
	rt.mu.Lock()
	delete(rt.sealed, name)
	rt.mu.Unlock()
}

type tokenScopeKey struct{}

// WithTokenScope asks the session load made with ctx to read with the
// session only the tokens whose names start with prefix (the tokens of
// the account a page acts on, "<account id>/"), not every token of every
// account the session holds. A token left out is not missing: ReadToken
// reports it not read, and the caller reads it from the store.
func WithTokenScope(ctx context.Context, prefix string) context.Context {
	return context.WithValue(ctx, tokenScopeKey{}, prefix)
}

// tokenScope is the prefix WithTokenScope set on ctx, "" for every token.
func tokenScope(ctx context.Context) string {
	p, _ := ctx.Value(tokenScopeKey{}).(string)
	return p
}
