package handlers

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// fullDeps are Deps with every required dependency, over a fresh SQLite
// database and a marketplace nobody answers at.
func fullDeps(t *testing.T) (Deps, *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	backend, err := sessions.NewBackend(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	store, err := sessions.NewStore(backend, sessions.Options{Keys: [][]byte{bytes.Repeat([]byte{7}, sessions.KeySize)}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: "http://127.0.0.1:1", B2BTestBaseURL: "http://127.0.0.1:1", SellerBaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	acc, err := accounts.New(accounts.Options{API: api, Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := copystore.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	m := copystore.NewManager(&copystore.Syncer{Store: cs, Lock: db}, 0, 0, nil)
	t.Cleanup(m.Close)
	js, err := bulkjobs.NewStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	as, err := audit.NewStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return Deps{API: api, Sessions: store, Accounts: acc, Engine: &massupdate.Engine{Locker: db},
		Catalog: m, Jobs: bulkjobs.NewRunner(js, bulkjobs.RunnerOptions{}), Audit: as}, db
}

// TestNewRequiresSubsystems: the local copy, the bulk jobs and the audit
// trail are part of every dashboard; Deps without one is refused, and the
// error names it.
func TestNewRequiresSubsystems(t *testing.T) {
	t.Parallel()
	full, _ := fullDeps(t)
	if _, err := New(full); err != nil {
		t.Fatalf("every dependency given: %v", err)
	}
	for name, drop := range map[string]func(*Deps){
		"Catalog": func(d *Deps) { d.Catalog = nil },
		"Jobs":    func(d *Deps) { d.Jobs = nil },
		"Audit":   func(d *Deps) { d.Audit = nil },
		"Engine":  func(d *Deps) { d.Engine = nil },
	} {
		d := full
		drop(&d)
		_, err := New(d)
		if err == nil || !strings.Contains(err.Error(), "Deps."+name+" ") {
			t.Errorf("without %s: %v", name, err)
		}
	}
}
