package accounts

import (
	"context"
	"errors"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// JobRef names the account a background job sends with: the session that
// submitted it, and the client, seller and environment it was submitted
// for.
type JobRef struct {
	Session     string
	ClientID    string
	SellerID    int64
	Environment string
}

// ErrLoggedOut reports that the session a job belongs to is gone (logged
// out, expired) or holds no login any more: the job must stop.
var ErrLoggedOut = errors.New("accounts: the session that submitted the job is logged out")

// ErrAccountRemoved reports that the session no longer holds the job's
// account (it was removed; another client of the same seller does not
// count): the job must stop.
var ErrAccountRemoved = errors.New("accounts: the session no longer holds the job's account")

// Job is the marketplace account a background job sends with: the
// credentials of the session that submitted it, read from the session
// store at every call (the user may have navigated away, and a logout
// stops the job), its tokens kept in that session. A failure of the
// session store matches sqldb.ErrUnavailable: try again later.
func (s *Service) Job(ctx context.Context, ref JobRef) (*apiclient.Account, error) {
	d, err := s.sessions.LoadData(ctx, ref.Session)
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, ErrLoggedOut
	}
	if err != nil {
		return nil, storeFailed(err)
	}
	if d.ClientID == "" || d.ClientSecret == "" {
		return nil, ErrLoggedOut
	}
	// The job's account is the session's account that submitted it: its
	// client, seller and environment. One removed from the session sends
	// nothing more, nor does another client of the same seller the
	// session holds (its rights may differ).
	for _, acct := range d.AccountList() {
		if acct.ClientID == ref.ClientID && acct.SellerID == ref.SellerID && acct.Environment == ref.Environment && acct.ClientSecret != "" {
			return s.api.Account(Credentials(acct), sessionTokens{store: s.sessions, id: ref.Session, account: acct.ID()}), nil
		}
	}
	return nil, ErrAccountRemoved
}
