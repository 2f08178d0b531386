package massupdate

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// sandboxAccount is a seeded seller's account on an in-process sandbox.
func sandboxAccount(t *testing.T) (*apiclient.Account, int64) {
	t.Helper()
	m, err := demo.Start(sandbox.New(sandbox.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: m.Sandbox.Now})
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := api.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	return acct, cred.SellerID
}

func item(t *testing.T, seq int, key string, payload any) bulkjobs.Item {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return bulkjobs.Item{Seq: seq, Key: key, Payload: string(b)}
}

// The executor sends a job's chunk through the same engine as the forms:
// under the seller's lock, rows matched to the marketplace's item errors by
// key, then reads the rows back.
func TestExecutorSendAndReadBack(t *testing.T) {
	acct, seller := sandboxAccount(t)
	cat, err := FetchCatalog(context.Background(), acct, seller)
	if err != nil {
		t.Fatal(err)
	}
	var sku string
	var rec apiclient.Nomenclature
	for sku, rec = range cat.BySKU {
		break
	}
	lk := &fakeLocker{}
	x := &Executor{Engine: &Engine{Locker: lk}, Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }}
	job := bulkjobs.Job{ID: "j1", Kind: "prices", SellerID: seller}
	newPrice := rec.Price + 100
	items := []bulkjobs.Item{
		item(t, 1, sku, apiclient.PriceUpdate{MarketplaceSKU: sku, Price: newPrice}),
		item(t, 2, "NO-SUCH-SKU", apiclient.PriceUpdate{MarketplaceSKU: "NO-SUCH-SKU", Price: 100_00}),
	}
	res, err := x.Send(context.Background(), job, items, func(time.Time, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Seq != 1 || res[0].State != bulkjobs.ItemAccepted || res[1].Seq != 2 || res[1].State != bulkjobs.ItemRejected || len(res[1].Message) == 0 {
		t.Fatalf("results %+v; want row 1 accepted, row 2 rejected with the marketplace's reason", res)
	}
	if len(lk.sellers) != 1 || lk.sellers[0] != seller || lk.held != 0 {
		t.Errorf("locks %v, %d held; want seller %d once, released", lk.sellers, lk.held, seller)
	}

	back, err := x.ReadBack(context.Background(), job, items[:1])
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].State != bulkjobs.ReadConfirmed {
		t.Errorf("read-back %+v; want confirmed", back)
	}
}

func TestExecutorErrors(t *testing.T) {
	acct, seller := sandboxAccount(t)
	accounts := func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }
	job := bulkjobs.Job{ID: "j1", Kind: "stock", SellerID: seller}

	// The lock's store down: the runner tries again later.
	x := &Executor{Engine: &Engine{Locker: &fakeLocker{failed: errors.New("down")}}, Accounts: accounts}
	_, err := x.Send(context.Background(), job, []bulkjobs.Item{{Seq: 1, Key: "W|B", Payload: "{}"}}, func(time.Time, int) {})
	var later *bulkjobs.RetryLater
	if !errors.As(err, &later) {
		t.Errorf("lock down: %v, want *bulkjobs.RetryLater", err)
	}

	// A stored row that does not decode stops the job.
	x = &Executor{Engine: &Engine{Locker: &fakeLocker{}}, Accounts: accounts}
	_, err = x.Send(context.Background(), job, []bulkjobs.Item{{Seq: 1, Key: "W|B", Payload: "{"}}, func(time.Time, int) {})
	var stop *bulkjobs.StopError
	if !errors.As(err, &stop) {
		t.Errorf("bad payload: %v, want *bulkjobs.StopError", err)
	}

	// Logged out: as the account source says.
	x = &Executor{Engine: &Engine{Locker: &fakeLocker{}}, Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) {
		return nil, bulkjobs.ErrLoggedOut
	}}
	if _, err := x.Send(context.Background(), job, nil, func(time.Time, int) {}); !errors.Is(err, bulkjobs.ErrLoggedOut) {
		t.Errorf("logged out: %v", err)
	}
}

func TestJobError(t *testing.T) {
	storeDown := errors.New("store down")
	e := &Engine{StoreFailed: func(err error) bool { return errors.Is(err, storeDown) }}
	var later *bulkjobs.RetryLater
	var stop *bulkjobs.StopError
	if err := e.jobError(storeDown); !errors.As(err, &later) {
		t.Errorf("store down: %v, want retry later", err)
	}
	if err := e.jobError(apiclient.ErrUnavailable); !errors.As(err, &later) || later.Status != 503 {
		t.Errorf("unavailable: %v, want retry later (503)", err)
	}
	if err := e.jobError(apiclient.ErrOutcomeUnknown); !errors.Is(err, bulkjobs.ErrOutcomeUnknown) {
		t.Errorf("outcome unknown: %v", err)
	}
	if err := e.jobError(apiclient.ErrUnauthorized); !errors.As(err, &stop) {
		t.Errorf("unauthorized: %v, want a stop", err)
	}
}
