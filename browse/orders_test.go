package browse

import (
	"context"
	"errors"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// oldestOrder is the seller's oldest order (the last of the marketplace's
// list, newest first), the one a walk of every order reaches last, and
// how many pages of 100 the whole list and that order's status take.
func oldestOrder(t *testing.T, r *rig) (o Order, all, inStatus int) {
	t.Helper()
	ctx := context.Background()
	first, err := r.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 100, WithoutItems: true})
	if err != nil {
		t.Fatal(err)
	}
	last, err := r.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: first.Pages, Limit: 100, WithoutItems: true})
	if err != nil {
		t.Fatal(err)
	}
	o = wireOrder(&last.Orders[len(last.Orders)-1])
	st, err := r.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 100, Status: o.Status, WithoutItems: true})
	if err != nil {
		t.Fatal(err)
	}
	return o, first.Pages, st.Pages
}

// TestOrderFoundThroughCopyStatus: with a full copy, one order is found
// by walking only the orders in the status the copy knows it by, not
// every order of the seller; it comes with its items.
func TestOrderFoundThroughCopyStatus(t *testing.T) {
	r := newRig(t).synced(t)
	want, all, inStatus := oldestOrder(t, r)
	if inStatus >= all {
		t.Fatalf("the fixture's oldest order's status spans %d pages of %d", inStatus, all)
	}
	before := r.requests(sandbox.RouteB2BOrders)
	got, err := r.seller(New(r.copy, nil), nil).Order(context.Background(), want.Nr)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.requests(sandbox.RouteB2BOrders) - before; n > inStatus {
		t.Errorf("%d list requests to find the order, its status has %d pages (every order: %d)", n, inStatus, all)
	}
	if got.Nr != want.Nr || got.Status != want.Status || got.FullSum != want.FullSum || len(got.Items) == 0 || len(got.Items) != got.ItemQuantity {
		t.Errorf("order %+v, want %+v with %d items", got, want, want.ItemQuantity)
	}
}

// TestOrderBeforeCopy: before the first full copy the whole list is walked, and an
// order that is not there is apiclient.ErrNotFound.
func TestOrderBeforeCopy(t *testing.T) {
	r := newRig(t)
	want, all, _ := oldestOrder(t, r)
	s := r.beforeCopy()
	ctx := context.Background()
	got, err := s.Order(ctx, want.Nr)
	if err != nil || got.Nr != want.Nr || len(got.Items) == 0 {
		t.Fatalf("order %+v, %v", got, err)
	}
	before := r.requests(sandbox.RouteB2BOrders)
	if _, err := s.Order(ctx, "RU000000-000000"); !errors.Is(err, apiclient.ErrNotFound) {
		t.Errorf("an order that does not exist: %v", err)
	}
	if n := r.requests(sandbox.RouteB2BOrders) - before; n != all {
		t.Errorf("%d list requests for an order not there, want %d", n, all)
	}
}

// TestOrderStatusChangedSinceCopy: an order the copy knows in another
// status than the marketplace's now (or does not know at all) is still
// found, by the walk of every order.
func TestOrderStatusChangedSinceCopy(t *testing.T) {
	r := newRig(t).synced(t)
	want, _, _ := oldestOrder(t, r)
	ctx := context.Background()
	// The copy's row as an older pass left it: another status.
	other := "new"
	if want.Status == other {
		other = "returned"
	}
	if _, err := r.db.Writer().ExecContext(ctx, `UPDATE catalog_orders SET status = ? WHERE order_nr = ?`, other, want.Nr); err != nil {
		t.Fatal(err)
	}
	got, err := r.seller(New(r.copy, nil), nil).Order(ctx, want.Nr)
	if err != nil || got.Nr != want.Nr || got.Status != want.Status {
		t.Fatalf("order %+v, %v", got, err)
	}
}
