package copystore

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// backend is one database under test: open returns another Store on it (a
// second instance), lock a per-key lock shared by every instance on it.
type backend struct {
	open func() *Store
	lock Locker
}

// eachBackend runs fn against a fresh SQLite file and, when
// SELLERDESK_TEST_POSTGRES_URL is set, against a fresh PostgreSQL schema.
func eachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, newBackend(t, filepath.Join(t.TempDir(), "catalog.db")))
	})
	t.Run("postgres", func(t *testing.T) {
		fn(t, newBackend(t, sqldbtest.PostgresURL(t)))
	})
}

// newBackend opens the database at url for the per-seller lock; open
// opens it again for each Store, as another instance would.
func newBackend(t testing.TB, url string) backend {
	t.Helper()
	db := openDB(t, url)
	return backend{open: func() *Store {
		s, err := New(setupContext(t), openDB(t, url))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, lock: db}
}

func openDB(t testing.TB, url string) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(setupContext(t), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// setupTimeout bounds opening and migrating a test's database. Without a
// deadline of its own a migration gets sqldb's production bound (30 s);
// the tests run several at once, beside other packages, on two busy cores,
// where sixteen steps on a fresh database can take longer than that.
const setupTimeout = 5 * time.Minute

func setupContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	t.Cleanup(cancel)
	return ctx
}

// testKey is a key with an environment name of the test's own, so tests
// sharing a PostgreSQL database never see each other's rows.
func testKey(seller int64) Key {
	b := []byte("prod")
	for range 8 {
		b = append(b, byte('a'+rand.IntN(26)))
	}
	return Key{SellerID: seller, Env: string(b)}
}

// market is a sandbox on a loopback port and a client of it.
type market struct {
	sb  *sandbox.Sandbox
	api *apiclient.Client
}

func newMarket(t *testing.T, opts sandbox.Options) *market {
	t.Helper()
	sb := sandbox.New(opts)
	m, err := demo.Start(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	api, err := apiclient.New(apiclient.Options{B2BBaseURL: m.B2BURL, B2BTestBaseURL: m.B2BTestURL, SellerBaseURL: m.SellerURL, Now: sb.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &market{sb: sb, api: api}
}

// source is seller's lists through the client, as the dashboard reads them.
func (m *market) source(seller int64) AccountSource {
	for _, c := range sandbox.SeededCredentials() {
		if c.SellerID == seller {
			return AccountSource{SellerID: seller, Credential: CredentialOf(c.ClientID, "test", c.ClientSecret), Account: m.api.Account(apiclient.Credentials{
				ClientID: c.ClientID, ClientSecret: c.ClientSecret, Environment: apiclient.Test}, nil)}
		}
	}
	panic("no such seller")
}

// words splits s the obvious way, independently of the package's folding:
// lower case, at every rune that is not a letter or a digit.
func words(s string) []string {
	s = strings.ReplaceAll(strings.ToLower(s), "ё", "е")
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// hasWordPrefix reports whether some word of one of fields starts with p.
func hasWordPrefix(p string, fields ...string) bool {
	for _, f := range fields {
		for _, w := range words(f) {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}
