package bulkjobs

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sheets"
)

func TestReadTableCSV(t *testing.T) {
	tests := []struct {
		name, in string
		header   []string
		rows     [][]string
		lines    []int
	}{
		{"semicolons with BOM and decimal commas", "\ufeffSKU;Price\nA1;1 299,50\n\nB2;10\n", []string{"SKU", "Price"}, [][]string{{"A1", "1 299,50"}, {"B2", "10"}}, []int{2, 4}},
		{"commas and quotes", "sku,price\n\"A,1\",\"1,5\"\n", []string{"sku", "price"}, [][]string{{"A,1", "1,5"}}, []int{2}},
		{"short rows", "sku;price;sale\nA1;5\n", []string{"sku", "price", "sale"}, [][]string{{"A1", "5"}}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.header, tab.Header); diff != "" {
				t.Error(diff)
			}
			if diff := cmp.Diff(tt.rows, tab.Rows); diff != "" {
				t.Error(diff)
			}
			if diff := cmp.Diff(tt.lines, tab.Lines); diff != "" {
				t.Error(diff)
			}
		})
	}
	if _, err := ReadTable([]byte{0xff, 0xfe, 'a'}); err == nil {
		t.Error("UTF-16 accepted")
	}
}

func TestMapColumns(t *testing.T) {
	m, probs := MapColumns([]string{"Comment", "MARKETPLACE_SKU", "Sale Price", "new price"}, PriceColumns)
	if len(probs) > 0 || m["sku"] != 1 || m["sale"] != 2 || m["price"] != 3 || m.Has("start") {
		t.Errorf("mapping %v, problems %v", m, probs)
	}
	if _, probs := MapColumns([]string{"price"}, PriceColumns); len(probs) != 1 {
		t.Errorf("missing SKU column: %v", probs)
	}
	if _, probs := MapColumns([]string{"sku", "price", "Price"}, PriceColumns); len(probs) != 1 {
		t.Errorf("twice: %v", probs)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"1 299,50": "1299.50", "1299,5": "1299.5", "1,299.50": "1299.50", "12.5": "12.5", "abc": "abc", "1\u00a0000 ₽": "1000"} {
		if got := NormalizeDecimal(in); got != want {
			t.Errorf("NormalizeDecimal(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"2026-11-05": "2026-11-05", "05.11.2026": "2026-11-05", "2026-11-05 00:00:00": "2026-11-05", "soon": "soon"} {
		if got := NormalizeDate(in); got != want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExportRoundTrip: what the exports write, the import reads back.
func TestExportRoundTrip(t *testing.T) {
	s := sheets.Sheet{Name: "Prices", Columns: []sheets.Column{{Name: "SKU"}, {Name: "Name"}, {Name: "Price", Kind: sheets.Money}},
		Rows: [][]string{{"A1", "=HYPERLINK(\"x\")", "1299.50"}, {"B2", "Платье", "10.00"}}}
	var csvBuf, xlsxBuf bytes.Buffer
	if err := sheets.Write(&csvBuf, sheets.CSV, s); err != nil {
		t.Fatal(err)
	}
	if err := sheets.Write(&xlsxBuf, sheets.XLSX, s); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"csv": csvBuf.Bytes(), "xlsx": xlsxBuf.Bytes()} {
		tab, err := ReadTable(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tab.Rows[1][1] != "Платье" || tab.Rows[0][2] != "1299.5" && tab.Rows[0][2] != "1299.50" {
			t.Errorf("%s: rows %q", name, tab.Rows)
		}
		if tab.Rows[0][1] != "'=HYPERLINK(\"x\")" {
			t.Errorf("%s: formula not defused: %q", name, tab.Rows[0][1])
		}
	}
}

func TestStoreMigratesOnceAndKeepsJobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	ctx := context.Background()
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s := newStore(t, db)
	j := &Job{ID: "j1", Kind: "prices", State: StatePreview, SellerID: 7, ChunkSize: 2, CreatedAt: time.Now()}
	items := []Item{{Seq: 1, Line: 2, Key: "A", Flag: FlagOK, Chunk: -1}, {Seq: 2, Line: 3, Key: "B", Flag: FlagInvalid, Chunk: -1}}
	if err := s.CreateJob(ctx, j, items); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s = newStore(t, db) // the migration is idempotent
	got, err := s.Job(ctx, "j1")
	if err != nil || got.Counts.Rows != 2 || got.Counts.OK != 1 || got.Counts.Invalid != 1 {
		t.Fatalf("job %+v, %v", got, err)
	}
	if _, err := s.Job(ctx, "nope"); err != ErrNotFound {
		t.Errorf("missing job: %v", err)
	}
}
