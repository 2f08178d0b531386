package bench

import "testing"

// TestImportPreviewSmoke runs the import-to-preview measurement once with
// tiny sizes; it checks that the preview shows every row, never a timing.
func TestImportPreviewSmoke(t *testing.T) {
	r, err := ImportPreview(Smoke)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.String())
}

// importBenchRows keeps `make bench` (300 iterations × 6 counts per
// benchmark) within its budget; the 10,000-row figure is sdbench's I1.
const importBenchRows = 200

// BenchmarkImportPreview compares an upload rendered as the preview grid
// with parsing the same file alone, side by side (benchstat -col /side).
func BenchmarkImportPreview(b *testing.B) {
	g, err := NewImportRig(importBenchRows)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.Run("side=parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := g.Parse(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("side=preview", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.Preview(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
