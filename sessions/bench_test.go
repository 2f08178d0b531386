package sessions

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

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
