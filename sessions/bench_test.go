package sessions

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// BenchmarkSQLiteRequest measures one request's session work: load and save
// of a logged-in session, unchanged (the common case: no write) and with a
// changed payload (one write).
func BenchmarkSQLiteRequest(b *testing.B) {
	be, err := NewBackend(context.Background(), sqldbtest.SQLite(b))
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	e := newEnv(b, be, nil)
	_, c := e.login()
	for _, tc := range []struct {
		name  string
		write bool
	}{{"unchanged", false}, {"changed", true}} {
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				s, err := e.store.Load(request(c))
				if err != nil {
					b.Fatal(err)
				}
				if tc.write {
					n++
					s.Data().DisplayName = strconv.Itoa(n)
				}
				if err := s.Save(request(), httptest.NewRecorder()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPostgresLoad compares the PostgreSQL backend's Load, which
// talks to the DB's pgxpool directly, with the same query read through
// database/sql over the same pool (sqldb.DB.Reader): the reason the hot
// path keeps pgx. Needs SELLERDESK_TEST_POSTGRES_URL.
func BenchmarkPostgresLoad(b *testing.B) {
	ctx := context.Background()
	db := sqldbtest.Postgres(b)
	be, err := NewBackend(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	id := newID()
	if err := be.Create(ctx, Record{ID: id, Payload: make([]byte, 600), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"b2b", "seller"} {
		if err := be.SaveToken(ctx, id, name, make([]byte, 900), now); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("pgxpool", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rec, err := be.Load(ctx, id); err != nil || len(rec.Tokens) != 2 {
				b.Fatal(len(rec.Tokens), err)
			}
		}
	})
	b.Run("database-sql", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rec, err := loadThroughSQL(ctx, db.Reader(), id); err != nil || len(rec.Tokens) != 2 {
				b.Fatal(len(rec.Tokens), err)
			}
		}
	})
}

// loadThroughSQL is pgBackend.Load written for database/sql.
func loadThroughSQL(ctx context.Context, r *sql.DB, id string) (Record, error) {
	rows, err := r.QueryContext(ctx, `SELECT s.payload, s.created_at, s.last_seen, s.expires_at, t.name, t.sealed
		FROM sessions s LEFT JOIN session_tokens t ON t.session_id = s.id WHERE s.id = $1`, id)
	if err != nil {
		return Record{}, err
	}
	defer rows.Close()
	rec := Record{ID: id, Tokens: make(map[string][]byte, 2)}
	for rows.Next() {
		var name sql.NullString
		var sealed []byte
		if err := rows.Scan(&rec.Payload, &rec.CreatedAt, &rec.LastSeen, &rec.ExpiresAt, &name, &sealed); err != nil {
			return Record{}, err
		}
		if name.Valid {
			rec.Tokens[name.String] = sealed
		}
	}
	return rec, rows.Err()
}

// BenchmarkSQLiteRequestAccounts is BenchmarkSQLiteRequest's unchanged
// request in a session holding one account and in one holding
// MaxAccounts, each with both its tokens (P14's per-request cost).
func BenchmarkSQLiteRequestAccounts(b *testing.B) {
	be, err := NewBackend(context.Background(), sqldbtest.SQLite(b))
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	e := newEnv(b, be, nil)
	t := &testing.T{}
	for _, n := range []int{1, MaxAccounts} {
		s, c := e.login()
		d := s.Data()
		d.SetOnlyAccount(d.Current())
		for i := 1; i < n; i++ {
			if err := d.AddAccount(Account{ClientID: "client-" + strconv.Itoa(i), ClientSecret: "secret-" + strconv.Itoa(i), Environment: "test", SellerID: int64(100 + i)}); err != nil {
				b.Fatal(err)
			}
		}
		save(b, s)
		now := e.clock.Now()
		for _, a := range d.AccountList() {
			for _, name := range []string{"b2b/test", "seller"} {
				tok := StoredToken{AccessToken: sandboxJWT(t, a, name, now), RefreshToken: randomHex(t, 32), IssuedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
				if err := e.store.SaveToken(context.Background(), s.ID(), a.ID()+"/"+name, tok); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run("accounts="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := e.store.Load(request(c))
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Save(request(), httptest.NewRecorder()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
