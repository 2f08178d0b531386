package apiclient

import (
	"net/http"
	"net/url"
	"strconv"
)

// The lamoda profile's B2B platform API, after the marketplace's partner-API
// guide and a B2B client that ran against it (docs/CONTRACTS.md).

// lamodaB2B is the lamoda profile's B2B wire layer.
type lamodaB2B struct{}

// tokenRequest: GET {b2b}/auth/token with the three fields in the query.
// The secret travels in the URL, so every log line and error of this
// request is scrubbed of it in its raw and query-escaped forms
// (accountState.secrets), and only the path is ever logged.
func (lamodaB2B) tokenRequest(base *url.URL, creds *Credentials) (string, string, []byte) {
	q := url.Values{}
	q.Set("client_id", creds.ClientID)
	q.Set("client_secret", creds.ClientSecret)
	q.Set("grant_type", "client_credentials")
	return http.MethodGet, joinURL(base, "/auth/token", q), nil
}

// ordersQuery: page and limit, and the status as a filter expression
// ("filter=status=new"), the grammar the marketplace's list filters use
// ("createdAt>=YYYYMMDDHHMMSS").
func (lamodaB2B) ordersQuery(opts *ListOrdersOptions) url.Values {
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
		q.Set("filter", "status="+opts.Status)
	}
	return q
}
