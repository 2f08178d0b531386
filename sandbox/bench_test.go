package sandbox

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The dashboard's benchmarks use a 50-row list as their baseline; these show
// what the sandbox itself costs for one.

func benchServe(b *testing.B, s *Sandbox, newReq func() *http.Request) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, newReq())
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.Bytes())
		}
	}
}

func BenchmarkOrdersList50(b *testing.B) {
	s := New(Options{})
	tok := b2bToken(b, s, "", cred1001)
	benchServe(b, s, func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/api/v1/orders?limit=50&page=2", nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		return r
	})
}

func BenchmarkNomenclatureList50(b *testing.B) {
	s := New(Options{})
	tok := sellerToken(b, s, cred1001)
	const body = `{"jsonrpc":"2.0","id":"b","method":"v1.nomenclatures.list","params":{"seller_id":1001,"page":3,"limit":50}}`
	benchServe(b, s, func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/jsonrpc", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tok)
		return r
	})
}

func BenchmarkReturnBoxes50(b *testing.B) {
	s := New(Options{})
	tok := sellerToken(b, s, cred1001)
	benchServe(b, s, func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001&limit=50", nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		return r
	})
}
