package copystore

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// cardCatalogue is catalogue(n, 0) with every record but the first nine
// a size of a product card (nine records, three SKUs, to a card).
func cardCatalogue(n int) *listSource {
	src := catalogue(n, 0)
	for i := 9; i < len(src.recs); i++ {
		src.recs[i].ParentSKU = fmt.Sprintf("CARD%03d", i/9)
	}
	return src
}

// priceState is what Accept writes of the prices of the copy of k: each
// record's replaced, new and pending prices, and the price points, in a
// stable order, without the key.
func priceState(t *testing.T, s *Store, k Key) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	read := func(query string) {
		rows, err := s.w.QueryContext(ctx, s.q(query), k.SellerID, k.Env)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	read(`SELECT barcode, marketplace_sku, parent_sku, price, sale_price, price_was, sale_was, price_to, sale_to, price_changed_at,
		pending_price, pending_sale, pending_at FROM catalog_nomenclature WHERE seller_id = ? AND env = ? ORDER BY barcode`)
	read(`SELECT warehouse, barcode, marketplace_sku, parent_sku, price, sale_price, observed_at FROM catalog_price_points
		WHERE seller_id = ? AND env = ? ORDER BY barcode, observed_at, price, sale_price`)
	return out
}

// TestAcceptBatchAsOneByOne: price changes accepted together write into
// the copy exactly what the same changes accepted one at a time write:
// the records named by their SKU or by their card, the prices replaced,
// the pending marks and the price points, a SKU named twice (the later
// change wins, the earlier one is what it replaced) and a SKU the copy
// does not hold among them.
func TestAcceptBatchAsOneByOne(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		y := &Syncer{Store: s, Lock: b.lock, PageLimit: 50}
		together, alone := testKey(4500), testKey(4501)
		src := cardCatalogue(90)
		for _, k := range []Key{together, alone} {
			if err := y.Run(ctx, k, src); err != nil {
				t.Fatal(err)
			}
		}
		price := func(p int64) *int64 { return &p }
		changes := []Change{
			{SKU: "SKU00001", Price: price(5000), SalePrice: 4000},
			{SKU: "CARD002", Price: price(7000)},
			{SKU: "SKU00000", Price: price(1000), SalePrice: 900}, // the prices the copy shows
			{SKU: "NOT-IN-COPY", Price: price(100)},
			{Warehouse: "WH1", Barcode: "BC00004", Quantity: new(9)},
			{SKU: "SKU00001", Price: price(6000), SalePrice: 5500},
			{SKU: "CARD003", Price: price(8000), SalePrice: 100},
			{SKU: "CARD002", Price: price(7100)},
			{SKU: "SKU00005", Price: price(1234)},
		}
		at := time.Now().Add(time.Hour).Truncate(time.Millisecond)
		s.SetClock(func() time.Time { return at })
		if err := s.Accept(ctx, together, changes); err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if err := s.Accept(ctx, alone, []Change{c}); err != nil {
				t.Fatal(err)
			}
		}
		got, want := priceState(t, s, together), priceState(t, s, alone)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("accepted together:\n%s\none by one:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// A later batch over the first: what it replaced is the first's.
		again := []Change{{SKU: "SKU00001", Price: price(6100)}, {SKU: "CARD002", Price: price(7000), SalePrice: 10}}
		if err := s.Accept(ctx, together, again); err != nil {
			t.Fatal(err)
		}
		for _, c := range again {
			if err := s.Accept(ctx, alone, []Change{c}); err != nil {
				t.Fatal(err)
			}
		}
		got, want = priceState(t, s, together), priceState(t, s, alone)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("second batch, together:\n%s\none by one:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(got) <= 90 {
			t.Errorf("no price points were written: %d rows", len(got))
		}
	})
}

// TestAcceptStatementsPostgres counts the statements a form's chunk of
// price changes sends on PostgreSQL: a few a batch, not three a row.
func TestAcceptStatementsPostgres(t *testing.T) {
	t.Parallel()
	url := sqldbtest.PostgresURL(t)
	ctx := context.Background()
	tr := &statementCounter{}
	db, err := sqldb.OpenPostgresTraced(ctx, url, tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	k := testKey(4502)
	if err := (&Syncer{Store: s, Lock: db}).Run(ctx, k, cardCatalogue(300)); err != nil {
		t.Fatal(err)
	}
	const rows = acceptBatch + 100 // two batches
	changes := make([]Change, 0, rows)
	for i := range rows {
		p := int64(5000 + i)
		changes = append(changes, Change{SKU: fmt.Sprintf("SKU%05d", i), Price: &p})
	}
	before := tr.n.Load()
	if err := s.Accept(ctx, k, changes); err != nil {
		t.Fatal(err)
	}
	// Four statements a batch, the transaction's begin and commit.
	n := tr.n.Load() - before
	if limit := int64(4*2 + 2); n > limit {
		t.Errorf("accepting %d price changes sent %d statements, want at most %d", rows, n, limit)
	} else {
		t.Logf("%d price changes: %d statements", rows, n)
	}
	recs, err := s.Nomenclature(ctx, k, Query{Q: "BC00299"})
	if err != nil || len(recs) != 1 || recs[0].Pending == nil || recs[0].Pending.Price != 5000+299/3 {
		t.Fatalf("the last record's price is not pending: %+v %v", recs, err)
	}
}

// BenchmarkAcceptChunk: a chunk of the prices form (500 price changes of
// distinct SKUs) accepted into a copy of 10,000 and of 50,000 records, on
// SQLite: the time a chunk takes should not grow with the copy.
func BenchmarkAcceptChunk(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			ctx := context.Background()
			be := newBackend(b, b.TempDir()+"/catalog.db")
			s := be.open()
			k := testKeyB()
			if err := (&Syncer{Store: s, Lock: be.lock, PageLimit: 1000}).Run(ctx, k, cardCatalogue(n)); err != nil {
				b.Fatal(err)
			}
			changes := make([]Change, 500)
			round := int64(0)
			for b.Loop() {
				round++
				for i := range changes {
					p := 5000 + round*1000 + int64(i)
					changes[i] = Change{SKU: fmt.Sprintf("SKU%05d", i*6), Price: &p}
				}
				if err := s.Accept(ctx, k, changes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
