package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestLocalGate: the pages served from the copy and the history do their
// local work through the local gate and give their slot back, whether
// they render or fail; while every slot is taken such a page waits its
// turn, and what runs outside the gate (the accounts page, a form's
// answer) does not wait.
func TestLocalGate(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
	k := copystore.Key{SellerID: 1001, Env: "test"}
	copyComplete(t, app, k)
	slots := handlers.LocalSlots()
	allFree := func(after string) {
		t.Helper()
		if free, waiting := handlers.LocalGate(app.Handler); free != slots || waiting != 0 {
			t.Fatalf("after %s: %d of %d slots free, %d waiting", after, free, slots, waiting)
		}
	}
	for _, p := range []string{"/", "/prices", "/prices?q=" + url.QueryEscape("крос"), "/nomenclature?status=online", "/orders", "/return-boxes", "/history"} {
		if got := b.Get(p); got.Status != http.StatusOK {
			t.Fatalf("GET %s: %d", p, got.Status)
		}
		allFree(p)
	}

	other := app.Browser(t)
	other.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
	release := handlers.HoldLocalGate(app.Handler)
	waiting := make(chan *testapp.Page, 1)
	go func() { waiting <- other.Get("/prices") }()
	waitUntil(t, "the page to wait its turn", func() bool {
		_, w := handlers.LocalGate(app.Handler)
		return w == 1
	})
	if got := b.Get("/accounts"); got.Status != http.StatusOK {
		t.Fatalf("the accounts page beside a full gate: %d", got.Status)
	}
	if got := b.Post("/prices", url.Values{"sku": {"nope"}, "price": {"x"}}); got.Status >= 500 {
		t.Fatalf("a prices form beside a full gate: %d", got.Status)
	}
	select {
	case p := <-waiting:
		t.Fatalf("a page from the copy answered %d while every slot was taken", p.Status)
	default:
	}
	release()
	select {
	case p := <-waiting:
		if p.Status != http.StatusOK {
			t.Fatalf("the waiting page: %d", p.Status)
		}
	case <-time.After(30 * time.Second): // a backstop, not a measurement
		t.Fatal("the waiting page never got its turn")
	}
	allFree("the waiting page")

	// A page that fails once inside gives its slot back.
	if err := app.Catalog.Store().Revoke(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if got := b.Get("/nomenclature"); got.Status == http.StatusOK {
		t.Fatal("a revoked copy served its records")
	}
	allFree("a page of a revoked copy")
}
