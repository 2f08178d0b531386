package browse

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sheets"
)

func TestSaleCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		price, sale int64
		want        string
	}{{149950, 99900, "999.00"}, {149950, 149950, ""}, {149950, 0, ""}, {100, 200, ""}} {
		if got := SaleCell(tc.price, tc.sale); got != tc.want {
			t.Errorf("SaleCell(%d, %d) = %q, want %q", tc.price, tc.sale, got, tc.want)
		}
	}
}

// TestExportRows: a page export is the page the screen reads, a row per
// record (nomenclature) or per product with its warehouses joined
// (prices); an export of every record stops past its bound of rows.
func TestExportRows(t *testing.T) {
	r := newRig(t).synced(t)
	ctx := context.Background()
	label := func(s string) string { return "<" + s + ">" }
	s := r.seller(New(r.copy, nil), nil)
	page, err := s.Nomenclature(ctx, Query{Page: 1, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	rows, n, err := s.ExportRows(ctx, Query{Page: 1, Limit: 20}, false, false, 5, label)
	if err != nil || n != 1 || len(rows) != len(page.Records) {
		t.Fatalf("page export: %d rows of %d, page %d, %v", len(rows), len(page.Records), n, err)
	}
	first := page.Records[0]
	if got := rows[0]; len(got) != len(NomenclatureSheet.Columns) || got[0] != first.WarehouseCode || got[1] != first.Barcode || got[7] != "<"+first.Status+">" {
		t.Errorf("first row %q of %+v", got, first)
	}
	prices, _, err := s.ExportRows(ctx, Query{Page: 1, Limit: 20}, true, false, 5, label)
	if err != nil {
		t.Fatal(err)
	}
	skus := map[string]bool{}
	for _, row := range prices {
		if len(row) != len(PricesSheet.Columns) || skus[row[0]] {
			t.Errorf("prices row %q: one row a product", row)
		}
		skus[row[0]] = true
	}
	if _, _, err := s.ExportRows(ctx, Query{Page: 1, Limit: 20}, false, true, 5, label); !errors.Is(err, ErrExportFull) {
		t.Errorf("every record past 5 rows: %v", err)
	}
	all, _, err := s.ExportRows(ctx, Query{Page: 1, Limit: 20}, false, true, 1_000_000, label)
	if err != nil || len(all) <= len(rows) {
		t.Errorf("every record: %d rows, %v", len(all), err)
	}
}

// TestPrepareExport: a whole-catalogue export waits for a full copy, and
// writes every record the filters select, a header first.
func TestPrepareExport(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	if _, err := r.beforeCopy().PrepareExport(ctx, Query{}); !errors.Is(err, ErrNotReady) {
		t.Fatalf("before a full copy: %v", err)
	}
	r.synced(t)
	s := r.seller(New(r.copy, nil), nil)
	q := Query{Copy: copystore.Query{Status: "online", Sort: "no_such_sort"}}
	exp, err := s.PrepareExport(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	header := []sheets.Column{{Name: "H"}}
	header = append(header, CopyExportColumns[1:]...)
	if err := exp.Write(ctx, &buf, sheets.CSV, "", header, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	online, err := r.copy.Store().CountNomenclature(ctx, s.Key(), copystore.Query{Status: "online"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimPrefix(lines[0], "\ufeff"), `"H",`) || len(lines) != online+1 {
		t.Errorf("%d lines for %d online records, header %q", len(lines), online, lines[0])
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, `,"online",`) {
			t.Errorf("a record not online: %q", l)
			break
		}
	}
}
