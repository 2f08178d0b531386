package app

import (
	"context"
	"errors"
	"time"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// jobAccounts is the job executor's massupdate.Accounts: the account of
// the session that submitted a job (accounts.Service.Job), its refusals
// said in the runner's terms. A logged-out session stops the job as
// logged out, an account removed from it stops the job saying so, and a
// session store that cannot answer makes the chunk wait and try again.
func jobAccounts(acc *accounts.Service) massupdate.Accounts {
	return func(ctx context.Context, job bulkjobs.Job) (*apiclient.Account, error) {
		a, err := acc.Job(ctx, accounts.JobRef{Session: job.SessionRef, ClientID: job.ClientID, SellerID: job.SellerID, Environment: job.Environment})
		switch {
		case err == nil:
			return a, nil
		case errors.Is(err, accounts.ErrLoggedOut):
			return nil, bulkjobs.ErrLoggedOut
		case errors.Is(err, accounts.ErrAccountRemoved):
			return nil, &bulkjobs.StopError{Message: i18n.Of(i18n.M("accounts.job_account_removed", nil))}
		}
		return nil, &bulkjobs.RetryLater{At: time.Now().Add(5 * time.Second)}
	}
}

// storeFailed is the engine's StoreFailed: a failure of the database
// behind the session's tokens, met while sending.
func storeFailed(err error) bool { return errors.Is(err, sqldb.ErrUnavailable) }
