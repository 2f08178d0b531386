package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// JSON-RPC 2.0 error codes (spec §7.2) and the business codes the sandbox uses.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603

	codeUnauthorized = 401
	codeForbidden    = 403
	codeNotFound     = 404
)

// rpcMethods maps the JSON-RPC methods to their route names.
var rpcMethods = map[string]string{
	"v1.tokens.create":            RouteRPCTokens,
	"v1.nomenclatures.list":       RouteRPCList,
	"v1.nomenclatures.store":      RouteRPCStore,
	"v1.nomenclatures.set-prices": RouteRPCSetPrices,
}

var nullID = json.RawMessage("null")

// rpcRequest is a request whose envelope passed validation.
type rpcRequest struct {
	id     json.RawMessage
	method string
	params map[string]json.RawMessage
}

// rpcError is the error member of a JSON-RPC response.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
	id      json.RawMessage
}

type rpcEnvelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcID is the id to echo: the request's, or null when it could not be read.
func (c *call) rpcID() json.RawMessage {
	if c.rpc != nil {
		return c.rpc.id
	}
	if c.rpcErr != nil && c.rpcErr.id != nil {
		return c.rpcErr.id
	}
	return nullID
}

func rpcErrorResponse(id json.RawMessage, e *rpcError) *response {
	return jsonResponse(http.StatusOK, rpcEnvelope{JSONRPC: "2.0", ID: id, Error: e})
}

// rawResult is a result that is already encoded JSON.
type rawResult []byte

func rpcResult(id json.RawMessage, result any) *response {
	if raw, ok := result.(rawResult); ok {
		// Hand-built so a large, pre-encoded result is not scanned again.
		body := make([]byte, 0, len(raw)+len(id)+40)
		body = append(body, `{"jsonrpc":"2.0","id":`...)
		body = append(body, id...)
		body = append(body, `,"result":`...)
		body = append(body, raw...)
		body = append(body, '}')
		return &response{status: http.StatusOK, ctype: ctypeJSON, body: body}
	}
	return jsonResponse(http.StatusOK, rpcEnvelope{JSONRPC: "2.0", ID: id, Result: result})
}

func invalidRequest(id json.RawMessage, reason string) *rpcError {
	return &rpcError{Code: codeInvalidRequest, Message: "Invalid Request", Data: map[string]string{"reason": reason}, id: id}
}

func paramError(param, reason string) *rpcError {
	return &rpcError{Code: codeInvalidParams, Message: "Invalid params", Data: map[string]string{"param": param, "reason": reason}}
}

func rpcUnauthorized(reason string) *rpcError {
	return &rpcError{Code: codeUnauthorized, Message: "Unauthorized", Data: map[string]string{"reason": reason}}
}

// parseEnvelope validates a JSON-RPC 2.0 request body. It never panics.
func parseEnvelope(body []byte) (*rpcRequest, *rpcError) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || !json.Valid(trimmed) {
		return nil, &rpcError{Code: codeParseError, Message: "Parse error", Data: map[string]string{"reason": "request body is not valid JSON"}}
	}
	switch trimmed[0] {
	case '[':
		return nil, invalidRequest(nil, "batch requests are not supported; send requests one at a time")
	case '{':
	default:
		return nil, invalidRequest(nil, "request must be a JSON object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return nil, invalidRequest(nil, "request must be a JSON object")
	}
	req := &rpcRequest{id: nullID}
	if raw, ok := fields["id"]; ok {
		switch raw[0] {
		case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			req.id = raw
		default:
			return nil, invalidRequest(nil, "id must be a string, a number or null")
		}
	}
	var version string
	if raw, ok := fields["jsonrpc"]; !ok || json.Unmarshal(raw, &version) != nil || version != "2.0" {
		return nil, invalidRequest(req.id, `jsonrpc must be the string "2.0"`)
	}
	raw, ok := fields["method"]
	if !ok || raw[0] != '"' || json.Unmarshal(raw, &req.method) != nil {
		return nil, invalidRequest(req.id, "method must be a string")
	}
	if raw, ok := fields["params"]; ok {
		if raw[0] != '{' {
			return nil, invalidRequest(req.id, "params must be an object")
		}
		if err := json.Unmarshal(raw, &req.params); err != nil {
			return nil, invalidRequest(req.id, "params must be an object")
		}
	}
	if req.params == nil {
		req.params = map[string]json.RawMessage{}
	}
	return req, nil
}

// prepareRPC parses the envelope before counters and faults, so they can be
// keyed by the JSON-RPC method.
func (s *Sandbox) prepareRPC(c *call) {
	req, e := parseEnvelope(c.body)
	if e != nil {
		c.rpcErr = e
		return
	}
	methods := rpcMethods
	if s.lamoda() {
		if e := checkLamodaID(req); e != nil {
			c.rpcErr = e
			return
		}
		methods = lamodaRPCMethods
	}
	route, known := methods[req.method]
	if !known || (c.subpath != "" && req.method != c.subpath) {
		c.rpcErr = &rpcError{Code: codeMethodNotFound, Message: "Method not found",
			Data: map[string]string{"method": req.method}, id: req.id}
		return
	}
	c.rpc, c.route = req, route
}

// handleRPC dispatches a JSON-RPC call. Every answer rides in HTTP 200.
func (s *Sandbox) handleRPC(c *call) *response {
	if c.rpcErr != nil {
		return rpcErrorResponse(c.rpcID(), c.rpcErr)
	}
	if c.rpc == nil { // no body at all
		return rpcErrorResponse(nullID, &rpcError{Code: codeParseError, Message: "Parse error",
			Data: map[string]string{"reason": "request body is empty"}})
	}
	var (
		result any
		e      *rpcError
	)
	if c.route == RouteRPCTokens && s.lamoda() {
		result, e = s.lamodaTokensCreate(c.rpc.params)
	} else if c.route == RouteRPCTokens {
		result, e = s.rpcTokensCreate(c.rpc.params)
	} else if c.authErr != nil {
		e = rpcUnauthorized(c.authErr.reason)
	} else if s.lamoda() {
		switch c.route {
		case RouteRPCList:
			result, e = s.lamodaList(c.auth, c.rpc.params)
		case RouteRPCSetPrices:
			result, e = s.lamodaSetPrices(c.auth, c.rpc.params)
		case RouteRPCUpdateStock:
			result, e = s.lamodaUpdateStock(c.auth, c.rpc.params)
		case RouteRPCUpdateActivation:
			result, e = s.lamodaUpdateActivation(c.auth, c.rpc.params)
		case RouteRPCPromotions:
			result, e = s.lamodaPromotions(c.auth, c.rpc.params)
		case RouteRPCPromotionProducts:
			result, e = s.lamodaPromotionProducts(c.auth, c.rpc.params)
		}
	} else {
		switch c.route {
		case RouteRPCList:
			result, e = s.rpcList(c.auth, c.rpc.params)
		case RouteRPCStore:
			result, e = s.rpcStore(c.auth, c.rpc.params)
		case RouteRPCSetPrices:
			result, e = s.rpcSetPrices(c.auth, c.rpc.params)
		}
	}
	if e != nil {
		return rpcErrorResponse(c.rpc.id, e)
	}
	return rpcResult(c.rpc.id, result)
}

// tokenResultRPC is the result of v1.tokens.create.
type tokenResultRPC struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

func (s *Sandbox) rpcTokensCreate(params map[string]json.RawMessage) (any, *rpcError) {
	tok, e := s.tokensCreate(params, [3]string{"client_id", "client_secret", "grant_type"})
	if e != nil {
		return nil, e
	}
	return tokenResultRPC{AccessToken: tok.access, TokenType: "Bearer", ExpiresIn: int64(tok.ttl.Seconds())}, nil
}

// tokensCreate checks the credentials of v1.tokens.create, whose parameter
// names (client id, secret, grant type) differ by wire profile, and issues
// a seller token.
func (s *Sandbox) tokensCreate(params map[string]json.RawMessage, names [3]string) (issuedToken, *rpcError) {
	var vals [3]string
	for i, name := range names {
		v, e := stringParam(params, name, true)
		if e != nil {
			return issuedToken{}, e
		}
		vals[i] = v
	}
	if vals[2] != "client_credentials" {
		return issuedToken{}, paramError(names[2], names[2]+` must be "client_credentials"`)
	}
	cred, ce := s.checkCredentials(vals[0], vals[1], envSeller)
	if ce != credOK {
		return issuedToken{}, rpcUnauthorized("invalid " + names[0] + " or " + names[1])
	}
	tok, err := s.issueToken(cred, envSeller)
	if err != nil {
		return issuedToken{}, &rpcError{Code: codeInternal, Message: "Internal error"}
	}
	return tok, nil
}

// stringParam reads a string parameter.
func stringParam(params map[string]json.RawMessage, name string, required bool) (string, *rpcError) {
	raw, ok := params[name]
	if !ok {
		if required {
			return "", paramError(name, name+" is required")
		}
		return "", nil
	}
	var v string
	if raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
		return "", paramError(name, name+" must be a string")
	}
	if required && v == "" {
		return "", paramError(name, name+" must not be empty")
	}
	return v, nil
}

// intParam reads an integer parameter within [lo, hi]; def applies when absent.
func intParam(params map[string]json.RawMessage, name string, required bool, def, lo, hi int64) (int64, *rpcError) {
	raw, ok := params[name]
	if !ok {
		if required {
			return 0, paramError(name, name+" is required")
		}
		return def, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, paramError(name, name+" must be an integer")
	}
	if n < lo || n > hi {
		return 0, paramError(name, fmt.Sprintf("%s must be between %d and %d", name, lo, hi))
	}
	return n, nil
}

// forbiddenSeller is the 403 business error for another seller's data.
func forbiddenSeller(asked, own int64) *rpcError {
	return &rpcError{Code: codeForbidden, Message: "Forbidden", Data: map[string]any{
		"seller_id": asked,
		"reason":    fmt.Sprintf("seller_id %d is not the seller of this token", asked),
	}}
}

const maxSellerID = 1<<53 - 1

func (s *Sandbox) rpcList(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	seller, e := intParam(params, "seller_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	page, e := intParam(params, "page", false, 1, 1, maxPage)
	if e != nil {
		return nil, e
	}
	limit, e := intParam(params, "limit", false, defaultLimit, 1, maxLimit)
	if e != nil {
		return nil, e
	}
	if seller != p.sellerID {
		return nil, forbiddenSeller(seller, p.sellerID)
	}
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[seller]
	lo, hi, pages := pageBounds(len(sd.records), int(page), int(limit))
	buf := make([]byte, 0, 64+(hi-lo)*420)
	buf = append(buf, `{"page":`...)
	buf = strconv.AppendInt(buf, page, 10)
	buf = append(buf, `,"limit":`...)
	buf = strconv.AppendInt(buf, limit, 10)
	buf = append(buf, `,"pages":`...)
	buf = strconv.AppendInt(buf, int64(pages), 10)
	buf = append(buf, `,"total":`...)
	buf = strconv.AppendInt(buf, int64(len(sd.records)), 10)
	buf = append(buf, `,"nomenclatures":[`...)
	for i, rec := range sd.records[lo:hi] {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, rec.encoded(now)...)
	}
	buf = append(buf, "]}"...)
	return rawResult(buf), nil
}

// List bounds shared by every list endpoint.
const (
	defaultLimit = 20
	maxLimit     = 100
	maxPage      = 1_000_000
)

// pageBounds returns the slice bounds of page (1-based) and the page count.
func pageBounds(total, page, limit int) (lo, hi, pages int) {
	pages = (total + limit - 1) / limit
	lo = (page - 1) * limit
	if lo > total || lo < 0 {
		lo = total
	}
	hi = min(lo+limit, total)
	return lo, hi, pages
}
