package apiclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors. Every error returned by this package that stems from an
// answer of the marketplace matches one of these with errors.Is, so callers
// can branch on the meaning without knowing which interface answered.
var (
	// ErrUnauthorized means the credentials or the token were rejected,
	// even after one new token and one retry.
	ErrUnauthorized = errors.New("apiclient: unauthorized")
	// ErrForbidden means the caller may not access the resource, for
	// example another seller's data.
	ErrForbidden = errors.New("apiclient: forbidden")
	// ErrNotFound means the resource does not exist or is not visible.
	ErrNotFound = errors.New("apiclient: not found")
	// ErrRateLimited means the marketplace answered 429 and the retry
	// budget did not allow waiting any longer.
	ErrRateLimited = errors.New("apiclient: rate limited")
	// ErrUnavailable means the marketplace answered 503 (or another
	// temporary server failure) and no retry was possible or allowed.
	ErrUnavailable = errors.New("apiclient: service unavailable")
	// ErrValidation means the request was rejected as invalid; FieldErrors
	// extracts the field-level details where the answer had them.
	ErrValidation = errors.New("apiclient: validation failed")
	// ErrUnexpectedResponse means the answer could not be understood: an
	// HTML page, a wrong content type, invalid, truncated, empty or
	// oversized JSON, or a JSON-RPC response with a foreign id.
	ErrUnexpectedResponse = errors.New("apiclient: unexpected response")
	// ErrOutcomeUnknown means a write was sent but no usable answer came
	// back (timeout, reset, gateway error), so it may or may not have been
	// applied. Such writes are never replayed automatically.
	ErrOutcomeUnknown = errors.New("apiclient: outcome unknown")
)

// sentinelForStatus maps an HTTP status to the sentinel it stands for, or nil.
func sentinelForStatus(status int) error {
	switch status {
	case 400, 422:
		return ErrValidation
	case 401:
		return ErrUnauthorized
	case 403:
		return ErrForbidden
	case 404:
		return ErrNotFound
	case 429:
		return ErrRateLimited
	case 503:
		return ErrUnavailable
	}
	return nil
}

// FieldError is one field-level problem reported by the marketplace, in a
// form that can be shown beside the offending form field. Field may be empty
// when the marketplace did not name a field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// B2BError is the error body of the B2B platform API (spec §7.1):
// {code, description, errors[{field, message}], message}.
type B2BError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the body's code (0 in the documented cases).
	Code int
	// Description is the short text of the body, e.g. "This value is not valid.".
	Description string
	// Message is present on 429 answers only.
	Message string
	// Errors holds the field details of a 400 answer.
	Errors []FieldError
	// RequestID is the X-Request-ID of the failed request.
	RequestID string
}

// Error returns a one-line summary of the error without any credential.
func (e *B2BError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiclient: b2b api: status %d", e.Status)
	if e.Description != "" {
		b.WriteString(": ")
		b.WriteString(e.Description)
	}
	if e.Message != "" && e.Message != e.Description {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	writeFieldErrors(&b, e.Errors)
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is reports whether the error matches the sentinel for its HTTP status.
func (e *B2BError) Is(target error) bool {
	return target != nil && target == sentinelForStatus(e.Status)
}

// GiftCertificateError is the error body of the gift-certificate operations
// of the B2B platform API (spec §7.1): {code, message, description, errors[]}.
// Code follows the JSON-RPC-like table of the spec (32700 parse error, 32600
// invalid request, 32601 not found, 32602 invalid parameters, 32603 internal
// error, 32000 server error, 1 undefined, other values business errors).
type GiftCertificateError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the body's error code.
	Code int
	// Message is the human-readable message.
	Message string
	// Description is the longer description, if any.
	Description string
	// Errors holds additional messages.
	Errors []string
	// RequestID is the X-Request-ID of the failed request.
	RequestID string
}

// Gift-certificate error codes of spec §7.1.
const (
	GiftCodeParseError     = 32700
	GiftCodeInvalidRequest = 32600
	GiftCodeNotFound       = 32601
	GiftCodeInvalidParams  = 32602
	GiftCodeInternal       = 32603
	GiftCodeServer         = 32000
	GiftCodeUndefined      = 1
)

// Error returns a one-line summary of the error without any credential.
func (e *GiftCertificateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiclient: gift certificate: status %d: code %d", e.Status, e.Code)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Description != "" && e.Description != e.Message {
		b.WriteString(": ")
		b.WriteString(e.Description)
	}
	if len(e.Errors) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(e.Errors, "; "))
		b.WriteString(")")
	}
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is matches the sentinel of the HTTP status, and ErrValidation for the
// parse, invalid-request and invalid-parameter codes.
func (e *GiftCertificateError) Is(target error) bool {
	if target == nil {
		return false
	}
	if target == sentinelForStatus(e.Status) {
		return true
	}
	switch e.Code {
	case GiftCodeParseError, GiftCodeInvalidRequest, GiftCodeInvalidParams:
		return target == ErrValidation
	case GiftCodeNotFound:
		return target == ErrNotFound
	}
	return false
}

// RPCError is the error object of a seller JSON-RPC response (spec §7.2):
// {code, message, data}. Codes -32700..-32600 are protocol errors; codes 0 to
// 32000 are business errors such as 401 (token expired or invalid), 403 and
// 404 (product not found).
type RPCError struct {
	// Code is the JSON-RPC error code.
	Code int
	// Message is the human-readable message.
	Message string
	// Data holds the optional details object, verbatim.
	Data json.RawMessage
	// Method is the JSON-RPC method that failed.
	Method string
	// RequestID is the X-Request-ID of the failed request.
	RequestID string
}

// Standard JSON-RPC 2.0 error codes.
const (
	RPCParseError     = -32700
	RPCInvalidRequest = -32600
	RPCMethodNotFound = -32601
	RPCInvalidParams  = -32602
	RPCInternalError  = -32603
)

// Error returns a one-line summary of the error without any credential. The
// data object is not included; use FieldErrors or Data for details.
func (e *RPCError) Error() string {
	var b strings.Builder
	b.WriteString("apiclient: seller rpc")
	if e.Method != "" {
		b.WriteString(" ")
		b.WriteString(e.Method)
	}
	fmt.Fprintf(&b, ": code %d", e.Code)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	writeFieldErrors(&b, rpcFieldErrors(e.Data))
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is maps business codes 401, 403, 404 and 429 to ErrUnauthorized,
// ErrForbidden, ErrNotFound and ErrRateLimited, and -32602 (invalid params)
// and business code 400/422 to ErrValidation. An error whose message is
// an auth error name ("invalid_grant", ...) matches ErrUnauthorized
// whatever its code.
func (e *RPCError) Is(target error) bool {
	if target == nil {
		return false
	}
	if e.Code == RPCInvalidParams {
		return target == ErrValidation
	}
	if target == ErrUnauthorized && authWord(e.Message) != "" {
		return true // a refusal of the token under another code
	}
	return target == sentinelForStatus(e.Code)
}

// RESTErrorDetail is one entry of the details of a seller REST error.
type RESTErrorDetail struct {
	Field string `json:"field"`
	Issue string `json:"issue"`
}

// RESTError is the error body of the seller REST API (spec §7.3):
// {error: {code, message, details[{field, issue}]}}.
type RESTError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the symbolic code, e.g. "VALIDATION_FAILED".
	Code string
	// Message is the human-readable message.
	Message string
	// Details holds the field details of a validation failure.
	Details []RESTErrorDetail
	// RequestID is the X-Request-ID of the failed request.
	RequestID string
}

// Error returns a one-line summary of the error without any credential.
func (e *RESTError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiclient: seller rest: status %d", e.Status)
	if e.Code != "" {
		b.WriteString(": ")
		b.WriteString(e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	writeFieldErrors(&b, restFieldErrors(e.Details))
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is matches the sentinel of the HTTP status or of the symbolic code.
func (e *RESTError) Is(target error) bool {
	if target == nil {
		return false
	}
	if target == sentinelForStatus(e.Status) {
		return true
	}
	switch e.Code {
	case "VALIDATION_FAILED":
		return target == ErrValidation
	case "UNAUTHORIZED":
		return target == ErrUnauthorized
	case "FORBIDDEN":
		return target == ErrForbidden
	case "NOT_FOUND":
		return target == ErrNotFound
	case "SERVICE_UNAVAILABLE":
		return target == ErrUnavailable
	}
	return false
}

// UnexpectedResponseError reports an answer that could not be understood. It
// never contains the body itself, only a short reason.
type UnexpectedResponseError struct {
	// Op names the operation, e.g. "b2b list orders".
	Op string
	// Status is the HTTP status of the answer (0 if none).
	Status int
	// ContentType is the Content-Type header of the answer.
	ContentType string
	// Reason is a short explanation, e.g. "invalid JSON at offset 17".
	Reason string
	// RequestID is the X-Request-ID of the failed request.
	RequestID string
}

// Error returns a one-line summary without the body.
func (e *UnexpectedResponseError) Error() string {
	var b strings.Builder
	b.WriteString("apiclient: unexpected response")
	if e.Op != "" {
		b.WriteString(" to ")
		b.WriteString(e.Op)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, ": status %d", e.Status)
	}
	if e.ContentType != "" {
		fmt.Fprintf(&b, ", content type %q", truncate(e.ContentType, 64))
	}
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is matches ErrUnexpectedResponse, and also the sentinel of a meaningful
// HTTP status (for example an HTML page served with 503 is ErrUnavailable).
func (e *UnexpectedResponseError) Is(target error) bool {
	if target == nil {
		return false
	}
	if target == ErrUnexpectedResponse {
		return true
	}
	if e.Status == 400 || e.Status == 422 {
		return false // an unreadable 400 carries no validation details
	}
	return target == sentinelForStatus(e.Status)
}

// RateLimitError is returned when the marketplace answered 429 (or 503) and
// the retry budget, the context deadline or the operation's policy did not
// allow waiting for another attempt. It matches ErrRateLimited for 429 and
// ErrUnavailable for 503, and unwraps to the decoded error body, if any.
type RateLimitError struct {
	// RetryAt is the earliest time at which another attempt makes sense: the
	// end of the wait that was not taken (backoff or Retry-After, whichever
	// is later).
	RetryAt time.Time
	// Attempts is the number of requests sent for this call.
	Attempts int
	// Status is the HTTP status of the last answer (429 or 503).
	Status int
	// RequestID is the X-Request-ID of the last request.
	RequestID string
	// Err is the decoded error body of the last answer, if any.
	Err error
}

// Error returns a one-line summary without any credential.
func (e *RateLimitError) Error() string {
	var b strings.Builder
	if e.Status == 503 {
		b.WriteString("apiclient: service unavailable")
	} else {
		b.WriteString("apiclient: rate limited")
	}
	fmt.Fprintf(&b, " after %d attempt", e.Attempts)
	if e.Attempts != 1 {
		b.WriteString("s")
	}
	if !e.RetryAt.IsZero() {
		fmt.Fprintf(&b, "; retry at %s", e.RetryAt.UTC().Format(time.RFC3339))
	}
	if e.Err != nil {
		if m := innerMessage(e.Err); m != "" {
			b.WriteString(": ")
			b.WriteString(m)
		}
	}
	writeRequestID(&b, e.RequestID)
	return b.String()
}

// Is matches ErrRateLimited (429) or ErrUnavailable (503).
func (e *RateLimitError) Is(target error) bool {
	if e.Status == 503 {
		return target == ErrUnavailable
	}
	return target == ErrRateLimited
}

// Unwrap returns the decoded error body of the last answer.
func (e *RateLimitError) Unwrap() error { return e.Err }

// CredentialsError reports that a token endpoint rejected the credentials
// (the B2B platform answers 400 for a wrong pair, the seller JSON-RPC API a
// business error 401). It matches ErrUnauthorized and unwraps to the decoded
// error body (*B2BError, *RPCError, ...).
type CredentialsError struct {
	// Kind is the token that could not be obtained.
	Kind TokenKind
	// Environment is the environment of the credentials.
	Environment Environment
	// Err is the decoded answer of the token endpoint.
	Err error
}

// Error returns a one-line summary without any credential.
func (e *CredentialsError) Error() string {
	s := fmt.Sprintf("apiclient: %s credentials rejected (%s)", e.Kind, e.Environment)
	if e.Err != nil {
		if m := innerMessage(e.Err); m != "" {
			s += ": " + m
		}
	}
	return s
}

// Is matches ErrUnauthorized.
func (e *CredentialsError) Is(target error) bool { return target == ErrUnauthorized }

// Unwrap returns the decoded answer of the token endpoint.
func (e *CredentialsError) Unwrap() error { return e.Err }

// outcomeUnknownError wraps a failure of a write whose outcome is unknown.
type outcomeUnknownError struct {
	op  string
	err error
}

func (e *outcomeUnknownError) Error() string {
	return "apiclient: " + e.op + ": outcome unknown, not retried: " + innerMessage(e.err)
}

func (e *outcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }
func (e *outcomeUnknownError) Unwrap() error        { return e.err }

// innerMessage strips the package prefix of a nested error message.
func innerMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "apiclient: ")
}

// FieldErrors returns the field-level details carried by err: the errors of a
// B2B 400, the details of a seller REST validation failure, the field details
// of a JSON-RPC error's data, or the messages of a gift-certificate error.
// It returns nil when err carries none.
func FieldErrors(err error) []FieldError {
	if err == nil {
		return nil
	}
	var b2b *B2BError
	if errors.As(err, &b2b) && len(b2b.Errors) > 0 {
		return append([]FieldError(nil), b2b.Errors...)
	}
	var local *RequestError
	if errors.As(err, &local) && len(local.Fields) > 0 {
		return append([]FieldError(nil), local.Fields...)
	}
	var rest *RESTError
	if errors.As(err, &rest) && len(rest.Details) > 0 {
		return restFieldErrors(rest.Details)
	}
	var rpc *RPCError
	if errors.As(err, &rpc) {
		if fe := rpcFieldErrors(rpc.Data); len(fe) > 0 {
			return fe
		}
	}
	var gift *GiftCertificateError
	if errors.As(err, &gift) && len(gift.Errors) > 0 {
		out := make([]FieldError, len(gift.Errors))
		for i, m := range gift.Errors {
			out[i] = FieldError{Message: m}
		}
		return out
	}
	return nil
}

func restFieldErrors(d []RESTErrorDetail) []FieldError {
	if len(d) == 0 {
		return nil
	}
	out := make([]FieldError, len(d))
	for i, x := range d {
		out[i] = FieldError{Field: x.Field, Message: x.Issue}
	}
	return out
}

// rpcFieldErrors reads field details from a JSON-RPC error's data. The spec
// leaves data's shape open, so several common shapes are understood:
// {"field": "...", "message": "..."}, arrays of such objects (bare or under
// "errors", "fields", "details" or "field_errors", with "issue", "error" or
// "messages" as alternative message keys), and an object mapping field names
// to a message or a list of messages (bare or under those keys).
func rpcFieldErrors(data json.RawMessage) []FieldError {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil
	}
	return fieldErrorsFromAny(v, 0)
}

func fieldErrorsFromAny(v any, depth int) []FieldError {
	if depth > 3 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		var out []FieldError
		for _, it := range x {
			if m, ok := it.(map[string]any); ok {
				if fe, ok := fieldErrorFromObject(m); ok {
					out = append(out, fe)
				}
			}
		}
		return out
	case map[string]any:
		if fe, ok := fieldErrorFromObject(x); ok {
			return []FieldError{fe}
		}
		for _, k := range []string{"errors", "fields", "details", "field_errors", "fieldErrors", "violations"} {
			if sub, ok := x[k]; ok {
				if out := fieldErrorsFromAny(sub, depth+1); len(out) > 0 {
					return out
				}
				if m, ok := sub.(map[string]any); ok {
					if out := fieldMap(m); len(out) > 0 {
						return out
					}
				}
			}
		}
		if depth > 0 {
			return fieldMap(x)
		}
	}
	return nil
}

func fieldErrorFromObject(m map[string]any) (FieldError, bool) {
	var fe FieldError
	for _, k := range []string{"field", "name", "path", "param", "property"} {
		if s, ok := m[k].(string); ok {
			fe.Field = s
			break
		}
	}
	for _, k := range []string{"message", "issue", "error", "reason", "description"} {
		if s, ok := m[k].(string); ok {
			fe.Message = s
			break
		}
	}
	if fe.Message == "" {
		if arr, ok := m["messages"].([]any); ok {
			var parts []string
			for _, a := range arr {
				if s, ok := a.(string); ok {
					parts = append(parts, s)
				}
			}
			fe.Message = strings.Join(parts, "; ")
		}
	}
	return fe, fe.Field != "" && fe.Message != ""
}

// fieldMap reads {"field": "message"} or {"field": ["m1", "m2"]}.
func fieldMap(m map[string]any) []FieldError {
	var out []FieldError
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out = append(out, FieldError{Field: k, Message: x})
		case []any:
			for _, a := range x {
				if s, ok := a.(string); ok {
					out = append(out, FieldError{Field: k, Message: s})
				}
			}
		}
	}
	sortFieldErrors(out)
	return out
}

func sortFieldErrors(fe []FieldError) {
	// insertion sort: tiny slices, deterministic order for map-derived input
	for i := 1; i < len(fe); i++ {
		for j := i; j > 0 && (fe[j].Field < fe[j-1].Field ||
			(fe[j].Field == fe[j-1].Field && fe[j].Message < fe[j-1].Message)); j-- {
			fe[j], fe[j-1] = fe[j-1], fe[j]
		}
	}
}

func writeFieldErrors(b *strings.Builder, fe []FieldError) {
	if len(fe) == 0 {
		return
	}
	b.WriteString(" (")
	for i, f := range fe {
		if i > 0 {
			b.WriteString("; ")
		}
		if i == 5 {
			fmt.Fprintf(b, "and %d more", len(fe)-5)
			break
		}
		if f.Field != "" {
			b.WriteString(f.Field)
			b.WriteString(": ")
		}
		b.WriteString(f.Message)
	}
	b.WriteString(")")
}

func writeRequestID(b *strings.Builder, id string) {
	if id != "" {
		b.WriteString(" [request ")
		b.WriteString(id)
		b.WriteString("]")
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// cut on a rune boundary
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
