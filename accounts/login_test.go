package accounts

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

var office = netip.MustParseAddr("192.0.2.10")

func demoAccount() sessions.Account {
	return sessions.Account{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: "test", SellerID: 1001}
}

// loginError is err as a *LoginError, or the test fails.
func loginError(t *testing.T, err error) *LoginError {
	t.Helper()
	var le *LoginError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T), want a *LoginError", err, err)
	}
	return le
}

// A login the marketplace accepts obtains both tokens and probes the
// seller once; its tokens go to the session that takes the account, under
// the account's names.
func TestLoginKeepsItsTokens(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	login, err := e.svc.Login(ctx, Attempt{Account: demoAccount(), From: office})
	if err != nil {
		t.Fatal(err)
	}
	if n := e.sb.Counters().Requests[sandbox.RouteRPCList]; n != 1 {
		t.Errorf("the login probed the seller %d times, want 1", n)
	}
	sess := newSession(t, e.store)
	sess.Data().Login(login.Account)
	login.Keep(sess)
	if err := sess.Save(httptest.NewRequest("GET", "/", nil), httptest.NewRecorder()); err != nil {
		t.Fatal(err)
	}
	all, err := e.store.LoadTokens(ctx, sess.ID())
	if err != nil {
		t.Fatal(err)
	}
	id := login.Account.ID()
	for _, name := range []string{id + "/seller", id + "/b2b/test"} {
		if all[name].AccessToken == "" {
			t.Errorf("the session has no token %s; it has %d", name, len(all))
		}
	}
	// The session's account uses them: no token is asked for again.
	issued := e.sb.Counters().TokensIssued
	if _, err := e.svc.Current(sess).Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1001, Page: 1, Limit: 1}); err != nil {
		t.Fatal(err)
	}
	after := e.sb.Counters().TokensIssued
	for k, n := range after {
		if n != issued[k] {
			t.Errorf("the session's account asked for a %s token again", k)
		}
	}
}

// TestLoginRefusals: each way a login fails is typed for the form to say,
// and only a rejection of the credentials counts against the throttle.
func TestLoginRefusals(t *testing.T) {
	ctx := context.Background()
	t.Run("rejected", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		acct := demoAccount()
		acct.ClientSecret = "wrong"
		_, err := e.svc.Login(ctx, Attempt{Account: acct, From: office})
		le := loginError(t, err)
		if le.Reason != Rejected || le.Environment != "test" || !errors.Is(err, apiclient.ErrUnauthorized) {
			t.Errorf("a wrong secret: %v (environment %q)", err, le.Environment)
		}
		if strings.Contains(err.Error(), "wrong") {
			t.Errorf("the error names the secret: %v", err)
		}
	})
	t.Run("no access to the seller", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		acct := demoAccount()
		acct.SellerID = 1002
		_, err := e.svc.Login(ctx, Attempt{Account: acct, From: office})
		if le := loginError(t, err); le.Reason != NoAccess || le.SellerID != 1002 {
			t.Errorf("another seller: %v (seller %d)", err, le.SellerID)
		}
	})
	t.Run("busy", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BToken, Kind: sandbox.FaultRateLimit, RetryAfter: "30", Times: -1})
		_, err := e.svc.Login(apiclient.WithRetryBudget(ctx, time.Millisecond), Attempt{Account: demoAccount(), From: office})
		if le := loginError(t, err); le.Reason != Busy || le.Until.IsZero() {
			t.Errorf("a busy marketplace: %v (until %v)", err, le.Until)
		}
	})
	t.Run("failed", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultHTML, Times: -1})
		_, err := e.svc.Login(apiclient.WithRetryBudget(ctx, time.Millisecond), Attempt{Account: demoAccount(), From: office})
		if le := loginError(t, err); le.Reason != Failed || le.Err == nil {
			t.Errorf("a failing marketplace: %v", err)
		}
	})
}

// TestLoginThrottle: wrong guesses wait, then are refused before the
// marketplace sees them; failures of the marketplace and refused sellers
// are not guesses; one address failing at too many client ids is told
// that bound.
func TestLoginThrottle(t *testing.T) {
	ctx := context.Background()
	t.Run("wrong guesses", func(t *testing.T) {
		e := newEnv(t, envOptions{limits: loginguard.Limits{Free: 1, Max: 3}})
		acct := demoAccount()
		acct.ClientSecret = "wrong"
		_, err := e.svc.Login(ctx, Attempt{Account: acct, From: office})
		if le := loginError(t, err); le.Reason != Rejected || !le.Until.IsZero() {
			t.Fatalf("first wrong guess: %v (until %v), want rejected with no wait", err, le.Until)
		}
		_, err = e.svc.Login(ctx, Attempt{Account: acct, From: office})
		if le := loginError(t, err); le.Reason != Rejected || !le.Until.After(e.sb.Now()) {
			t.Fatalf("second wrong guess: %v (until %v), want rejected with a wait", err, le.Until)
		}
		before := e.sb.Counters().TokensIssued
		_, err = e.svc.Login(ctx, Attempt{Account: demoAccount(), From: office})
		if le := loginError(t, err); le.Reason != Throttled || !le.Until.After(e.sb.Now()) {
			t.Fatalf("an attempt while waiting: %v, want throttled", err)
		}
		if after := e.sb.Counters().TokensIssued; len(after) != len(before) {
			t.Errorf("the marketplace saw a throttled attempt: %v then %v", before, after)
		}
	})
	t.Run("not guesses", func(t *testing.T) {
		e := newEnv(t, envOptions{limits: loginguard.Limits{Free: 1, Max: 2}})
		e.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultHTML, Times: 3})
		for i := range 3 {
			if _, err := e.svc.Login(ctx, Attempt{Account: demoAccount(), From: office}); loginError(t, err).Reason != Failed {
				t.Fatalf("failure %d of the marketplace: %v", i, err)
			}
		}
		other := demoAccount()
		other.SellerID = 1002
		for i := range 3 {
			if _, err := e.svc.Login(ctx, Attempt{Account: other, From: office}); loginError(t, err).Reason != NoAccess {
				t.Fatalf("refused seller %d: %v", i, err)
			}
		}
		if _, err := e.svc.Login(ctx, Attempt{Account: demoAccount(), From: office}); err != nil {
			t.Errorf("after failures that were no guesses: %v, want a login", err)
		}
	})
	t.Run("too many client ids", func(t *testing.T) {
		e := newEnv(t, envOptions{limits: loginguard.Limits{MaxClientsPerAddress: 2, Free: 50, Max: 100}})
		for _, id := range []string{"nobody-1", "nobody-2"} {
			acct := demoAccount()
			acct.ClientID, acct.ClientSecret = id, "wrong"
			if _, err := e.svc.Login(ctx, Attempt{Account: acct, From: office}); loginError(t, err).Reason != Rejected {
				t.Fatalf("%s: %v", id, err)
			}
		}
		acct := demoAccount()
		acct.ClientID, acct.ClientSecret = "nobody-3", "wrong"
		_, err := e.svc.Login(ctx, Attempt{Account: acct, From: office})
		if le := loginError(t, err); le.Reason != TooManyClients || le.MaxClients != 2 || le.Window != 15*time.Minute {
			t.Errorf("a third client id: %v (max %d, window %v)", err, le.MaxClients, le.Window)
		}
	})
}
