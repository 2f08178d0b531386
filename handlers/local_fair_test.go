package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestOneSessionCannotTakeTheGate: one session asking for twice as many
// pages from the copy as the gate has slots holds only its share of them,
// the rest of its pages waiting behind its own; another seller's page
// then enters at once instead of waiting for the flood.
func TestOneSessionCannotTakeTheGate(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	flood := app.Browser(t)
	flood.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
	copyComplete(t, app, copystore.Key{SellerID: 1001, Env: "test"})
	other := app.Browser(t)
	other.Login("demo-1002", "sandbox-secret-1002", "1002", "test")
	copyComplete(t, app, copystore.Key{SellerID: 1002, Env: "test"})

	entered := make(chan string, 64)
	release := make(chan struct{})
	handlers.SetLocalEntered(app.Handler, func(ctx context.Context, who string) {
		entered <- who
		select {
		case <-release:
		case <-ctx.Done():
		}
	})
	slots, share := handlers.LocalSlots(), handlers.LocalPerSession()
	if share >= slots {
		t.Fatalf("a session's share %d of %d slots leaves none to others", share, slots)
	}
	var wg sync.WaitGroup
	statuses := make(chan int, 2*slots+1)
	for range 2 * slots {
		wg.Go(func() { statuses <- flood.Get("/nomenclature?sort=-price&q=a").Status })
	}
	var floodWho string
	for range share {
		select {
		case floodWho = <-entered:
		case <-time.After(30 * time.Second): // a backstop, not a measurement
			t.Fatal("the flood's pages never entered")
		}
	}
	waitUntil(t, "the rest of the flood to wait", func() bool {
		_, w := handlers.LocalGate(app.Handler)
		return w == 2*slots-share
	})
	wg.Go(func() { statuses <- other.Get("/nomenclature").Status })
	select {
	case who := <-entered:
		if who == floodWho {
			t.Fatal("the flooding session got more than its share")
		}
	case <-time.After(30 * time.Second): // a backstop, not a measurement
		t.Fatal("another seller's page waited behind one session's flood")
	}
	close(release)
	wg.Wait()
	close(statuses)
	for st := range statuses {
		if st != http.StatusOK {
			t.Errorf("a page answered %d", st)
		}
	}
	if free, w := handlers.LocalGate(app.Handler); free != slots || w != 0 {
		t.Errorf("after all: %d of %d slots free, %d waiting", free, slots, w)
	}
}

// TestPageLocalWorkBounded: a page whose local work outlasts the gate's
// limit is stopped, its slot given back, and answered 503 with
// Retry-After, saying the page took too long (not that the marketplace
// is slow).
func TestPageLocalWorkBounded(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
	copyComplete(t, app, copystore.Key{SellerID: 1001, Env: "test"})
	handlers.SetLocalLimit(app.Handler, 100*time.Millisecond)
	handlers.SetLocalEntered(app.Handler, func(ctx context.Context, _ string) {
		// A read that takes too long: it ends only with its context.
		select {
		case <-ctx.Done():
		case <-time.After(30 * time.Second): // a backstop, not a measurement
		}
	})
	p := b.Get("/nomenclature")
	if p.Status != http.StatusServiceUnavailable || p.Header.Get("Retry-After") == "" {
		t.Fatalf("a page past the limit: %d (Retry-After %q), want 503 with Retry-After", p.Status, p.Header.Get("Retry-After"))
	}
	if body := p.Text("main"); !strings.Contains(body, "took too long") {
		t.Errorf("the page says %q", body)
	}
	if free, w := handlers.LocalGate(app.Handler); free != handlers.LocalSlots() || w != 0 {
		t.Errorf("after the stopped page: %d free, %d waiting", free, w)
	}
}
