package massupdate

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// The history's entry written along a send holds what Record writes of
// the same send's report (rows in order, each outcome and message, the
// entry's outcome, counts and note, an error matched to no row), on both
// databases; and it is written chunk by chunk: the second chunk's request
// waits (a generous deadline) until the first chunk's rows are stored.
func TestHistoryAlongAsRecord(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		store, err := audit.NewStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		stored := func() int {
			var n int
			if err := db.Reads().QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_items`).Scan(&n); err != nil {
				t.Error(err)
			}
			return n
		}
		cp := &signalCopy{given: make(chan struct{}, 16)}
		var sent [][]string
		kind := copyKind(func(chunk []string) (*apiclient.UpdateResult, error) {
			switch chunk[0] {
			case "A":
				return &apiclient.UpdateResult{Errors: []apiclient.ItemError{
					{MarketplaceSKU: "B", Messages: []string{"price too low"}},
					{WarehouseCode: "W", Barcode: "9", Messages: []string{"no such barcode"}}, // matches no row
				}}, nil
			case "C":
				for deadline := time.Now().Add(20 * time.Second); stored() < 2; time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						return nil, errors.New("the first chunk's rows never reached the history while the second was in flight")
					}
				}
				return &apiclient.UpdateResult{}, nil
			default: // E: no answer
				return nil, fmt.Errorf("chunk 3: %w", apiclient.ErrOutcomeUnknown)
			}
		}, &sent)
		kind.ErrorKey = func(e apiclient.ItemError) string {
			if e.MarketplaceSKU != "" {
				return e.MarketplaceSKU
			}
			return e.WarehouseCode + "|" + e.Barcode
		}
		keys := []string{"A", "B", "C", "D", "E", "F", "G"}
		texts := func(k string) (i18n.Msgs, i18n.Msgs) {
			return i18n.Of(i18n.Plain(k + " old")...), i18n.Of(i18n.Plain(k + " new")...)
		}
		at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
		who := audit.Entry{Kind: audit.KindPrice, ClientID: "client-1", UserName: "Anna", SellerID: 7, Environment: "test"}
		h := &HistoryAlong{Ctx: ctx, Store: store, Entry: who, Texts: texts, Now: func() time.Time { return at }}
		rep, err := SendPatching(ctx, &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 7, kind, keys, nil, CopyAt{Copy: cp, Log: h})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Accepted != 3 || rep.Rejected != 1 || rep.Unknown != 2 || rep.Unsent != 1 || len(rep.Unmatched) != 1 {
			t.Fatalf("report %+v; want 3 accepted, 1 rejected, 2 unknown, 1 unsent, 1 unmatched (the second chunk's wait failed?)", rep)
		}
		if err := h.Finish(rep, keys); err != nil {
			t.Fatal(err)
		}
		items, note := rep.AuditItems(keys, texts)
		whole := who
		whole.At, whole.Items, whole.Message = at, items, note
		if err := store.Record(ctx, whole); err != nil {
			t.Fatal(err)
		}
		list, total, err := store.List(ctx, audit.Filter{SellerID: 7, Environment: "test"}, 10, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if total != 2 || len(list) != 2 {
			t.Fatalf("%d entries listed of %d; want the two", len(list), total)
		}
		along, recorded := list[1], list[0] // newest first; the same time, so by id
		if along.ID > recorded.ID {
			along, recorded = recorded, along
		}
		along.ID, recorded.ID = 0, 0
		if !reflect.DeepEqual(along, recorded) {
			t.Errorf("written along the send:\n%+v\nrecorded whole:\n%+v", along, recorded)
		}
		if recorded.Outcome != audit.Partial || recorded.ItemCount != 7 || len(recorded.Items) != 7 || len(recorded.Message) == 0 {
			t.Errorf("the entry recorded whole is not the send's: %+v", recorded)
		}
	})
}

// A send whose first chunk goes unanswered tells its log nothing: the
// entry is recorded whole at Finish, never left open.
func TestHistoryAlongNothingAnswered(t *testing.T) {
	ctx := context.Background()
	store, err := audit.NewStore(ctx, sqldbtest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	var sent [][]string
	kind := testKind(func([]string) (*apiclient.UpdateResult, error) {
		return nil, fmt.Errorf("chunk: %w", apiclient.ErrOutcomeUnknown)
	}, &sent)
	keys := []string{"A", "B", "C"}
	texts := func(string) (i18n.Msgs, i18n.Msgs) { return nil, nil }
	h := &HistoryAlong{Ctx: ctx, Store: store, Entry: audit.Entry{Kind: audit.KindPrice, SellerID: 7, Environment: "test"}, Texts: texts, Now: time.Now}
	rep, err := SendPatching(ctx, &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 7, kind, keys, nil, CopyAt{Log: h})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Finish(rep, keys); err != nil {
		t.Fatal(err)
	}
	list, _, err := store.List(ctx, audit.Filter{SellerID: 7, Environment: "test"}, 10, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Outcome != audit.Unknown || list[0].ItemCount != 3 || list[0].Items[2].Outcome != audit.Unsent {
		t.Errorf("entries %+v; want one, unknown, of 3 rows", list)
	}
}
