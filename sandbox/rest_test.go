package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type boxList struct {
	Data       []returnBoxJSON `json:"data"`
	Pagination paginationJSON  `json:"pagination"`
}

func TestReturnBoxes(t *testing.T) {
	s := New(Options{})
	tok := sellerToken(t, s, cred1001)
	get := func(query string) result {
		return doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes"+query, "", bearer(tok)...)
	}
	list := func(query string) boxList {
		t.Helper()
		r := get(query)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, r.status, r.body)
		}
		var l boxList
		if err := json.Unmarshal(r.body, &l); err != nil {
			t.Fatal(err)
		}
		return l
	}

	l := list("?seller_id=1001&limit=100")
	if l.Pagination != (paginationJSON{Page: 1, Limit: 100, Pages: 1, Total: 60}) || len(l.Data) != 60 {
		t.Fatalf("pagination %+v, %d boxes", l.Pagination, len(l.Data))
	}
	statuses := map[string]int{}
	for i, b := range l.Data {
		statuses[b.Status]++
		if !strings.HasPrefix(b.Code, "B-XD") || b.DimensionSymbol == "" || b.ItemQuantity <= 0 {
			t.Errorf("box %+v", b)
		}
		if (b.Status == "shipped") != (b.ShippedAt != nil) {
			t.Errorf("shipped_at and status disagree: %+v", b)
		}
		if i > 0 && b.CreatedAt.After(l.Data[i-1].CreatedAt) {
			t.Errorf("not newest first at %d", i)
		}
	}
	for _, st := range returnBoxStatuses {
		if statuses[st] == 0 {
			t.Errorf("no box with status %s", st)
		}
	}
	if l := list("?seller_id=1001"); l.Pagination != (paginationJSON{Page: 1, Limit: 20, Pages: 3, Total: 60}) || len(l.Data) != 20 {
		t.Fatalf("defaults: %+v", l.Pagination)
	}
	if l := list("?seller_id=1001&status=shipped&limit=100"); l.Pagination.Total != statuses["shipped"] {
		t.Fatalf("status filter: %+v", l.Pagination)
	}
	mid := l.Data[30].CreatedAt
	if l := list("?seller_id=1001&limit=100&created_from=" + mid.Format("2006-01-02T15:04:05Z")); l.Pagination.Total != 31 {
		t.Fatalf("created_from: %d", l.Pagination.Total)
	}
	if l := list("?seller_id=1001&page=4"); len(l.Data) != 0 || l.Pagination.Total != 60 {
		t.Fatalf("past the end: %+v", l)
	}

	v := func(details string) string {
		return `{"error":{"code":"VALIDATION_FAILED","message":"request validation failed","details":[` + details + `]}}`
	}
	tests := []struct {
		name, query string
		status      int
		want        string
	}{
		{"missing seller_id", "", 400, v(`{"field":"seller_id","issue":"is required"}`)},
		{"empty seller_id", "?seller_id=", 400, v(`{"field":"seller_id","issue":"is required"}`)},
		{"seller_id text", "?seller_id=abc", 400, v(`{"field":"seller_id","issue":"must be a positive integer"}`)},
		{"limit out of range", "?seller_id=1001&limit=0", 400, v(`{"field":"limit","issue":"must be between 1 and 100"}`)},
		{"limit type", "?seller_id=1001&limit=ten", 400, v(`{"field":"limit","issue":"must be an integer"}`)},
		{"page out of range", "?seller_id=1001&page=-1", 400, v(`{"field":"page","issue":"must be between 1 and 1000000"}`)},
		{"unknown status", "?seller_id=1001&status=lost", 400, v(`{"field":"status","issue":"must be one of in_progress, accepted, loading, shipped"}`)},
		{"bad date", "?seller_id=1001&created_from=2026-11-01", 400, v(`{"field":"created_from","issue":"must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z"}`)},
		{"range backwards", "?seller_id=1001&created_from=2026-11-02T00:00:00Z&created_to=2026-11-01T00:00:00Z", 400, v(`{"field":"created_to","issue":"must not be before created_from"}`)},
		{"several", "?limit=500&status=x", 400, v(`{"field":"seller_id","issue":"is required"},{"field":"limit","issue":"must be between 1 and 100"},{"field":"status","issue":"must be one of in_progress, accepted, loading, shipped"}`)},
		{"bad query", "?seller_id=1001&x=%zz", 400, `{"error":{"code":"VALIDATION_FAILED","message":"the query string is malformed","details":[{"field":"query","issue":"is not a valid URL query"}]}}`},
		{"another seller", "?seller_id=1002", 403, `{"error":{"code":"FORBIDDEN","message":"seller_id 1002 is not the seller of this token"}}`},
		{"unknown seller", "?seller_id=77", 403, `{"error":{"code":"FORBIDDEN","message":"seller_id 77 is not the seller of this token"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expect(t, get(tc.query), tc.status, tc.want) })
	}

	t.Run("single box", func(t *testing.T) {
		code := s.ReturnBoxCodes(1001)[0]
		r := doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes/"+code, "", bearer(tok)...)
		var one struct {
			Data returnBoxJSON `json:"data"`
		}
		_ = json.Unmarshal(r.body, &one)
		if r.status != 200 || one.Data.Code != code {
			t.Fatalf("%d %s", r.status, r.body)
		}
		notFound := `{"error":{"code":"NOT_FOUND","message":"return box not found"}}`
		expect(t, doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes/"+s.ReturnBoxCodes(1002)[0], "", bearer(tok)...), 404, notFound)
		expect(t, doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes/B-XD000000X", "", bearer(tok)...), 404, notFound)
	})
	t.Run("unknown path", func(t *testing.T) {
		expect(t, doReq(t, s, http.MethodGet, "/api/v2/fbs/boxes", "", bearer(tok)...), 404, `{"error":{"code":"NOT_FOUND","message":"no such resource: /api/v2/fbs/boxes"}}`)
	})
	t.Run("wrong method", func(t *testing.T) {
		r := doReq(t, s, http.MethodPost, "/api/v2/fbs/return-boxes?seller_id=1001", "{}", bearer(tok)...)
		expect(t, r, 405, `{"error":{"code":"METHOD_NOT_ALLOWED","message":"use GET"}}`)
	})
	t.Run("b2b token refused", func(t *testing.T) {
		r := doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001", "", bearer(b2bToken(t, s, "", cred1001))...)
		expect(t, r, 401, `{"error":{"code":"UNAUTHORIZED","message":"access token was issued for another environment or interface"}}`)
	})
	t.Run("503", func(t *testing.T) {
		s.InjectFault(Fault{Route: RouteReturnBoxes, Kind: FaultUnavailable})
		expect(t, get("?seller_id=1001"), 503, `{"error":{"code":"SERVICE_UNAVAILABLE","message":"service temporarily unavailable; retry with exponential delay"}}`)
		if r := get("?seller_id=1001"); r.status != 200 {
			t.Fatalf("one-shot fault fired twice: %d", r.status)
		}
	})
}
