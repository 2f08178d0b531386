package audit_test

import (
	"context"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
)

// TestNaming: the entries holding an item with one of the keys, newest
// first, of their seller and environment only, each with only those items.
func TestNaming(t *testing.T) {
	stores(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		for _, e := range []audit.Entry{
			entry(t0, 1, "production", audit.KindPrice, "Anna", audit.Item{Key: "SKU-1", Outcome: audit.Accepted}, audit.Item{Key: "SKU-2", Outcome: audit.Accepted}),
			entry(t0.Add(time.Hour), 1, "production", audit.KindStock, "Anna", audit.Item{Key: "WH|BC-1", Outcome: audit.Accepted}),
			entry(t0.Add(2*time.Hour), 1, "production", audit.KindPrice, "Anna", audit.Item{Key: "SKU-2", Outcome: audit.Accepted}),
			entry(t0.Add(3*time.Hour), 2, "production", audit.KindPrice, "Anna", audit.Item{Key: "SKU-1", Outcome: audit.Accepted}),
			entry(t0.Add(4*time.Hour), 1, "test", audit.KindPrice, "Anna", audit.Item{Key: "SKU-1", Outcome: audit.Accepted}),
		} {
			if err := s.Record(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Naming(ctx, audit.Filter{SellerID: 1, Environment: "production"}, []string{"SKU-1", "WH|BC-1"}, 10, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Kind != audit.KindStock || got[1].Kind != audit.KindPrice {
			t.Fatalf("entries %+v", got)
		}
		if it := got[1].Items; len(it) != 1 || it[0].Key != "SKU-1" || got[1].ItemCount != 2 {
			t.Errorf("items of the price entry: %+v (count %d)", it, got[1].ItemCount)
		}
		if got, err := s.Naming(ctx, audit.Filter{SellerID: 1, Environment: "production"}, []string{"SKU-1", "WH|BC-1"}, 1, 5); err != nil || len(got) != 1 || got[0].Kind != audit.KindStock {
			t.Errorf("limit 1: %+v %v", got, err)
		}
		if got, err := s.Naming(ctx, audit.Filter{SellerID: 1, Environment: "production"}, nil, 10, 5); err != nil || len(got) != 0 {
			t.Errorf("no keys: %+v %v", got, err)
		}
	})
}
