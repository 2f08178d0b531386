package accounts

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestPageTalliesSkippedRecords: the records a page's reads leave out
// (one unreadable order of the list) are counted in its Page, with the
// reason and the answer's request id; a Page nobody read through has none.
func TestPageTalliesSkippedRecords(t *testing.T) {
	e := newEnv(t, envOptions{})
	var page Page
	if n, _, _ := page.Skipped(); n != 0 {
		t.Fatalf("a fresh page skipped %d", n)
	}
	e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultWildRecords, Times: -1})
	ctx, cancel := page.Context(context.Background(), time.Minute, time.Second)
	defer cancel()
	list, err := e.svc.Detached(demoAccount()).B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, reason, upstream := page.Skipped()
	if n != 1 || n != list.Skipped || reason == "" || upstream != list.RequestID {
		t.Errorf("Skipped() = %d, %q, %q; want the list's %d, its reason and request id %q", n, reason, upstream, list.Skipped, list.RequestID)
	}
}

// TestPageContextBounds: the page's reads end by the timeout unless the
// caller's context ends sooner, and a busy marketplace is not waited out
// past the retry budget: with none, the first 503 is the answer.
func TestPageContextBounds(t *testing.T) {
	var page Page
	ctx, cancel := page.Context(context.Background(), time.Hour, 0)
	dl, ok := ctx.Deadline()
	if !ok || time.Until(dl) > time.Hour {
		t.Errorf("deadline %v (%v), want within the hour", dl, ok)
	}
	cancel()
	if ctx.Err() == nil {
		t.Error("cancel left the page's context running")
	}

	sooner, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	ctx, cancel = page.Context(sooner, time.Hour, 0)
	defer cancel()
	if dl, _ := ctx.Deadline(); !dl.Equal(func() time.Time { d, _ := sooner.Deadline(); return d }()) {
		t.Errorf("deadline %v, want the caller's sooner one", dl)
	}
	if ctx, _ := page.Context(context.Background(), 0, 0); func() bool { _, ok := ctx.Deadline(); return ok }() {
		t.Error("a zero timeout set a deadline")
	}

	e := newEnv(t, envOptions{})
	e.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultUnavailable, Times: -1})
	ctx, cancel = page.Context(context.Background(), time.Minute, 0)
	defer cancel()
	_, err := e.svc.Detached(demoAccount()).Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1001, Page: 1, Limit: 1})
	var rl *apiclient.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("a busy marketplace without a retry budget: %v, want a *RateLimitError at once", err)
	}
	if n := e.sb.Counters().Requests[sandbox.RouteRPCList]; n != 1 {
		t.Errorf("%d list requests, want 1: no retry", n)
	}
}
