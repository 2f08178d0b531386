package audit_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// BenchmarkRecordBulkJob10k: recording a 10,000-row bulk job, the
// largest entry the dashboard writes, on SQLite.
func BenchmarkRecordBulkJob10k(b *testing.B) {
	s := sqliteStore(b)
	items := make([]audit.Item, 10_000)
	for i := range items {
		items[i] = audit.Item{Key: fmt.Sprintf("MP%014d", i), Old: i18n.Msgs{{Text: "17 399.00"}}, New: i18n.Msgs{{Text: "17 499.00"}}, Outcome: audit.Accepted}
	}
	b.ResetTimer()
	for b.Loop() {
		if err := s.Record(context.Background(), audit.Entry{SellerID: 1, Environment: "production", Kind: audit.KindBulk, Items: items}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPriceForm10k: the 10,000-row price form's entry on SQLite,
// recorded whole after the send (record) beside written along it in
// chunks of 500 (along: Begin, 20 Appends, Finish), side by side: the
// second's CPU is what the send's writer goroutine takes, the first's
// what follows the last answer.
func BenchmarkPriceForm10k(b *testing.B) {
	s := sqliteStore(b)
	ctx := context.Background()
	items := make([]audit.Item, 10_000)
	for i := range items {
		items[i] = audit.Item{Key: fmt.Sprintf("MP%014d", i), Old: i18n.Msgs{{Text: "17 399.00"}}, New: i18n.Msgs{{Text: "17 499.00"}}, Outcome: audit.Accepted}
	}
	e := audit.Entry{SellerID: 1, Environment: "production", Kind: audit.KindPrice, UserName: "Anna"}
	b.Run("record", func(b *testing.B) {
		for b.Loop() {
			e := e
			e.Items = items
			if err := s.Record(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("along", func(b *testing.B) {
		for b.Loop() {
			o, err := s.Begin(ctx, e)
			if err != nil {
				b.Fatal(err)
			}
			for start := 0; start < len(items); start += 500 {
				if err := o.Append(ctx, items[start:start+500]); err != nil {
					b.Fatal(err)
				}
			}
			if err := o.Finish(ctx, time.Time{}, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHistoryPageAndExport: a history page (50 entries, 10 items
// each) and the export of the whole set, over 2,000 entries of 5 items.
func BenchmarkHistoryPageAndExport(b *testing.B) {
	s := sqliteStore(b)
	ctx := context.Background()
	t0 := time.Now().Add(-time.Hour)
	for i := range 2000 {
		items := make([]audit.Item, 5)
		for k := range items {
			items[k] = audit.Item{Key: fmt.Sprintf("MP%08d-%d", i, k), Old: i18n.Msgs{{Text: "1 000.00"}}, New: i18n.Msgs{{Text: "1 100.00"}}, Outcome: audit.Accepted}
		}
		if err := s.Record(ctx, audit.Entry{At: t0.Add(time.Duration(i) * time.Second), SellerID: 1, Environment: "production", Kind: audit.KindPrice, UserName: "Anna", Items: items}); err != nil {
			b.Fatal(err)
		}
	}
	f := audit.Filter{SellerID: 1, Environment: "production"}
	b.Run("page", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.List(ctx, f, 50, 0, 10); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("search", func(b *testing.B) {
		f := f
		f.Text = "MP00001999-4"
		for b.Loop() {
			if _, n, err := s.List(ctx, f, 50, 0, 10); err != nil || n != 1 {
				b.Fatal(err, n)
			}
		}
	})
	b.Run("export", func(b *testing.B) {
		for b.Loop() {
			w := audit.NewCSVWriter(io.Discard)
			if err := s.Each(ctx, f, w.Write); err != nil {
				b.Fatal(err)
			}
			w.Flush()
		}
	})
}
