package copystore

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// cursorPage reads one page of q as NomenclaturePage gives it.
func cursorPage(t *testing.T, s *Store, k Key, q Query) (int, []Record) {
	t.Helper()
	var out []Record
	total, err := s.NomenclaturePage(context.Background(), k, q, func(r *Record) error {
		out = append(out, *r)
		return nil
	})
	if err != nil {
		t.Fatalf("%+v (cursor %+v): %v", q, q.Cursor, err)
	}
	return total, out
}

func recordIDs(rs []Record) []int64 {
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	return ids
}

// viaText is c as a link carries it: written and read back.
func viaText(t *testing.T, c Cursor) *Cursor {
	t.Helper()
	text, ok := c.Text()
	if !ok {
		t.Fatalf("%+v: no text", c)
	}
	back, err := ParseCursor(text)
	if err != nil || back != c {
		t.Fatalf("%+v: read back as %+v, %v", c, back, err)
	}
	return &back
}

// walkCursors checks that the pages of q (limit records each) reached by
// cursors, as the pager's links place them, are exactly its offset
// pages: forward from the first page by the next page and the one after,
// backward from the end by the previous page and the one before. It
// returns how many page boundaries fall inside a tie of the sort key.
func walkCursors(t *testing.T, s *Store, k Key, q Query, limit int) (ties int) {
	t.Helper()
	q.Limit = limit
	total, first := cursorPage(t, s, k, q)
	pages := max(1, (total+limit-1)/limit)
	byOffset := make([][]int64, pages+1)
	byOffset[1] = recordIDs(first)
	for p := 2; p <= pages; p++ {
		oq := q
		oq.Offset = (p - 1) * limit
		_, recs := cursorPage(t, s, k, oq)
		byOffset[p] = recordIDs(recs)
	}
	check := func(what string, p int, c *Cursor) []Record {
		t.Helper()
		cq := q
		cq.Cursor = c
		if _, ok := c.Text(); ok { // else the pager links by offset
			cq.Cursor = viaText(t, *c)
		}
		n, recs := cursorPage(t, s, k, cq)
		if n != total || !slices.Equal(recordIDs(recs), byOffset[p]) {
			t.Fatalf("%+v: %s page %d by cursor %+v: %d of %d records %v, by offset %v", q, what, p, *c, len(recs), n, recordIDs(recs), byOffset[p])
		}
		return recs
	}
	col := NomenclatureSorts[strings.TrimPrefix(q.Sort, "-")]
	page := first
	for p := 1; p < pages; p++ {
		c, err := CursorAt(q.Sort, &page[len(page)-1])
		if err != nil {
			t.Fatal(err)
		}
		next := check("next", p+1, &c)
		if col != "" {
			a, _ := sortValue(col, &page[len(page)-1])
			b, _ := sortValue(col, &next[0])
			if a == b {
				ties++
			}
		}
		if p+2 <= pages {
			c.Skip = limit
			check("next but one", p+2, &c)
		}
		page = next
	}
	page = check("last", pages, &Cursor{Sort: q.Sort, Before: true, End: true})
	for p := pages; p > 1; p-- {
		c, err := CursorAt(q.Sort, &page[0])
		if err != nil {
			t.Fatal(err)
		}
		c.Before = true
		prev := check("previous", p-1, &c)
		if p-2 >= 1 {
			c.Skip = limit
			check("previous but one", p-2, &c)
		}
		page = prev
	}
	return ties
}

// TestCursorPages: pages placed by cursors, as the pager's links place
// them, are exactly the offset pages, for every sort both ways, with
// filters and searches (the full-text read in id order included).
func TestCursorPages(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		first, err := s.Nomenclature(ctx, k, Query{Limit: 1})
		if err != nil || len(first) != 1 {
			t.Fatalf("%v %v", first, err)
		}
		queries := []Query{{}, {Q: "крос"}, {Q: "крос", Sort: "-price"}, {Q: "черн", Sort: "name"}, {Status: "online", Sort: "name"},
			{StockMax: new(5), Sort: "-quantity"}, {PriceMin: 100000, Sort: "brand"}, {Warehouse: first[0].Warehouse, Sort: "-updated"},
			{Q: "черн", Status: "online"}}
		keys := make([]string, 0, len(NomenclatureSorts))
		for key := range NomenclatureSorts {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			queries = append(queries, Query{Sort: key}, Query{Sort: "-" + key})
		}
		ties := 0
		for _, q := range queries {
			ties += walkCursors(t, s, k, q, 23)
		}
		if ties == 0 {
			t.Error("no page boundary fell inside a tie of the sort key")
		}
	})
}

// TestCursorTies: where most records share a price, pages placed by
// cursors still follow the id within the tie, both ways.
func TestCursorTies(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		s, k := synced(t, b, m, 1001)
		if _, err := s.w.Exec(s.q(`UPDATE catalog_nomenclature SET price = 4200, sale_price = 4200 WHERE seller_id = ? AND env = ? AND id % 5 <> 0`), k.SellerID, k.Env); err != nil {
			t.Fatal(err)
		}
		for _, q := range []Query{{Sort: "price"}, {Sort: "-price"}, {Sort: "-sale_price", Status: "online"}} {
			if ties := walkCursors(t, s, k, q, 7); ties < 10 {
				t.Errorf("%+v: %d page boundaries inside a tie, want many", q, ties)
			}
		}
	})
}

// TestCursorRefused: a cursor that does not fit the query's sort is
// ErrBadCursor, never a query; a text value is a value, whatever it holds.
func TestCursorRefused(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, k := synced(t, b, m, 1001)
		for _, c := range []struct {
			sort string
			c    Cursor
		}{
			{"price", Cursor{Sort: "-price", ID: 1, Value: "100"}},
			{"price", Cursor{Sort: "price", ID: 1, Value: "cheap"}},
			{"price", Cursor{Sort: "price", ID: 1, Value: "0100"}},
			{"price", Cursor{Sort: "price", ID: 0, Value: "100"}},
			{"price", Cursor{Sort: "price", ID: 1, Value: "100", Skip: -1}},
			{"price", Cursor{Sort: "price", ID: 1, Value: "100", Skip: MaxLimit + 1}},
			{"price", Cursor{Sort: "price", End: true, Before: true, ID: 1}},
			{"price", Cursor{Sort: "price", End: true}},
			{"", Cursor{ID: 1, Value: "1"}},
			{"name", Cursor{Sort: "name", ID: 1, Value: "a\x00b"}},
			{"name", Cursor{Sort: "name", ID: 1, Value: "\xff"}},
			{"-updated", Cursor{Sort: "-updated", ID: 1, Value: "soon"}},
		} {
			_, err := s.NomenclaturePage(ctx, k, Query{Sort: c.sort, Cursor: &c.c}, func(*Record) error { return nil })
			if !errors.Is(err, ErrBadCursor) {
				t.Errorf("sort %q, cursor %+v: %v, want ErrBadCursor", c.sort, c.c, err)
			}
		}
		for _, v := range []string{"x' OR 1=1 --", "\"; DROP TABLE catalog_nomenclature; --", "%", "Кроссовки"} {
			_, recs := cursorPage(t, s, k, Query{Sort: "name", Cursor: &Cursor{Sort: "name", ID: 1, Value: v}})
			for _, r := range recs {
				if !s.pg && r.Name < v {
					t.Errorf("value %q: record %q listed after it", v, r.Name)
				}
			}
		}
		if n, err := s.CountNomenclature(ctx, k, Query{}); err != nil || n != 3*productsInTests {
			t.Fatalf("%d records after the odd values, %v", n, err)
		}
	})
}

// TestCursorText: a position's text reads back as the position; one too
// long for a link is not made; anything else does not read.
func TestCursorText(t *testing.T) {
	t.Parallel()
	for _, c := range []Cursor{
		{Sort: "-price", ID: 7, Value: "149900"},
		{Sort: "name", ID: 12, Value: "Кроссовки. Чёрные, 42"},
		{Sort: "name", ID: 12, Skip: 50, Before: true, Value: ""},
		{ID: 3},
		{Sort: "-updated", Before: true, End: true},
	} {
		viaText(t, c)
	}
	if _, ok := (Cursor{Sort: "name", ID: 1, Value: strings.Repeat("я", 200)}).Text(); ok {
		t.Error("a 400-byte value made a cursor longer than MaxCursorText")
	}
	good, _ := (Cursor{Sort: "price", ID: 5, Value: "100"}).Text()
	for _, s := range []string{"", "!", good + "=", good[:len(good)-1], strings.Repeat("A", MaxCursorText+4),
		enc("x0.5.price.100"), enc("a00.5.price.100"), enc("a0.+5.price.100"), enc("a0.5.nosuch.100"), enc("a0.5.price"),
		enc("a0.5.-.100"), enc("e0.0.price.100"), enc("b0.0.price.100"), enc("a0.5..7"), enc("a1001.5.price.1")} {
		if c, err := ParseCursor(s); !errors.Is(err, ErrBadCursor) {
			t.Errorf("%q read as %+v, %v", s, c, err)
		}
	}
}

func enc(s string) string { return cursorEncoding.EncodeToString([]byte(s)) }

// FuzzParseCursor: whatever reads as a cursor is bounded, names a
// position its sort can have, and is the one text of that position.
func FuzzParseCursor(f *testing.F) {
	for _, c := range []Cursor{{Sort: "-price", ID: 7, Value: "149900"}, {Sort: "name", ID: 12, Value: "a.b.c"}, {Before: true, End: true}, {ID: 1, Skip: 50, Before: true}} {
		text, _ := c.Text()
		f.Add(text)
	}
	f.Add(enc("a0.5.price.1x"))
	f.Add("%00")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCursor(s)
		if err != nil {
			if !errors.Is(err, ErrBadCursor) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if len(s) > MaxCursorText {
			t.Fatalf("%q: longer than MaxCursorText", s)
		}
		if _, err := c.key(c.Sort); err != nil {
			t.Fatalf("%q: %+v does not fit its sort: %v", s, c, err)
		}
		if text, ok := c.Text(); !ok || text != s {
			t.Fatalf("%q reads as %+v, written %q", s, c, text)
		}
	})
}

// TestCursorPagePlans: on SQLite a page placed by a cursor, either way,
// is read through the sort's index from the cursor's position and stops
// after the page, rather than sorting the list or counting past the
// records ahead of it.
func TestCursorPagePlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newBackend(t, filepath.Join(t.TempDir(), "catalog.db")).open()
	k := Key{SellerID: 1001, Env: "test"}
	fillPlanCopy(t, s, k, 3*broadLimit)
	for _, c := range []struct {
		q    Query
		plan string
	}{
		{Query{Sort: "-price", Cursor: &Cursor{Sort: "-price", ID: 500, Value: "4200"}}, "catalog_nomenclature_price (seller_id=? AND env=? AND price<?)"},
		{Query{Sort: "-price", Cursor: &Cursor{Sort: "-price", Before: true, ID: 500, Value: "4200"}}, "catalog_nomenclature_price (seller_id=? AND env=? AND price>?)"},
		{Query{Sort: "-price", Cursor: &Cursor{Sort: "-price", Before: true, End: true}}, "catalog_nomenclature_price"},
		{Query{Sort: "name", Cursor: &Cursor{Sort: "name", Before: true, ID: 500, Value: "Кроссовки 5"}}, "catalog_nomenclature_name (seller_id=? AND env=? AND name<?)"},
		{Query{Cursor: &Cursor{Before: true, ID: 500}}, "catalog_nomenclature_list (seller_id=? AND env=? AND rowid<?)"},
		{Query{Status: "online", Sort: "-price", Cursor: &Cursor{Sort: "-price", ID: 500, Value: "4200"}}, "catalog_nomenclature_status_price (seller_id=? AND env=? AND status=? AND price<?)"},
		{Query{Q: "чёрн", Cursor: &Cursor{Before: true, ID: 500}}, "catalog_nomenclature_fts VIRTUAL TABLE INDEX 192:M1<"},
	} {
		query, args, err := s.nomenclatureQuery(ctx, k, c.q)
		if err != nil {
			t.Fatal(err)
		}
		p := queryPlan(t, s, query, args)
		if !strings.Contains(p, c.plan) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%+v %+v: plan does not walk %s from the cursor:\n%s", c.q, *c.q.Cursor, c.plan, p)
		}
	}
}
