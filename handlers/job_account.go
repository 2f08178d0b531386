package handlers

import (
	"context"
	"errors"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// JobAccount is the marketplace account a bulk job sends with: the
// credentials of the session that submitted it, read from the session
// store at every chunk (the user may have navigated away, and a logout
// stops the job). It is the massupdate.Accounts internal/app gives the job
// executor.
func (a *App) JobAccount(ctx context.Context, job bulkjobs.Job) (*apiclient.Account, error) {
	d, err := a.deps.Sessions.LoadData(ctx, job.SessionRef)
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, bulkjobs.ErrLoggedOut
	}
	if err != nil {
		return nil, &bulkjobs.RetryLater{At: time.Now().Add(5 * time.Second)}
	}
	if d.ClientID == "" || d.ClientSecret == "" {
		return nil, bulkjobs.ErrLoggedOut
	}
	// The job's account is the session's account that submitted it: its
	// client, seller and environment. One removed from the session sends
	// nothing more, nor does another client of the same seller the
	// session holds (its rights may differ).
	for _, acct := range d.AccountList() {
		if acct.ClientID == job.ClientID && acct.SellerID == job.SellerID && acct.Environment == job.Environment && acct.ClientSecret != "" {
			creds := apiclient.Credentials{ClientID: acct.ClientID, ClientSecret: acct.ClientSecret, Environment: apiclient.Environment(acct.Environment)}
			return a.deps.API.Account(creds, sessionTokens{store: a.deps.Sessions, id: job.SessionRef, account: acct.ID()}), nil
		}
	}
	return nil, &bulkjobs.StopError{Message: i18n.Of(i18n.M("accounts.job_account_removed", nil))}
}
