package sheets

import (
	"bytes"
	"context"
	"strconv"
	"testing"
)

// writeSizes records the size of each Write it gets, and what it got.
type writeSizes struct {
	bytes.Buffer
	largest int
	writes  int
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	w.writes++
	return w.Buffer.Write(p)
}

// TestXLSXStreamsTheArchive: an XLSX reaches its writer as it is zipped,
// in pieces, never built whole in memory first; the file still reads
// back row for row.
func TestXLSXStreamsTheArchive(t *testing.T) {
	const rows = 20_000
	var out writeSizes
	w, err := NewWriter(&out, XLSX, "big")
	if err != nil {
		t.Fatal(err)
	}
	cols := Columns("sku", "name", "price")
	cols[2].Kind = Money
	if err := w.Header(cols); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		s := strconv.Itoa(i)
		if err := w.Row("SKU-"+s, "Кроссовки беговые, модель "+s, "1234.50"); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if total := out.Len(); out.largest > total/4 {
		t.Errorf("the largest write is %d of the file's %d bytes (%d writes): the archive was built whole before it was written", out.largest, total, out.writes)
	}
	got, err := Read(context.Background(), out.Bytes(), rows)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Rows); n != rows || got.Rows[n-1][0] != "SKU-"+strconv.Itoa(rows-1) || got.Rows[0][1] != "Кроссовки беговые, модель 0" {
		t.Fatalf("read back %d rows, want %d; first %v", n, rows, got.Rows[:min(n, 1)])
	}
}
