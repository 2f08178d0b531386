package apiclient

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
)

// The contract profile's B2B platform API: spec §4.1 and the field notes.

// contractB2B is the contract profile's B2B wire layer.
type contractB2B struct{}

// contractTokenParams is the JSON body of POST /auth/token (spec §4.1).
type contractTokenParams struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	GrantType    string `json:"grant_type"`
}

// tokenRequest: POST {b2b}/auth/token with a JSON body.
func (contractB2B) tokenRequest(base *url.URL, creds *Credentials) (string, string, []byte) {
	body, _ := json.Marshal(contractTokenParams{ClientID: creds.ClientID, ClientSecret: creds.ClientSecret, GrantType: "client_credentials"})
	return http.MethodPost, joinURL(base, "/auth/token", nil), body
}

// ordersQuery: page, limit and status as plain query parameters.
func (contractB2B) ordersQuery(opts *ListOrdersOptions) url.Values {
	q := url.Values{}
	if opts == nil {
		return q
	}
	if opts.Page != 0 {
		q.Set("page", strconv.Itoa(opts.Page))
	}
	if opts.Limit != 0 {
		q.Set("limit", strconv.Itoa(opts.Limit))
	}
	if opts.Status != "" {
		q.Set("status", opts.Status)
	}
	return q
}
