package copystore

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestOverviewsMatchOverview: the overviews read together are, copy by
// copy, what Overview reads for each alone: synced copies (one in another
// environment of the same seller), a revoked copy and a copy never made;
// copies not asked for are left out.
func TestOverviewsMatchOverview(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 37}
		a, c, other, revoked, never := testKey(5101), testKey(5102), testKey(5103), testKey(5104), testKey(5105)
		sameSeller := Key{SellerID: a.SellerID, Env: c.Env}
		for i, k := range []Key{a, c, other, revoked, sameSeller} {
			if err := y.Run(ctx, k, catalogue(40+30*i, i%2)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Revoke(ctx, revoked); err != nil {
			t.Fatal(err)
		}
		keys := []Key{a, c, revoked, never, sameSeller}
		ovs, err := s.Overviews(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			want, werr := s.Overview(ctx, k)
			got, gerr := ovs.Of(k)
			if !errors.Is(gerr, werr) && (gerr != nil || werr != nil) {
				t.Fatalf("%v: error %v, Overview's %v", k, gerr, werr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v: overview %+v, Overview's %+v", k, got, want)
			}
		}
		if _, ok := ovs.ovs[other]; ok {
			t.Fatal("a copy not asked for was read")
		}
		if ov, _ := ovs.Of(a); ov.RecordsByStatus == nil || len(ov.Sync) == 0 {
			t.Fatalf("a synced copy's overview is empty: %+v", ov)
		}
	})
}
