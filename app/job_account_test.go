package app_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// The job executor's accounts come from the accounts package, said in
// the runner's terms: the job's own account sends, a session gone stops
// the job as logged out, an account removed stops it saying so, and a
// session store that cannot answer makes it try again later.
func TestExecutorAccounts(t *testing.T) {
	dir := t.TempDir()
	a, err := app.New(context.Background(), app.Config{
		DemoSandbox: &sandbox.Options{},
		DatabaseURL: filepath.Join(dir, "sellerdesk.db"),
		KeyFile:     filepath.Join(dir, "sellerdesk.db.key"),
		Jobs:        &bulkjobs.RunnerOptions{},
		Dashboard:   handlers.Deps{Demo: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	ctx := context.Background()
	cred := sandbox.SeededCredentials()[0]
	sess, err := a.Sessions.Load(httptest.NewRequest("GET", "/", nil))
	if err != nil {
		t.Fatal(err)
	}
	sess.Data().Login(sessions.Account{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: "test", SellerID: cred.SellerID})
	if err := sess.Save(httptest.NewRequest("GET", "/", nil), httptest.NewRecorder()); err != nil {
		t.Fatal(err)
	}
	job := bulkjobs.Job{SessionRef: sess.ID(), ClientID: cred.ClientID, SellerID: cred.SellerID, Environment: "test"}
	accountOf := a.Executor.Accounts

	if acct, err := accountOf(ctx, job); err != nil || acct.Credentials().ClientID != cred.ClientID {
		t.Fatalf("the job's own account: %v, %v", acct, err)
	}
	other := job
	other.ClientID = "another-client-of-the-seller"
	var stop *bulkjobs.StopError
	if _, err := accountOf(ctx, other); !errors.As(err, &stop) || len(stop.Message) != 1 || stop.Message[0].Key != "accounts.job_account_removed" {
		t.Errorf("an account the session no longer holds: %v, want the job stopped saying so", err)
	}
	gone := job
	gone.SessionRef = "a-session-logged-out"
	if _, err := accountOf(ctx, gone); !errors.Is(err, bulkjobs.ErrLoggedOut) {
		t.Errorf("a session gone: %v, want bulkjobs.ErrLoggedOut", err)
	}
	_ = a.DB.Close()
	var later *bulkjobs.RetryLater
	if _, err := accountOf(ctx, job); !errors.As(err, &later) {
		t.Errorf("a session store that cannot answer: %v, want the job to try again later", err)
	}
}
