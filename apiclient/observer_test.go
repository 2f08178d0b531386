package apiclient_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sellerdesk/sellerdesk/apiclient"
)

// recordingObserver keeps what the client reported.
type recordingObserver struct {
	mu       sync.Mutex
	requests []string
	retries  []string
	waited   time.Duration
}

func (o *recordingObserver) Request(iface, name string, status int, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests = append(o.requests, iface+"|"+name+"|"+strconv.Itoa(status))
}

func (o *recordingObserver) Retry(iface, name string, status int, wait time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.retries = append(o.retries, iface+"|"+name+"|"+strconv.Itoa(status))
	o.waited += wait
}

// The observer sees every attempt by interface and operation (never a
// path or an id) and every wait before a retry, a 429's included.
func TestObserverSeesAttemptsAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMarket()
		h, _ := rateLimited(429, 1, nil, emptyOrders)
		m.b2b = h
		obs := &recordingObserver{}
		acct := inMemory(t, m, func(c *clientConfig) { c.opts.Observer = obs })
		if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		want := []string{"b2b|token|200", "b2b|list orders|429", "b2b|list orders|200"}
		if d := cmp.Diff(want, obs.requests); d != "" {
			t.Errorf("requests (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"b2b|list orders|429"}, obs.retries); d != "" {
			t.Errorf("retries (-want +got):\n%s", d)
		}
		if obs.waited != time.Second {
			t.Errorf("waited %s, want 1s", obs.waited)
		}
	})
}

// A seller JSON-RPC call is named by its method.
func TestObserverNamesRPCMethods(t *testing.T) {
	obs := &recordingObserver{}
	acct := inMemory(t, newMarket(), func(c *clientConfig) { c.opts.Observer = obs })
	_, _ = acct.Seller.ListNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1})
	if !slices.ContainsFunc(obs.requests, func(s string) bool { return strings.HasPrefix(s, "seller_rpc|v1.nomenclatures.list|") }) {
		t.Errorf("requests %v: no seller_rpc v1.nomenclatures.list", obs.requests)
	}
}
