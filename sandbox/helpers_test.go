package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Seeded credentials used throughout the tests.
var (
	cred1001 = seededCredentials[0]
	cred1002 = seededCredentials[1]
	cred1003 = seededCredentials[2]
)

// result is a recorded answer.
type result struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into a generic value for cmp.Diff.
func (r result) json(t testing.TB) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, short(r.body))
	}
	return v
}

// doReq sends one request straight to the handler.
func doReq(t testing.TB, h http.Handler, method, target, body string, header ...string) result {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return result{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// mustJSON parses a JSON literal of an expected body.
func mustJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON %q: %v", s, err)
	}
	return v
}

// expect asserts status and exact JSON body.
func expect(t testing.TB, got result, status int, body string) {
	t.Helper()
	if got.status != status {
		t.Errorf("status = %d, want %d; body %s", got.status, status, got.body)
	}
	if diff := cmp.Diff(mustJSON(t, body), got.json(t)); diff != "" {
		t.Errorf("body mismatch (-want +got):\n%s", diff)
	}
}

// b2bToken obtains a B2B token; prefix is "" (production) or "/test".
func b2bToken(t testing.TB, s *Sandbox, prefix string, c Credential) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"client_id": c.ClientID, "client_secret": c.ClientSecret, "grant_type": "client_credentials"})
	r := doReq(t, s, http.MethodPost, prefix+"/auth/token", string(body))
	if r.status != http.StatusOK {
		t.Fatalf("b2b token: %d %s", r.status, r.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(r.body, &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("b2b token body: %s", r.body)
	}
	return tok.AccessToken
}

// sellerToken obtains a seller JSON-RPC token.
func sellerToken(t testing.TB, s *Sandbox, c Credential) string {
	t.Helper()
	r := rpc(t, s, "", "v1.tokens.create", map[string]any{"client_id": c.ClientID, "client_secret": c.ClientSecret, "grant_type": "client_credentials"})
	var env struct {
		Result struct {
			AccessToken string `json:"access_token"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Result.AccessToken == "" {
		t.Fatalf("seller token: %s", r.body)
	}
	return env.Result.AccessToken
}

// rpc calls a JSON-RPC method with id "t-1".
func rpc(t testing.TB, s http.Handler, token, method string, params any) result {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "t-1", "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	var hdr []string
	if token != "" {
		hdr = []string{"Authorization", "Bearer " + token}
	}
	r := doReq(t, s, http.MethodPost, "/jsonrpc", string(body), hdr...)
	if r.status != http.StatusOK {
		t.Fatalf("JSON-RPC answered HTTP %d: %s", r.status, r.body)
	}
	return r
}

// rpcResultOf decodes the result member into v, failing on an error member.
func rpcResultOf(t testing.TB, r result, v any) {
	t.Helper()
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("bad envelope: %v: %s", err, r.body)
	}
	if env.Error != nil || env.Result == nil {
		t.Fatalf("want a result, got %s", r.body)
	}
	dec := json.NewDecoder(bytes.NewReader(env.Result))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode result: %v: %s", err, env.Result)
	}
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// httptestRequest builds a request without touching Content-Type.
func httptestRequest(method, target, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	return httptest.NewRequest(method, target, rd)
}

// serve runs req through h.
func serve(h http.Handler, req *http.Request) result {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return result{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// short trims a body for failure messages.
func short(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}
