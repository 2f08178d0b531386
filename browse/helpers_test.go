package browse

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// rig is a sandbox on a loopback port, one seller's account on it, and a
// copy of that seller on a fresh SQLite file.
type rig struct {
	sb    *sandbox.Sandbox
	acct  *apiclient.Account
	db    *sqldb.DB
	copy  *copystore.Manager
	key   copystore.Key
	src   copystore.AccountSource
	syncr *copystore.Syncer
}

func newRig(t *testing.T) *rig {
	t.Helper()
	ctx := context.Background()
	sb := sandbox.New(sandbox.Options{})
	mp, err := demo.Start(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = mp.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: mp.B2BURL, B2BTestBaseURL: mp.B2BTestURL, SellerBaseURL: mp.SellerURL, Now: sb.Now})
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := api.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	db, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "copy.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	store, err := copystore.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	y := &copystore.Syncer{Store: store, Lock: db, Now: sb.Now}
	m := copystore.NewManager(y, time.Hour, 0, nil)
	t.Cleanup(m.Close)
	k := copystore.Key{SellerID: cred.SellerID, Env: "test"}
	src := copystore.AccountSource{Account: acct, SellerID: cred.SellerID, Credential: copystore.CredentialOf(cred.ClientID, "test", cred.ClientSecret)}
	return &rig{sb: sb, acct: acct, db: db, copy: m, key: k, src: src, syncr: y}
}

// synced makes a full copy of the rig's seller.
func (r *rig) synced(t *testing.T) *rig {
	t.Helper()
	if err := r.syncr.Run(context.Background(), r.key, r.src); err != nil {
		t.Fatal(err)
	}
	return r
}

// seller is one request's reads through reader (the rig's copy when nil
// is not asked for); entered counts the page gate's entries.
func (r *rig) seller(reader *Reader, entered *int) *Seller {
	return reader.For(r.key, Access{
		Account: r.acct,
		Source:  r.src,
		Live:    context.Background,
		Enter: func() (context.Context, error) {
			if entered != nil {
				*entered++
			}
			return context.Background(), nil
		},
	})
}

// requests is how many requests the sandbox answered on route.
func (r *rig) requests(route string) int { return r.sb.Counters().Requests[route] }
