package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Documented B2B error descriptions (spec §7.1). The 400 and 429 texts are the
// spec's own; the others are the sandbox's wording of the spec's placeholders.
const (
	descBadRequest   = "This value is not valid."
	descUnauthorized = "Authorization error: "
	descForbidden    = "Access denied."
	descNotFound     = "Resource not found."
	descMethod       = "Method not allowed."
	descTooLarge     = "Request body is too large."
	descRateLimited  = "Rate limit has been reached"
	descInternal     = "Internal server error."
	descUnavailable  = "Service temporarily unavailable."
)

const ctypeJSON = "application/json; charset=utf-8"

// marshalJSON encodes v without HTML escaping and without a trailing newline.
func marshalJSON(v any) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// jsonResponse encodes v as the body of a response with status.
func jsonResponse(status int, v any) *response {
	body, err := marshalJSON(v)
	if err != nil {
		// Only unencodable values fail; the sandbox builds none on purpose.
		body = []byte(`{"code":0,"description":"Internal server error.","errors":[]}`)
		status = http.StatusInternalServerError
	}
	return &response{status: status, ctype: ctypeJSON, body: body}
}

// FieldError is one entry of the errors array of a B2B 400 answer.
type b2bFieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// b2bErrorBody is the B2B error body of spec §7.1.
type b2bErrorBody struct {
	Code        int             `json:"code"`
	Description string          `json:"description"`
	Errors      []b2bFieldError `json:"errors"`
	Message     string          `json:"message,omitempty"`
}

func b2bError(status int, desc string, fields ...b2bFieldError) *response {
	if fields == nil {
		fields = []b2bFieldError{}
	}
	return jsonResponse(status, b2bErrorBody{Description: desc, Errors: fields})
}

func b2bValidation(fields ...b2bFieldError) *response {
	return b2bError(http.StatusBadRequest, descBadRequest, fields...)
}

func b2bRateLimited(message string) *response {
	return jsonResponse(http.StatusTooManyRequests, b2bErrorBody{Description: descRateLimited, Errors: []b2bFieldError{}, Message: message})
}

// giftErrorBody is the gift-certificate error body of spec §7.1.
type giftErrorBody struct {
	Code        int      `json:"code"`
	Message     string   `json:"message"`
	Description string   `json:"description"`
	Errors      []string `json:"errors"`
}

func giftError(status, code int, message, desc string, errs ...string) *response {
	if errs == nil {
		errs = []string{}
	}
	return jsonResponse(status, giftErrorBody{Code: code, Message: message, Description: desc, Errors: errs})
}

// restDetail is one validation detail of the seller REST error body.
type restDetail struct {
	Field string `json:"field"`
	Issue string `json:"issue"`
}

type restErrorInner struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Details []restDetail `json:"details,omitempty"`
}

// restErrorBody is the seller REST error body of spec §7.3.
type restErrorBody struct {
	Error restErrorInner `json:"error"`
}

func restError(status int, code, message string, details ...restDetail) *response {
	return jsonResponse(status, restErrorBody{Error: restErrorInner{Code: code, Message: message, Details: details}})
}

// unauthorized renders a 401 in the shape of the call's interface.
func unauthorized(c *call, e *authError) *response {
	switch c.iface {
	case ifaceGift:
		return giftError(http.StatusUnauthorized, 401, "Unauthorized", e.reason)
	case ifaceREST:
		return restError(http.StatusUnauthorized, "UNAUTHORIZED", e.reason)
	case ifaceRPC:
		return rpcErrorResponse(c.rpcID(), rpcUnauthorized(e.reason))
	}
	return b2bError(http.StatusUnauthorized, descUnauthorized+e.reason)
}

// notFound answers a path the sandbox does not serve.
func notFound(c *call) *response {
	switch c.iface {
	case ifaceREST:
		return restError(http.StatusNotFound, "NOT_FOUND", "no such resource: "+c.r.URL.Path)
	}
	return b2bError(http.StatusNotFound, descNotFound)
}

// rpcHTTPNotFound answers an unknown path under /jsonrpc/.
func rpcHTTPNotFound(c *call) *response {
	resp := rpcErrorResponse(nullID, &rpcError{Code: codeMethodNotFound, Message: "Method not found",
		Data: map[string]any{"path": c.r.URL.Path}})
	resp.status = http.StatusNotFound
	return resp
}

// methodNotAllowed answers a known path called with the wrong HTTP method.
func methodNotAllowed(c *call) *response {
	var resp *response
	switch c.iface {
	case ifaceGift:
		resp = giftError(http.StatusMethodNotAllowed, 32601, "Method not found", "use "+c.allow)
	case ifaceREST:
		resp = restError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "use "+c.allow)
	case ifaceRPC:
		resp = rpcErrorResponse(nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request",
			Data: map[string]any{"reason": "JSON-RPC requests must use POST"}})
	default:
		resp = b2bError(http.StatusMethodNotAllowed, descMethod)
	}
	resp.status = http.StatusMethodNotAllowed
	resp.header = http.Header{"Allow": {c.allow}}
	return resp
}

// tooLarge answers a body over maxBodyBytes.
func tooLarge(c *call) *response {
	var resp *response
	switch c.iface {
	case ifaceREST:
		resp = restError(0, "VALIDATION_FAILED", "request body is too large")
	case ifaceRPC:
		resp = rpcErrorResponse(nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request",
			Data: map[string]any{"reason": "request body is too large"}})
	case ifaceGift:
		resp = giftError(0, 32600, "Invalid request", "request body is too large")
	default:
		resp = b2bError(0, descTooLarge)
	}
	resp.status = http.StatusRequestEntityTooLarge
	return resp
}
