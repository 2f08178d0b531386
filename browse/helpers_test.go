package browse

import (
	"context"
	"errors"
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

// liveCounts counts the seller's lists by status at the marketplace: a
// one-row page per order and box status (the list's total is the count)
// and a walk of the whole nomenclature, which has no status filter.
func (r *rig) liveCounts(t *testing.T) *Overview {
	t.Helper()
	ctx := context.Background()
	ov := &Overview{}
	for _, st := range OrderStatuses {
		list, err := r.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 1, Status: st})
		if err != nil {
			t.Fatal(err)
		}
		ov.Orders = append(ov.Orders, Count{Status: st, Count: list.Total})
	}
	for _, st := range BoxStatuses {
		list, err := r.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: r.key.SellerID, Page: 1, Limit: 1, Status: st})
		if err != nil {
			t.Fatal(err)
		}
		ov.Boxes = append(ov.Boxes, Count{Status: st, Count: list.Total})
	}
	records := map[string]int{}
	for n, err := range r.acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: r.key.SellerID, Limit: UpstreamLimit}) {
		if err != nil {
			t.Fatal(err)
		}
		records[n.Status]++
	}
	ov.Nomenclature = countsOf(NomenclatureStatuses, records)
	return ov
}

// beforeCopy is one request's reads of the rig's seller through a source
// the copy's sync cannot read: the first pass never finishes, so every
// list is read live, as before a first full copy.
func (r *rig) beforeCopy() *Seller {
	return New(r.copy, nil).For(r.key, Access{Account: r.acct, Source: failingSource{}, Live: context.Background})
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

// failingSource is a marketplace the copy's sync cannot read: the copy
// never finishes its first pass.
type failingSource struct{}

var errNoSource = errors.New("the source is unavailable")

func (failingSource) NomenclaturePage(context.Context, int, int) ([]apiclient.Nomenclature, int, int, error) {
	return nil, 0, 0, errNoSource
}

func (failingSource) OrdersPage(context.Context, int, int) ([]apiclient.Order, int, int, error) {
	return nil, 0, 0, errNoSource
}

func (failingSource) BoxesPage(context.Context, int, int) ([]apiclient.ReturnBox, int, int, error) {
	return nil, 0, 0, errNoSource
}
