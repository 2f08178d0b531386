package app_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

func hasRoute(h *handlers.App, method, path string) bool {
	return slices.Contains(h.Routes(), handlers.Route{Method: method, Path: path})
}

// New builds the whole dashboard from one Config: the demo sandbox, the
// database with a generated key kept in the key file, the job runner bound
// to the dashboard's executor and started, the routes; Close stops it all.
func TestNewWithJobs(t *testing.T) {
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
	if _, err := os.Stat(filepath.Join(dir, "sellerdesk.db.key")); err != nil {
		t.Errorf("no generated key file: %v", err)
	}
	if a.Demo == nil || a.DB == nil || a.Jobs == nil || a.JobStore == nil || a.Sessions == nil || a.SessionBackend == nil || a.API == nil {
		t.Fatalf("missing parts: %+v", a)
	}
	if !hasRoute(a.Handler, http.MethodPost, "/bulk/import") {
		t.Error("no bulk import route with a job runner")
	}
	// The runner is bound and started: binding again after New is fine,
	// but a runner New left unbound would have failed to start.
	w := httptest.NewRecorder()
	a.Handler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/login", nil))
	if w.Code != http.StatusOK {
		t.Errorf("GET /login: %d", w.Code)
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	// The demo sandbox is gone with it.
	if _, err := http.Get(a.Demo.B2BURL + "/"); err == nil {
		t.Error("the demo sandbox still answers after Close")
	}
}

// TestNewDefaultsSubsystems: a Config that leaves out the options of the
// bulk jobs, the local copy and the audit trail still builds all three, and
// the dashboard has the one route table of every build.
func TestNewDefaultsSubsystems(t *testing.T) {
	a, err := app.New(context.Background(), app.Config{
		DemoSandbox: &sandbox.Options{},
		DatabaseURL: filepath.Join(t.TempDir(), "s.db"),
		KeyFile:     filepath.Join(t.TempDir(), "s.key"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Jobs == nil || a.JobStore == nil || a.Catalog == nil || a.Audit == nil {
		t.Errorf("subsystems left out: jobs %v, job store %v, copy %v, audit %v", a.Jobs != nil, a.JobStore != nil, a.Catalog != nil, a.Audit != nil)
	}
	for _, r := range []struct{ method, path string }{
		{http.MethodPost, "/bulk/import"}, {http.MethodGet, "/history"}, {http.MethodPost, "/sync/refresh"},
	} {
		if !hasRoute(a.Handler, r.method, r.path) {
			t.Errorf("no route %s %s", r.method, r.path)
		}
	}
}

// A database that cannot be opened fails New, and what was started before
// it (the demo sandbox) is stopped.
func TestNewFailsCleanly(t *testing.T) {
	_, err := app.New(context.Background(), app.Config{
		DemoSandbox: &sandbox.Options{},
		DatabaseURL: filepath.Join(t.TempDir(), "no-such-dir", "s.db"),
		KeyFile:     filepath.Join(t.TempDir(), "s.key"),
	})
	if err == nil {
		t.Fatal("New on a missing folder succeeded")
	}
	_, err = app.New(context.Background(), app.Config{DatabaseURL: filepath.Join(t.TempDir(), "s.db")})
	if err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("New without keys or key file: %v", err)
	}
}

// Config.Profile reaches both the client and the demo sandbox: with the
// lamoda profile the client prices by card and cannot send stock, the
// job executor sends cards, and a demo account lists product cards (which
// a client and sandbox of different profiles could not do).
func TestNewProfile(t *testing.T) {
	dir := t.TempDir()
	a, err := app.New(context.Background(), app.Config{
		DemoSandbox: &sandbox.Options{},
		Profile:     apiclient.ProfileLamoda,
		Country:     "KZ",
		DatabaseURL: filepath.Join(dir, "sellerdesk.db"),
		KeyFile:     filepath.Join(dir, "sellerdesk.db.key"),
		Dashboard:   handlers.Deps{Demo: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if !a.API.PricesByCard() || a.API.StockUpdates() || !a.Executor.PricesByCard {
		t.Errorf("client: by card %t, stock %t, executor by card %t; want the lamoda profile's", a.API.PricesByCard(), a.API.StockUpdates(), a.Executor.PricesByCard)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := a.API.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Test}, nil)
	n := 0
	for rec, err := range acct.Seller.AllNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: cred.SellerID, Limit: 50}) {
		if err != nil {
			t.Fatal(err)
		}
		if rec.ParentSKU == "" {
			t.Fatalf("record %s without its card", rec.MarketplaceSKU)
		}
		if n++; n == 5 {
			break
		}
	}
	if n == 0 {
		t.Error("the demo sandbox listed nothing")
	}
}
