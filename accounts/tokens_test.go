package accounts

import (
	"context"
	"errors"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

func TestTokenName(t *testing.T) {
	for _, c := range []struct {
		key  apiclient.TokenKey
		want string
	}{
		{apiclient.TokenKey{Kind: apiclient.KindSeller, Environment: apiclient.Test}, "8db78451fb99/seller"},
		{apiclient.TokenKey{Kind: apiclient.KindSellerV2, Environment: apiclient.Production}, "8db78451fb99/seller-v2"},
		{apiclient.TokenKey{Kind: apiclient.KindB2B, Environment: apiclient.Production}, "8db78451fb99/b2b/production"},
		{apiclient.TokenKey{Kind: apiclient.KindB2B, Environment: apiclient.Test}, "8db78451fb99/b2b/test"},
	} {
		if got := TokenName("8db78451fb99", c.key); got != c.want {
			t.Errorf("TokenName(%v) = %q, want %q", c.key, got, c.want)
		}
	}
}

// TestOldSessionKeepsItsTokens: a session stored by an earlier version
// (its payload and tokens sealed then) is read as it was: each account
// of it finds its own tokens, under the names they were stored by, and a
// job of it gets its account.
func TestOldSessionKeepsItsTokens(t *testing.T) {
	e, old := withOldSession(t)
	ctx := context.Background()
	d, err := e.store.LoadData(ctx, old.ID)
	if err != nil {
		t.Fatalf("the old session's payload: %v", err)
	}
	list := d.AccountList()
	if len(list) != len(old.Accounts) {
		t.Fatalf("the old session holds %d accounts, want %d", len(list), len(old.Accounts))
	}
	found := 0
	for i, acct := range list {
		if acct.ID() != old.Accounts[i] {
			t.Fatalf("account %d is %s, want %s", i, acct.ID(), old.Accounts[i])
		}
		api, err := e.svc.Job(ctx, JobRef{Session: old.ID, ClientID: acct.ClientID, SellerID: acct.SellerID, Environment: acct.Environment})
		if err != nil {
			t.Fatalf("the job account of %s: %v", acct.ID(), err)
		}
		if got := api.Credentials(); got != Credentials(acct) {
			t.Errorf("the job account of %s has other credentials", acct.ID())
		}
		ts := sessionTokens{store: e.store, id: old.ID, account: acct.ID()}
		for _, kind := range []apiclient.TokenKind{apiclient.KindSeller, apiclient.KindB2B} {
			key := api.TokenKey(kind)
			tok, ok, err := ts.LoadToken(ctx, key)
			if err != nil || !ok {
				t.Fatalf("%s's %s token: ok %v, error %v", acct.ID(), kind, ok, err)
			}
			want := old.Access[TokenName(acct.ID(), key)]
			if want == "" || tok.AccessToken != want {
				t.Errorf("%s's %s token is not the one the old session stored", acct.ID(), kind)
			}
			found++
		}
	}
	if found != len(old.Access) {
		t.Errorf("read %d tokens, the old session stored %d", found, len(old.Access))
	}
}

// TestForgetTokens: forgetting an account's tokens leaves none of them
// usable (every kind it may hold, the lamoda profile's v2 token
// included) and the other account's tokens alone.
func TestForgetTokens(t *testing.T) {
	e, old := withOldSession(t)
	ctx := context.Background()
	gone, kept := old.Accounts[0], old.Accounts[1]
	// A v2 token of the account, stored as the lamoda profile stores it.
	if err := e.store.SaveToken(ctx, old.ID, gone+"/seller-v2", sessions.StoredToken{AccessToken: "v2-token"}); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.ForgetTokens(ctx, old.ID, gone); err != nil {
		t.Fatal(err)
	}
	all, err := e.store.LoadTokens(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	for name, tok := range all {
		switch {
		case len(name) > len(gone) && name[:len(gone)+1] == gone+"/":
			if tok.AccessToken != "" || tok.RefreshToken != "" {
				t.Errorf("token %s of the forgotten account still holds a value", name)
			}
		case old.Access[name] != "" && tok.AccessToken != old.Access[name]:
			t.Errorf("token %s of account %s changed", name, kept)
		}
	}
	if err := e.svc.ForgetTokens(ctx, "no-such-session", gone); err != nil {
		t.Errorf("forgetting the tokens of a session gone: %v", err)
	}
}

// TestTokenStoreFailure: a session store that cannot answer is a failure
// of the database (sqldb.ErrUnavailable), for the caller to try again,
// whether a token is read, saved or forgotten.
func TestTokenStoreFailure(t *testing.T) {
	e, old := withOldSession(t)
	ctx := context.Background()
	ts := sessionTokens{store: e.store, id: old.ID, account: old.Accounts[0]}
	key := apiclient.TokenKey{Kind: apiclient.KindSeller}
	_ = e.db.Close()
	if _, _, err := ts.LoadToken(ctx, key); !errors.Is(err, sqldb.ErrUnavailable) {
		t.Errorf("load on a closed store: %v, want sqldb.ErrUnavailable", err)
	}
	if err := ts.SaveToken(ctx, key, apiclient.Token{AccessToken: "x"}); !errors.Is(err, sqldb.ErrUnavailable) {
		t.Errorf("save on a closed store: %v, want sqldb.ErrUnavailable", err)
	}
	if err := e.svc.ForgetTokens(ctx, old.ID, old.Accounts[0]); !errors.Is(err, sqldb.ErrUnavailable) {
		t.Errorf("forget on a closed store: %v, want sqldb.ErrUnavailable", err)
	}
}
