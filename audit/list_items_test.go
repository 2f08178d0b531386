package audit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
)

// items makes n items keyed prefix-1..prefix-n.
func items(prefix string, n int) []audit.Item {
	out := make([]audit.Item, n)
	for i := range out {
		out[i] = audit.Item{Key: fmt.Sprintf("%s-%d", prefix, i+1), Outcome: audit.Accepted}
	}
	return out
}

// TestListItemsOfEveryEntry: a page's entries each come with their own
// first items, in order and at most as many as asked, whatever the others
// hold: a large entry, one without items, one written in parts along a
// send; a page past the last still says how many entries there are.
func TestListItemsOfEveryEntry(t *testing.T) {
	stores(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		f := audit.Filter{SellerID: 1, Environment: "production"}
		for i, n := range []int{25, 0, 3} {
			if err := s.Record(ctx, entry(t0.Add(time.Duration(i)*time.Minute), 1, "production", audit.KindPrice, "Anna", items(fmt.Sprint("E", i), n)...)); err != nil {
				t.Fatal(err)
			}
		}
		// Written in three parts, finished last: the newest.
		o, err := s.Begin(ctx, entry(t0.Add(time.Hour), 1, "production", audit.KindPrice, "Boris"))
		if err != nil {
			t.Fatal(err)
		}
		all := items("P", 12)
		if err := o.Append(ctx, all[:4]); err != nil {
			t.Fatal(err)
		}
		if err := o.Append(ctx, all[4:7]); err != nil {
			t.Fatal(err)
		}
		if err := o.Finish(ctx, t0.Add(time.Hour), all[7:], nil); err != nil {
			t.Fatal(err)
		}

		list, total, err := s.List(ctx, f, 10, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if total != 4 || len(list) != 4 {
			t.Fatalf("total %d, %d entries; want 4, 4", total, len(list))
		}
		want := []struct {
			count int
			keys  []string
		}{
			{12, []string{"P-1", "P-2", "P-3", "P-4", "P-5", "P-6", "P-7", "P-8", "P-9", "P-10"}},
			{3, []string{"E2-1", "E2-2", "E2-3"}},
			{0, nil},
			{25, []string{"E0-1", "E0-2", "E0-3", "E0-4", "E0-5", "E0-6", "E0-7", "E0-8", "E0-9", "E0-10"}},
		}
		for i, w := range want {
			var keys []string
			for _, it := range list[i].Items {
				keys = append(keys, it.Key)
			}
			if list[i].ItemCount != w.count || fmt.Sprint(keys) != fmt.Sprint(w.keys) {
				t.Errorf("entry %d: %d items, shown %v; want %d, %v", i, list[i].ItemCount, keys, w.count, w.keys)
			}
		}

		// Fewer shown, and none.
		if list, _, err := s.List(ctx, f, 2, 1, 2); err != nil || len(list) != 2 || len(list[0].Items) != 2 || list[0].Items[1].Key != "E2-2" || len(list[1].Items) != 0 {
			t.Fatalf("2 entries from the second, 2 items each: %+v %v", list, err)
		}
		if list, total, err := s.List(ctx, f, 10, 0, 0); err != nil || total != 4 || len(list) != 4 || len(list[0].Items) != 0 {
			t.Fatalf("no items asked: %d %+v %v", total, list, err)
		}
		// A page past the last.
		if list, total, err := s.List(ctx, f, 10, 10, 10); err != nil || total != 4 || len(list) != 0 {
			t.Fatalf("past the last page: total %d, %d entries, %v; want 4, 0", total, len(list), err)
		}
		// Nothing at all.
		if list, total, err := s.List(ctx, audit.Filter{SellerID: 9, Environment: "production"}, 10, 0, 10); err != nil || total != 0 || len(list) != 0 {
			t.Fatalf("no entries: total %d, %d entries, %v", total, len(list), err)
		}

		// A product's changes: the items with its keys, across entries.
		named, err := s.Naming(ctx, f, []string{"E0-20", "E0-3", "P-11", "E2-1"}, 10, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range named {
			for _, it := range e.Items {
				got = append(got, it.Key)
			}
		}
		if fmt.Sprint(got) != "[P-11 E2-1 E0-3]" {
			t.Fatalf("naming, one item an entry: %v", got)
		}
	})
}
