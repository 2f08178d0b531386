package bench

import "testing"

// BenchmarkPricesHandler is BenchmarkOrdersHandler for /prices?limit=50:
// the price editor's table, fifty records through the echo handler, the
// upstream answer replayed.
func BenchmarkPricesHandler(b *testing.B) {
	g, err := NewPricesPageRig()
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		n, err := g.Serve()
		if err != nil || n == 0 {
			b.Fatal(n, err)
		}
		rows = n
	}
	b.ReportMetric(float64(rows), "rows")
}
