package bench

import (
	"io"
	"net/http"
	"testing"
)

// TestSmoke runs every measurement once with tiny sizes so the suite cannot
// rot. It asserts only that each runs and, where the target is a count that
// does not depend on the machine, the count; never a timing.
func TestSmoke(t *testing.T) {
	for _, m := range All {
		t.Run(m.ID, func(t *testing.T) {
			r, err := m.Run(Smoke)
			if err != nil {
				t.Fatalf("%s did not run: %v", m.ID, err)
			}
			t.Log(r.String())
			switch m.ID {
			case "P2", "P3": // token counts: exact, whatever the machine
				if !r.Holds {
					t.Errorf("%s: %s", m.ID, r.Figure)
				}
			}
		})
	}
}

// BenchmarkOrdersPage compares /orders?limit=50 through the dashboard with
// the direct GET /api/v1/orders?limit=50, side by side (benchstat -col /side).
func BenchmarkOrdersPage(b *testing.B) {
	e, err := Start(EnvOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	u, err := e.Login()
	if err != nil {
		b.Fatal(err)
	}
	d, err := e.Direct()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("side=dashboard", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if st, _, err := u.Get("/orders?limit=50"); err != nil || st != http.StatusOK {
				b.Fatal(st, err)
			}
		}
	})
	b.Run("side=direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if st, err := d.Orders(50); err != nil || st != http.StatusOK {
				b.Fatal(st, err)
			}
		}
	})
}

// BenchmarkOrdersHandler is one /orders page with 50 rows through the echo
// handler, upstream answer replayed: its time, and its allocations (P7,
// for information). Profile it with -cpuprofile / -memprofile.
func BenchmarkOrdersHandler(b *testing.B) {
	g, err := NewOrdersPageRig()
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Serve(); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = io.Discard
