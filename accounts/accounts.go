// Package accounts owns a session's (or a job's) marketplace account: the
// credentials a session holds turned into an apiclient account, the tokens
// that account keeps in the session store (their names written once, in
// tokens.go), the login use case (verify the credentials, probe the
// seller's access, throttle wrong guesses: login.go) and the account a
// background job sends with (job.go). It knows nothing of HTTP.
package accounts

import (
	"errors"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Options configure a Service.
type Options struct {
	// API is the marketplace client every account is bound to. Required.
	API *apiclient.Client
	// Sessions is the store holding the sessions and their tokens.
	// Required.
	Sessions *sessions.Store
	// LoginLimits tune the login throttle; zero fields take defaults.
	LoginLimits loginguard.Limits
	// Now is the clock of the login throttle; nil means time.Now.
	Now func() time.Time
}

// Service hands out marketplace accounts: a session's, a job's, and the
// one a login checks. It is safe for concurrent use.
type Service struct {
	api      *apiclient.Client
	sessions *sessions.Store
	guard    *loginguard.Guard
	now      func() time.Time
}

// New returns a Service. It fails only on a missing client or store.
func New(o Options) (*Service, error) {
	if o.API == nil || o.Sessions == nil {
		return nil, errors.New("accounts: API client and session store are required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{api: o.API, sessions: o.Sessions, guard: loginguard.New(o.LoginLimits), now: o.Now}, nil
}

// Credentials are the marketplace credentials of an account a session
// holds: the one place a session's account becomes an apiclient one.
func Credentials(a sessions.Account) apiclient.Credentials {
	return apiclient.Credentials{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Environment: apiclient.Environment(a.Environment)}
}

// Current is the account sess acts on, its tokens kept in the session
// (read with the session first, so a warm token costs no store read).
func (s *Service) Current(sess *sessions.Session) *apiclient.Account {
	acct := sess.Data().Current()
	return s.api.Account(Credentials(acct), sessionTokens{store: s.sessions, id: sess.ID(), account: acct.ID(), sess: sess})
}

// Detached is account a with its tokens in the client's own cache, not in
// any session: for work that outlives the request (the local copy's sync),
// which must never write a session.
func (s *Service) Detached(a sessions.Account) *apiclient.Account {
	return s.api.Account(Credentials(a), nil)
}
