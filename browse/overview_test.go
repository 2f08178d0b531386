package browse

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestOverviewAllMatches: the all-accounts start page's read gives the
// seller's own overview as Overview reads it and every account's glance
// as Glances reads it (a copy never made, another account's), through
// the page gate once; a refused credential refuses it as Overview does.
func TestOverviewAllMatches(t *testing.T) {
	r := newRig(t).synced(t)
	ctx := context.Background()
	reader := New(r.copy, nil)
	never := copystore.Key{SellerID: r.key.SellerID + 1000, Env: r.key.Env}
	keys := []copystore.Key{never, r.key}
	entered := 0
	own, gs, err := r.seller(reader, &entered).OverviewAll(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if entered != 1 {
		t.Errorf("the page gate was entered %d times, want 1", entered)
	}
	want, err := r.seller(reader, nil).Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(own, want) || Total(own.Nomenclature) == 0 {
		t.Errorf("own overview %+v, Overview's %+v", own, want)
	}
	wantGs, err := reader.Glances(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gs, wantGs) || len(gs) != 2 || gs[1].NewOrders != want.NewOrders {
		t.Errorf("glances %+v, Glances' %+v", gs, wantGs)
	}
	if own, gs, err := r.seller(reader, nil).OverviewAll(ctx, keys[:1]); err != nil || len(gs) != 1 || !reflect.DeepEqual(own, want) {
		t.Errorf("keys without the seller's own: %+v %+v %v", own, gs, err)
	}
	if err := r.copy.Store().Revoke(ctx, r.key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.seller(reader, nil).OverviewAll(ctx, keys); !errors.Is(err, copystore.ErrRevoked) {
		t.Errorf("a refused credential: %v, want ErrRevoked", err)
	}
}
