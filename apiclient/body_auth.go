package apiclient

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Some gateways of the marketplace answer a request whose token they no
// longer accept with status 200 and the refusal in the body
// ({"error": {"message": "invalid_grant"}}, or OAuth's {"error":
// "invalid_grant"}). Such an answer is a 401: the call renews its token
// once (authed); a read is sent again, a write is not, because a 200 says
// nothing certain about what happened to it.

// authWords are the error names that mean the token (or the credentials
// behind it) was refused. They are compared without case.
var authWords = []string{"invalid_grant", "invalid_token", "invalid_client", "unauthorized", "unauthenticated"}

// authWord returns the auth error name s is, or "".
func authWord(s string) string {
	s = strings.TrimSpace(s)
	for _, w := range authWords {
		if strings.EqualFold(s, w) {
			return w
		}
	}
	return ""
}

// okBodyAuthError is an auth error a 2xx answer carried in its body. It
// matches ErrUnauthorized.
type okBodyAuthError struct {
	op, requestID string
	status        int
	what          string // one of authWords, or "code 401": never the answer's own text
}

func (e *okBodyAuthError) Error() string {
	var b strings.Builder
	b.WriteString("apiclient: ")
	b.WriteString(e.op)
	b.WriteString(": the answer refuses the token (")
	b.WriteString(e.what)
	b.WriteString(") although its status is a success")
	writeRequestID(&b, e.requestID)
	return b.String()
}

// Is matches ErrUnauthorized.
func (e *okBodyAuthError) Is(target error) bool { return target == ErrUnauthorized }

// authInOKBody returns the auth error a 2xx answer to an authenticated
// request carries in its body, or nil. A JSON-RPC envelope is left to the
// envelope's own decoding (RPCError matches ErrUnauthorized for the same
// names). Bodies that cannot hold such an error are not parsed.
func authInOKBody(r *response) error {
	if r.status < 200 || r.status > 299 || !bytes.Contains(r.body, []byte(`"error"`)) {
		return nil
	}
	var w struct {
		JSONRPC jsontext.Value `json:"jsonrpc"`
		Error   jsontext.Value `json:"error"`
	}
	if unmarshal(r.body, &w) != nil || len(w.JSONRPC) > 0 || len(w.Error) == 0 {
		return nil
	}
	what := ""
	switch w.Error.Kind() {
	case '"':
		var s string
		if unmarshal(w.Error, &s) == nil {
			what = authWord(s)
		}
	case '{':
		var e struct {
			Code    jsontext.Value `json:"code"`
			Message string         `json:"message"`
		}
		if unmarshal(w.Error, &e) != nil {
			return nil
		}
		code := strings.Trim(string(e.Code), `"`)
		switch {
		case code == "401":
			what = "code 401"
		case authWord(code) != "":
			what = authWord(code)
		default:
			what = authWord(e.Message)
		}
	}
	if what == "" {
		return nil
	}
	return &okBodyAuthError{op: r.op, requestID: r.requestID, status: r.status, what: what}
}
