package metrics

import (
	"testing"
	"time"
)

// BenchmarkPageHooks is what the hooks cost one page served from the copy:
// its request observed, its wait at the page gate, one lock wait. Set
// beside a page's own CPU time (P10: about a millisecond) it is the
// metrics' share of a page; the hooks allocate nothing.
func BenchmarkPageHooks(b *testing.B) {
	m := New()
	h := m.HTTP()
	b.ReportAllocs()
	for b.Loop() {
		h.Request("/a/:account/nomenclature", "GET", 200, 3*time.Millisecond)
		h.GateWait(time.Millisecond)
		m.lockWait.WithLabelValues(LockCopy).Observe(0.001)
	}
}

// BenchmarkUpstreamHooks is what the hooks cost one marketplace call.
func BenchmarkUpstreamHooks(b *testing.B) {
	u := New().Upstream()
	b.ReportAllocs()
	for b.Loop() {
		u.Request("seller_rpc", "v1.nomenclatures.list", 200, 20*time.Millisecond)
	}
}
