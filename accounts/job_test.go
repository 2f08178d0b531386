package accounts

import (
	"context"
	"errors"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// TestJobKeepsToItsAccount: a job sends only with the account that
// submitted it (its client, seller and environment): another client of
// the same seller held by the session is not its account, a session gone
// stops it, and a store that cannot answer is a failure to try again.
func TestJobKeepsToItsAccount(t *testing.T) {
	e, old := withOldSession(t)
	ctx := context.Background()
	own := JobRef{Session: old.ID, ClientID: "demo-1001", SellerID: 1001, Environment: "production"}
	acct, err := e.svc.Job(ctx, own)
	if err != nil {
		t.Fatalf("the job's own account: %v", err)
	}
	if c := acct.Credentials(); c.ClientID != own.ClientID || string(c.Environment) != own.Environment || c.ClientSecret == "" {
		t.Errorf("the job's account is %v", acct)
	}
	for name, ref := range map[string]JobRef{
		"another client of the seller": {Session: old.ID, ClientID: "another-client-of-1001", SellerID: 1001, Environment: "production"},
		"another seller of the client": {Session: old.ID, ClientID: "demo-1001", SellerID: 1002, Environment: "production"},
		"another environment":          {Session: old.ID, ClientID: "demo-1001", SellerID: 1001, Environment: "test"},
	} {
		if acct, err := e.svc.Job(ctx, ref); !errors.Is(err, ErrAccountRemoved) {
			t.Errorf("%s: %v (error %v), want ErrAccountRemoved", name, acct, err)
		}
	}
	gone := own
	gone.Session = "a-session-logged-out"
	if _, err := e.svc.Job(ctx, gone); !errors.Is(err, ErrLoggedOut) {
		t.Errorf("a session gone: %v, want ErrLoggedOut", err)
	}
	_ = e.db.Close()
	if _, err := e.svc.Job(ctx, own); !errors.Is(err, sqldb.ErrUnavailable) || errors.Is(err, ErrLoggedOut) {
		t.Errorf("a store that cannot answer: %v, want sqldb.ErrUnavailable", err)
	}
}
