package scaleout

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// A client's secret is rotated. A session still holding the former secret
// presses "refresh now" on instance B, again and again: the former secret
// alone is marked rejected in the shared database, so that session is
// ended on both instances, while a colleague's session holding the new
// secret goes on on both, and the copy's last pass is not marked stopped.
func TestRotatedSecretAcrossInstances(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	staleA := p.A.Browser(t)
	staleA.Login(demoClientID, demoSecret, "1001", "test")
	key := copystore.Key{SellerID: demoSeller, Env: "test"}
	complete := func() bool {
		st, err := p.A.Catalog.Store().SyncStates(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range copystore.Kinds {
			if !st[kind].Complete() || st[kind].Running {
				return false
			}
		}
		return !p.A.Catalog.Running(key) && !p.B.Catalog.Running(key)
	}
	if !waitFor(time.Minute, complete) { // a backstop, not a measurement
		t.Fatal("the first copy: not made in a minute")
	}

	p.Sandbox.RotateSecret(demoClientID, "rotated-secret-1001")
	p.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute) // the former secret's tokens have expired
	freshB := p.B.Browser(t)
	freshB.Login(demoClientID, "rotated-secret-1001", "1001", "test")
	freshA := on(t, freshB, p.B, p.A)
	staleB := on(t, staleA, p.A, p.B)

	staleB.Post("/sync/refresh", url.Values{})
	former := copystore.CredentialOf(demoClientID, "test", demoSecret)
	marked := func() bool {
		rejected, err := p.A.Catalog.Store().CredentialRejected(context.Background(), former)
		if err != nil {
			t.Fatal(err)
		}
		return rejected && !p.B.Catalog.Running(key)
	}
	if !waitFor(time.Minute, marked) {
		t.Fatal("the former secret is not marked rejected")
	}
	for i := range 3 {
		for _, b := range []*testapp.Browser{freshA, freshB} {
			for _, path := range []string{"/", "/nomenclature?q=a"} {
				if pg := b.Get(path); pg.Status != http.StatusOK {
					t.Fatalf("round %d: %s with the new secret: %d to %q, want 200", i, path, pg.Status, pg.Location)
				}
			}
		}
		for _, b := range []*testapp.Browser{staleA, staleB} {
			if pg := b.Post("/sync/refresh", url.Values{}); pg.Status != http.StatusSeeOther || pg.Location != "/login" {
				t.Errorf("round %d: refresh with the former secret: %d to %q, want the login page", i, pg.Status, pg.Location)
			}
		}
	}
	st, err := p.B.Catalog.Store().SyncStates(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range copystore.Kinds {
		if st[kind].Stopped() {
			t.Errorf("%s: the copy's pass is marked stopped (%s) for every session", kind, st[kind].LastError)
		}
	}
}
