package apiclient_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

func TestConnectionReuse(t *testing.T) {
	m := newMarket()
	m.b2b = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, emptyOrders) }
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		rpcResult(w, req.ID, `{"page":1,"pages":1,"nomenclatures":[]}`)
	}
	srv := httptest.NewUnstartedServer(m)
	var newConns atomic.Int64
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			newConns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	acct := newClient(t, srv.URL) // default HTTP client
	ctx := context.Background()

	for range 50 {
		if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := acct.Seller.ListNomenclatures(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := newConns.Load(); n != 1 {
		t.Errorf("sequential calls opened %d connections, want 1", n)
	}

	const workers = 32
	for round := range 5 {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		// The idle pool (64 per host) keeps every connection, so later
		// rounds never need more than the peak concurrency.
		if n := newConns.Load(); n > workers+1 {
			t.Fatalf("round %d: %d connections for %d concurrent callers", round, n, workers)
		}
	}
	before := newConns.Load()
	for range 20 {
		if _, err := acct.B2B.ListOrders(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := newConns.Load(); n != before {
		t.Errorf("steady state opened %d new connections", n-before)
	}
}
