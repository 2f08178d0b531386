package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestSellerTestHost: with SellerTestBaseURL set, Test credentials' seller
// calls (token, JSON-RPC, REST) go to that host and production's to the
// main one; without it, both use the one seller host and the client says
// so.
func TestSellerTestHost(t *testing.T) {
	sb := sandbox.New(sandbox.Options{})
	var mainHits, testHits atomic.Int64
	counting := func(n *atomic.Int64) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/jsonrpc") || strings.HasPrefix(r.URL.Path, "/api/v2/fbs") {
				n.Add(1)
			}
			sb.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	main, test := counting(&mainHits), counting(&testHits)
	c, err := apiclient.New(apiclient.Options{B2BBaseURL: main.URL, B2BTestBaseURL: main.URL + "/test", SellerBaseURL: main.URL, SellerTestBaseURL: test.URL, Now: sb.Now})
	if err != nil {
		t.Fatal(err)
	}
	if !c.SellerTestSeparate() {
		t.Fatal("SellerTestSeparate is false with a seller test host")
	}
	ctx := context.Background()
	list := func(env apiclient.Environment) {
		t.Helper()
		acct := c.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: env}, nil)
		if _, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1001, Page: 1, Limit: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: 1001, Page: 1, Limit: 1}); err != nil {
			t.Fatal(err)
		}
	}
	list(apiclient.Test)
	if mainHits.Load() != 0 || testHits.Load() != 3 {
		t.Errorf("test credentials: %d seller calls to the main host, %d to the test host; want 0 and 3 (token, list, boxes)", mainHits.Load(), testHits.Load())
	}
	list(apiclient.Production)
	if mainHits.Load() != 3 || testHits.Load() != 3 {
		t.Errorf("production credentials: %d to the main host, %d to the test host; want 3 and 3", mainHits.Load(), testHits.Load())
	}

	one, err := apiclient.New(apiclient.Options{B2BBaseURL: main.URL, SellerBaseURL: main.URL})
	if err != nil {
		t.Fatal(err)
	}
	if one.SellerTestSeparate() {
		t.Error("SellerTestSeparate is true without a seller test host")
	}
	if _, err := apiclient.New(apiclient.Options{B2BBaseURL: main.URL, SellerBaseURL: main.URL, SellerTestBaseURL: "ftp://x"}); err == nil {
		t.Error("a malformed seller test URL was accepted")
	}
}
