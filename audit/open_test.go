package audit

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// An entry being written along its change is not in the history (the
// list, its count, the export, a product's changes) until finished; one
// left open past OpenFor (a dashboard that stopped mid-send) is shown as
// it stands: the items it recorded, outcome unknown, the message that
// says it was interrupted.
func TestOpenEntryHiddenUntilFinished(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		s, err := NewStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
		s.now = func() time.Time { return now }
		f := Filter{SellerID: 7, Environment: "test"}
		seen := func() (listed, total, exported, naming int) {
			t.Helper()
			list, total, err := s.List(ctx, f, 10, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Each(ctx, f, func(Entry, Item) error { exported++; return nil }); err != nil {
				t.Fatal(err)
			}
			named, err := s.Naming(ctx, f, []string{"SKU-1"}, 10, 10)
			if err != nil {
				t.Fatal(err)
			}
			return len(list), total, exported, len(named)
		}
		o, err := s.Begin(ctx, Entry{At: now, Kind: KindPrice, SellerID: 7, Environment: "test", UserName: "Anna"})
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Append(ctx, []Item{{Key: "SKU-1", Outcome: Accepted}, {Key: "SKU-2", Outcome: Refused}}); err != nil {
			t.Fatal(err)
		}
		if l, n, x, p := seen(); l+n+x+p != 0 {
			t.Errorf("an open entry is shown: %d listed of %d, %d lines exported, %d on the product", l, n, x, p)
		}

		// Left open past OpenFor: shown as interrupted, with its items.
		s.now = func() time.Time { return now.Add(OpenFor + time.Minute) }
		list, total, err := s.List(ctx, f, 10, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if total != 1 || len(list) != 1 {
			t.Fatalf("an entry left open: %d listed of %d; want it shown", len(list), total)
		}
		e := list[0]
		if e.Outcome != Unknown || e.ItemCount != 2 || len(e.Items) != 2 || e.Items[1].Key != "SKU-2" || e.Message.String() == "" ||
			len(e.Message) != 1 || e.Message[0].Key != "history.interrupted" {
			t.Errorf("an entry left open reads %+v; want unknown, its 2 items, the interrupted message", e)
		}
		if _, _, x, p := seen(); x != 2 || p != 1 {
			t.Errorf("an entry left open: %d lines exported, %d on the product; want 2 and 1", x, p)
		}

		// Finished: shown at once, with the outcome of its items.
		s.now = func() time.Time { return now }
		if err := o.Finish(ctx, now.Add(time.Second), []Item{{Key: "SKU-3", Outcome: Unsent}}, i18n.Of(i18n.Plain("stopped")...)); err != nil {
			t.Fatal(err)
		}
		list, _, err = s.List(ctx, f, 10, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].Outcome != Partial || list[0].ItemCount != 3 || len(list[0].Items) != 3 || list[0].Message.String() != "stopped" ||
			!list[0].At.Equal(now.Add(time.Second)) {
			t.Errorf("finished entry %+v; want partial, 3 items, the note, the finish's time", list)
		}
	})
}

// Entries recorded before the open state existed read as finished once the
// step that adds it has run.
func TestMigrationOldEntriesFinished(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		old := sqldb.Steps{SQLite: steps.SQLite[:2], Postgres: steps.Postgres[:2]}
		if err := db.Migrate(ctx, "audit", old); err != nil {
			t.Fatal(err)
		}
		at := time.Now()
		if _, err := db.Writer().ExecContext(ctx, db.Rebind(`INSERT INTO audit_entries (at, client_id, user_name, seller_id, environment, kind, ref, outcome, message, item_count, dropped)
			VALUES (?, 'c', 'Anna', 7, 'test', 'price', '', 'accepted', '[]', 0, 0)`), sqldb.Millis(at)); err != nil {
			t.Fatal(err)
		}
		s, err := NewStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		list, total, err := s.List(ctx, Filter{SellerID: 7, Environment: "test"}, 10, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if total != 1 || len(list) != 1 || list[0].UserName != "Anna" {
			t.Errorf("an entry recorded before the step: %d listed of %d; want it shown", len(list), total)
		}
	})
}

// Finish stores a tail of several batches (a send stopped early leaves its
// unsent rows to Finish) in one transaction, on SQLite's one writer too.
func TestOpenFinishManyItems(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		s, err := NewStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		o, err := s.Begin(ctx, Entry{Kind: KindPrice, SellerID: 7, Environment: "test"})
		if err != nil {
			t.Fatal(err)
		}
		items := make([]Item, 2*itemBatch+50)
		for i := range items {
			items[i] = Item{Key: fmt.Sprintf("SKU-%d", i), Outcome: Unsent}
		}
		if err := o.Append(ctx, items[:30]); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- o.Finish(ctx, time.Time{}, items[30:], nil) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("Finish of several batches did not return in 20 s")
		}
		list, _, err := s.List(ctx, Filter{SellerID: 7, Environment: "test"}, 1, 0, len(items)+1)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].ItemCount != len(items) || len(list[0].Items) != len(items) || list[0].Items[len(items)-1].Key != items[len(items)-1].Key {
			t.Errorf("finished entry holds %d items; want %d in order", len(list[0].Items), len(items))
		}
	})
}
