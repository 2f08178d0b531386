package accounts

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// env is an accounts Service over a fresh SQLite session store and the
// sandbox, in process.
type env struct {
	svc     *Service
	store   *sessions.Store
	backend sessions.Backend
	db      *sqldb.DB
	sb      *sandbox.Sandbox
}

type envOptions struct {
	keys   [][]byte
	now    func() time.Time
	limits loginguard.Limits
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	ctx := context.Background()
	m, err := demo.Start(sandbox.New(sandbox.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: m.Sandbox.Now})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	be, err := sessions.NewBackend(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close() })
	if o.keys == nil {
		o.keys = [][]byte{make([]byte, sessions.KeySize)}
	}
	store, err := sessions.NewStore(be, sessions.Options{Keys: o.keys, Now: o.now})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(Options{API: api, Sessions: store, LoginLimits: o.limits, Now: m.Sandbox.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &env{svc: svc, store: store, backend: be, db: db, sb: m.Sandbox}
}

// oldSession is a logged-in session as an earlier version of the
// dashboard stored it (testdata/old_session.json, written through the
// login and add-account forms): two accounts, each with its B2B and
// seller token, sealed under a fixed key.
type oldSession struct {
	Key       []byte            `json:"key"`
	ID        string            `json:"id"`
	Payload   []byte            `json:"payload"`
	CreatedAt time.Time         `json:"created_at"`
	LastSeen  time.Time         `json:"last_seen"`
	ExpiresAt time.Time         `json:"expires_at"`
	Tokens    map[string][]byte `json:"tokens"`
	// Access are the tokens' access tokens by stored name.
	Access map[string]string `json:"access"`
	// Accounts are the IDs of the session's accounts, in order.
	Accounts []string `json:"accounts"`
}

// withOldSession is an env whose store holds the old session, its clock a
// minute after the session was last seen.
func withOldSession(t *testing.T) (*env, oldSession) {
	t.Helper()
	raw, err := os.ReadFile("testdata/old_session.json")
	if err != nil {
		t.Fatal(err)
	}
	var old oldSession
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	now := old.LastSeen.Add(time.Minute)
	e := newEnv(t, envOptions{keys: [][]byte{old.Key}, now: func() time.Time { return now }})
	ctx := context.Background()
	if err := e.backend.Create(ctx, sessions.Record{ID: old.ID, Payload: old.Payload, CreatedAt: old.CreatedAt, LastSeen: old.LastSeen, ExpiresAt: old.ExpiresAt}); err != nil {
		t.Fatal(err)
	}
	for name, sealed := range old.Tokens {
		if err := e.backend.SaveToken(ctx, old.ID, name, sealed, old.LastSeen); err != nil {
			t.Fatal(err)
		}
	}
	return e, old
}

// newSession is a new, empty session of the store.
func newSession(t *testing.T, store *sessions.Store) *sessions.Session {
	t.Helper()
	sess, err := store.Load(httptest.NewRequest("GET", "/", nil))
	if err != nil {
		t.Fatal(err)
	}
	return sess
}
