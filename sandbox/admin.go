package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// adminEndpoints documents the admin surface; GET /_sandbox/ returns it.
var adminEndpoints = []string{
	"GET    /_sandbox/                 this list",
	"GET    /_sandbox/faults           armed faults",
	`POST   /_sandbox/faults           arm a fault: {"route":"b2b.orders","kind":"rate_limit","retry_after":"3","times":1,"every":0}`,
	"DELETE /_sandbox/faults           clear every fault",
	`POST   /_sandbox/latency          {"route":"rpc.v1.nomenclatures.list","milliseconds":250} (route "" = every route, 0 = remove)`,
	"GET    /_sandbox/clock            the sandbox clock",
	`POST   /_sandbox/clock/advance    {"seconds":901}`,
	"GET    /_sandbox/token-ttl        lifetime of new tokens",
	`POST   /_sandbox/token-ttl        {"seconds":60} (0 = back to the configured lifetime)`,
	"GET    /_sandbox/counters         tokens issued, requests per route, max in flight per route and seller",
	"DELETE /_sandbox/counters         zero the counters",
	`POST   /_sandbox/revoke           {"client_id":"demo-1001"}`,
	"POST   /_sandbox/reset            seeded data back, faults, latency and counters cleared (clock and tokens kept)",
}

type adminError struct {
	Error string `json:"error"`
}

type clockJSON struct {
	Now time.Time `json:"now"`
}

type ttlJSON struct {
	Seconds int64 `json:"seconds"`
}

type latencyJSON struct {
	Route        string `json:"route"`
	Milliseconds int64  `json:"milliseconds"`
}

type countersJSON struct {
	TokensIssued map[string]int `json:"tokens_issued"`
	Requests     map[string]int `json:"requests"`
	MaxInFlight  map[string]int `json:"max_in_flight"`
	Written      map[string]int `json:"written"`
	Forced       map[string]int `json:"forced"`
}

type faultsJSON struct {
	Faults []Fault `json:"faults"`
}

// serveAdmin serves the /_sandbox/ surface. Admin requests are not counted
// and never hit faults or latency.
func (s *Sandbox) serveAdmin(w http.ResponseWriter, r *http.Request) {
	resp := s.admin(r)
	writeResponse(w, resp)
}

func (s *Sandbox) admin(r *http.Request) *response {
	route := r.Method + " " + r.URL.Path
	decode := func(v any) *response {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			return jsonResponse(http.StatusBadRequest, adminError{"cannot read body"})
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return jsonResponse(http.StatusBadRequest, adminError{"invalid JSON body: " + err.Error()})
		}
		return nil
	}
	switch route {
	case "GET /_sandbox", "GET /_sandbox/":
		return jsonResponse(http.StatusOK, map[string]any{"endpoints": adminEndpoints, "routes": allRoutes})
	case "GET /_sandbox/faults":
		return jsonResponse(http.StatusOK, faultsJSON{Faults: s.Faults()})
	case "POST /_sandbox/faults":
		var f Fault
		if resp := decode(&f); resp != nil {
			return resp
		}
		if f.Route != "" && !knownRoute(f.Route) {
			return jsonResponse(http.StatusBadRequest, adminError{fmt.Sprintf("unknown route %q", f.Route)})
		}
		s.InjectFault(f)
		return jsonResponse(http.StatusCreated, faultsJSON{Faults: s.Faults()})
	case "DELETE /_sandbox/faults":
		s.ClearFaults()
		return jsonResponse(http.StatusOK, faultsJSON{Faults: []Fault{}})
	case "POST /_sandbox/latency":
		var l latencyJSON
		if resp := decode(&l); resp != nil {
			return resp
		}
		if l.Route != "" && !knownRoute(l.Route) {
			return jsonResponse(http.StatusBadRequest, adminError{fmt.Sprintf("unknown route %q", l.Route)})
		}
		s.SetLatency(l.Route, time.Duration(l.Milliseconds)*time.Millisecond)
		return jsonResponse(http.StatusOK, l)
	case "GET /_sandbox/clock":
		return jsonResponse(http.StatusOK, clockJSON{Now: s.Now()})
	case "POST /_sandbox/clock/advance":
		var t ttlJSON
		if resp := decode(&t); resp != nil {
			return resp
		}
		if t.Seconds < 0 {
			return jsonResponse(http.StatusBadRequest, adminError{"seconds must not be negative"})
		}
		s.Advance(time.Duration(t.Seconds) * time.Second)
		return jsonResponse(http.StatusOK, clockJSON{Now: s.Now()})
	case "GET /_sandbox/token-ttl":
		return jsonResponse(http.StatusOK, ttlJSON{Seconds: int64(s.TokenTTL().Seconds())})
	case "POST /_sandbox/token-ttl":
		var t ttlJSON
		if resp := decode(&t); resp != nil {
			return resp
		}
		s.SetTokenTTL(time.Duration(t.Seconds) * time.Second)
		return jsonResponse(http.StatusOK, ttlJSON{Seconds: int64(s.TokenTTL().Seconds())})
	case "GET /_sandbox/counters":
		c := s.Counters()
		return jsonResponse(http.StatusOK, countersJSON(c))
	case "DELETE /_sandbox/counters":
		s.ResetCounters()
		c := s.Counters()
		return jsonResponse(http.StatusOK, countersJSON(c))
	case "POST /_sandbox/revoke":
		var v struct {
			ClientID string `json:"client_id"`
		}
		if resp := decode(&v); resp != nil {
			return resp
		}
		s.RevokeCredentials(v.ClientID)
		return jsonResponse(http.StatusOK, v)
	case "POST /_sandbox/reset":
		s.Reset()
		return jsonResponse(http.StatusOK, clockJSON{Now: s.Now()})
	}
	return jsonResponse(http.StatusNotFound, adminError{"unknown admin endpoint " + route + "; GET /_sandbox/ lists them"})
}

// allRoutes lists the route names faults and latency can target.
var allRoutes = []string{
	RouteB2BToken, RouteB2BOrders, RouteB2BResend, RouteB2BGiftCert,
	RouteRPCTokens, RouteRPCList, RouteRPCStore, RouteRPCSetPrices, RouteRPCUpdateStock, RouteRPCUpdateActivation, RouteRPCInvalid,
	RouteReturnBoxes, RouteReturnBox, RouteNotFound,
}

func knownRoute(r string) bool {
	for _, v := range allRoutes {
		if v == r {
			return true
		}
	}
	return false
}
