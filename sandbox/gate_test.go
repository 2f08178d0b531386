package sandbox

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestHoldAfter: the first n requests pass, later ones wait at the gate
// until it is released, and a waiting client that goes away is let go.
func TestHoldAfter(t *testing.T) {
	s := New(Options{})
	b2b := b2bToken(t, s, "", cred1001)
	release := s.HoldAfter(RouteB2BOrders, 1)
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...); r.status != http.StatusOK {
		t.Fatalf("the first request: %d", r.status)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...).status
		}()
	}
	waitFor(t, "two held requests", func() bool { return s.Held(RouteB2BOrders) == 2 })
	if n := s.Counters().Requests[RouteB2BOrders]; n != 3 {
		t.Fatalf("requests counted: %d, want 3 (held ones count)", n)
	}
	// Other routes are not held.
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders/gift-certificates/errors", "", bearer(b2b)...); r.status == 0 {
		t.Fatal("another route was held")
	}
	release()
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK {
			t.Errorf("held request %d answered %d after release", i, st)
		}
	}
	release() // harmless twice
	if r := doReq(t, s, http.MethodGet, "/api/v1/orders", "", bearer(b2b)...); r.status != http.StatusOK {
		t.Fatalf("after release: %d", r.status)
	}
}

// waitFor polls cond until it holds, failing after a deadline generous
// enough for any loaded machine.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
