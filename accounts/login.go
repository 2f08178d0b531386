package accounts

import (
	"context"
	"errors"
	"net/netip"
	"strconv"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Attempt is one login: the account as typed (its secret included) and
// the client address it comes from (the zero Addr when unknown: the
// client id alone is counted).
type Attempt struct {
	Account sessions.Account
	From    netip.Addr
}

// Login is a login the marketplace accepted: the account, and the tokens
// obtained while checking it, for the session that will hold it (Keep).
type Login struct {
	Account sessions.Account
	tokens  *capturedTokens
}

// Keep stages the login's tokens in sess as its account's tokens; the
// session's next Save stores them. Call it once the session holds the
// account (sessions.Data.Login or AddAccount).
func (l *Login) Keep(sess *sessions.Session) {
	l.tokens.handTo(sess, l.Account.ID())
}

// Reason says why a login failed.
type Reason int

const (
	// Throttled: too many failed logins from this address or at this
	// client id; LoginError.Until says when the next attempt may come.
	Throttled Reason = iota + 1
	// TooManyClients: the address failed at as many client ids as it may
	// within the window (LoginError.MaxClients, Window); Until as above.
	TooManyClients
	// Rejected: the marketplace refused the credentials in
	// LoginError.Environment; Until, when set, is the earliest next
	// attempt.
	Rejected
	// NoAccess: the credentials are right, but do not reach the seller
	// (LoginError.SellerID).
	NoAccess
	// Busy: the marketplace asked to slow down until LoginError.Until.
	Busy
	// Malformed: the marketplace refused the request as malformed.
	Malformed
	// Failed: the marketplace failed before judging the credentials (an
	// error status, an unreadable answer, no answer); LoginError.Err says
	// how.
	Failed
)

var reasonNames = [...]string{"", "throttled", "too many client ids from one address", "credentials rejected",
	"no access to the seller", "marketplace busy", "request refused as malformed", "marketplace failed"}

func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// LoginError is a failed login, typed for the caller to word. It never
// holds the secret.
type LoginError struct {
	Reason Reason
	// Until is when to try again (Throttled, TooManyClients, Busy), or the
	// earliest next attempt after a rejection (zero: at once).
	Until time.Time
	// MaxClients and Window are the bound TooManyClients reached.
	MaxClients int
	Window     time.Duration
	// Environment is the environment the credentials were refused in.
	Environment string
	// SellerID is the seller the credentials do not reach (NoAccess).
	SellerID int64
	// Err is the marketplace's error, when it gave one.
	Err error
}

func (e *LoginError) Error() string {
	msg := "accounts: login: " + e.Reason.String()
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *LoginError) Unwrap() error { return e.Err }

// Login checks an account's credentials against the marketplace before
// any session holds them: both tokens are obtained (the B2B token of the
// account's environment and the seller token), then the seller's
// nomenclature is probed for access to the seller. Wrong guesses are
// throttled per client address and client id before the marketplace sees
// them; only a rejection of the credentials counts as one. A failure is a
// *LoginError.
func (s *Service) Login(ctx context.Context, at Attempt) (*Login, error) {
	acct := at.Account
	keys := loginguard.NewKeys(at.From, acct.ClientID)
	if until, why := s.guard.BeginWhy(keys, s.now()); !until.IsZero() {
		e := &LoginError{Reason: Throttled, Until: until}
		if why == loginguard.TooManyClients {
			l := s.guard.Limits()
			e.Reason, e.MaxClients, e.Window = TooManyClients, l.MaxClientsPerAddress, l.Window
		}
		return nil, e
	}
	captured := newCapturedTokens()
	api := s.api.Account(Credentials(acct), captured)
	err := api.Login(ctx)
	if err == nil {
		_, err = api.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: acct.SellerID, Page: 1, Limit: 1})
		if errors.Is(err, apiclient.ErrForbidden) {
			s.guard.Uncount(keys) // the credentials were right
			return nil, &LoginError{Reason: NoAccess, SellerID: acct.SellerID, Environment: acct.Environment, Err: err}
		}
	}
	if err != nil {
		e := &LoginError{Reason: Failed, Environment: acct.Environment, Err: err}
		var rl *apiclient.RateLimitError
		switch {
		case errors.Is(err, apiclient.ErrUnauthorized):
			e.Reason = Rejected
			e.Until = s.guard.WaitUntil(keys, s.now())
		case errors.As(err, &rl):
			e.Reason, e.Until = Busy, rl.RetryAt
		case errors.Is(err, apiclient.ErrValidation):
			e.Reason = Malformed
		}
		if e.Reason != Rejected {
			s.guard.Uncount(keys) // not a wrong guess: the marketplace failed
		}
		return nil, e
	}
	s.guard.Succeeded(keys)
	return &Login{Account: acct, tokens: captured}, nil
}
