package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// memAnswers is an upstream transport that asks the sandbox once per call
// (method, URL and request body) and then answers from memory, with the
// JSON-RPC id of each new request put in: the API client's own work without
// a socket (the P6 budget) and the dashboard's own allocations (P7).
type memAnswers struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen map[string]memAnswer
	last memAnswer // the answer to the latest request
}

type memAnswer struct {
	status int
	header http.Header
	// body is the answer, cut around its JSON-RPC id (if any) so that each
	// request's own id is put in without copying the answer
	head, tail []byte
}

// jsonString returns the string value following key (`"id":"`) in b.
func jsonString(b []byte, key string) string {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return ""
	}
	rest := b[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

func (m *memAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
	}
	id, method := jsonString(reqBody, `"id":"`), jsonString(reqBody, `"method":"`)
	// The key holds the request's parameters (its body without the
	// JSON-RPC id): a list read with limit 1 for a count and one read for a
	// page are different answers.
	key := req.Method + " " + req.URL.String() + " " + method + " " + string(bytes.Replace(reqBody, []byte(id), nil, 1))
	m.mu.Lock()
	a, ok := m.seen[key]
	m.mu.Unlock()
	if !ok {
		fwd := req.Clone(req.Context())
		fwd.Body = io.NopCloser(bytes.NewReader(reqBody))
		fwd.ContentLength = int64(len(reqBody))
		resp, err := m.next.RoundTrip(fwd)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		a = memAnswer{status: resp.StatusCode, header: resp.Header.Clone(), head: body}
		if id != "" {
			if i := bytes.Index(body, []byte(`"`+id+`"`)); i >= 0 {
				a.head, a.tail = body[:i+1], body[i+1+len(id):]
			}
		}
		m.mu.Lock()
		m.seen[key] = a
		m.mu.Unlock()
	}
	m.mu.Lock()
	m.last = a
	m.mu.Unlock()
	var body io.Reader = bytes.NewReader(a.head)
	n := len(a.head)
	if a.tail != nil {
		body = io.MultiReader(body, bytes.NewReader([]byte(id)), bytes.NewReader(a.tail))
		n += len(id) + len(a.tail)
	}
	return &http.Response{StatusCode: a.status, Header: a.header, Body: io.NopCloser(body),
		ContentLength: int64(n), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// clientPageCost measures what the P6 pages' upstream calls cost in the API
// client alone: each page's call (orders; nomenclatures.list for prices and
// for nomenclature; return boxes; 50 records each, with the options the
// handlers use) made through apiclient against answers held in memory, so
// no socket, no sandbox, no session, no rendering: request building, the
// token from a memory store, reading and decoding the answer. It returns
// the mean per page over rounds rounds of the four pages, and the mean time
// to merely scan the same answers once as JSON.
func clientPageCost(e *Env, rounds int) (client, scan time.Duration, err error) {
	mem := &memAnswers{next: newTransport(), seen: map[string]memAnswer{}}
	api, err := apiclient.New(apiclient.Options{
		B2BBaseURL: e.Market.B2BURL, B2BTestBaseURL: e.Market.B2BTestURL, SellerBaseURL: e.Market.SellerURL,
		Now: e.Sandbox.Now, Logger: slog.New(slog.DiscardHandler), HTTPClient: &http.Client{Transport: mem, Timeout: time.Minute},
	})
	if err != nil {
		return 0, 0, err
	}
	acct := api.Account(apiclient.Credentials{ClientID: clientID, ClientSecret: secret, Environment: apiclient.Test}, apiclient.NewMemoryTokenStore())
	ctx := context.Background()
	pages := []func() error{
		func() error {
			_, err := acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 50, WithoutItems: true})
			return err
		},
		func() error {
			_, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: sellerID, Page: 1, Limit: 50})
			return err
		},
		func() error {
			_, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: sellerID, Page: 1, Limit: 50})
			return err
		},
		func() error {
			_, err := acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: sellerID, Page: 1, Limit: 50})
			return err
		},
	}
	var bodies [][]byte       // each page's answer, for the scan below
	for _, p := range pages { // tokens, and the answers recorded
		if err := p(); err != nil {
			return 0, 0, fmt.Errorf("client floor: %w", err)
		}
		bodies = append(bodies, append(append([]byte(nil), mem.last.head...), mem.last.tail...))
	}
	t0 := time.Now()
	for range rounds {
		for _, p := range pages {
			if err := p(); err != nil {
				return 0, 0, fmt.Errorf("client floor: %w", err)
			}
		}
	}
	client = time.Since(t0) / time.Duration(rounds*len(pages))

	// The least any reader of the answers can do: check each once as JSON
	// (jsontext validates in one pass without building anything).
	t0 = time.Now()
	for range rounds {
		for _, b := range bodies {
			if !jsontext.Value(b).IsValid() {
				return 0, 0, fmt.Errorf("client floor: an answer is not valid JSON")
			}
		}
	}
	scan = time.Since(t0) / time.Duration(rounds*len(bodies))
	return client, scan, nil
}
