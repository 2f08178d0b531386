package handlers

import (
	"fmt"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestClientIP: X-Forwarded-For is read only from trusted proxies, from the
// right, and a malformed entry never yields a sender-chosen address.
func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.7 ::1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, remote, xff, want string
	}{
		{"direct, no header", "203.0.113.5:1234", "", "203.0.113.5"},
		{"direct client forges the header", "203.0.113.5:1234", "1.2.3.4", "203.0.113.5"},
		{"trusted proxy", "10.1.2.3:80", "198.51.100.9", "198.51.100.9"},
		{"client prepends a lie", "10.1.2.3:80", "1.2.3.4, 198.51.100.9", "198.51.100.9"},
		{"two trusted hops", "10.1.2.3:80", "198.51.100.9, 192.0.2.7", "198.51.100.9"},
		{"garbage entry stops at the last trusted hop", "10.1.2.3:80", "1.2.3.4, nonsense", "10.1.2.3"},
		{"only trusted hops", "10.1.2.3:80", "10.9.9.9", "10.9.9.9"},
		{"ipv6 loopback proxy", "[::1]:80", "2001:db8::1", "2001:db8::1"},
		{"ipv4-mapped peer", "[::ffff:10.1.2.3]:80", "198.51.100.9", "198.51.100.9"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := clientIP(r, proxies).String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "not-an-ip", "10.0.0.1/x"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", bad)
		}
	}
	if p, err := ParseTrustedProxies(""); err != nil || len(p) != 0 {
		t.Errorf("empty list: %v %v", p, err)
	}
}

// TestThrottleMemoryBound: entries are capped and expire.
func TestThrottleMemoryBound(t *testing.T) {
	th := newLoginThrottle(LoginLimits{MaxEntries: 100, Window: time.Minute})
	now := time.Unix(1_000_000, 0)
	for i := range 1000 {
		th.begin(newThrottleKeys(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), fmt.Sprint("c", i)), now)
		if n := th.size(); n > 100 {
			t.Fatalf("%d entries after %d attempts, cap 100", n, i+1)
		}
	}
	// Expired entries are swept before anything recent is evicted.
	later := now.Add(2 * time.Minute)
	k := newThrottleKeys(netip.MustParseAddr("192.0.2.1"), "victim")
	th.begin(k, later)
	th.begin(k, later)
	for i := range 98 {
		th.begin(newThrottleKeys(netip.Addr{}, fmt.Sprint("x", i)), later)
	}
	th.mu.Lock()
	_, kept := th.entries[k.client]
	th.mu.Unlock()
	if !kept {
		t.Error("a live entry was evicted while expired ones remained")
	}
	// IPv6 clients count per /64.
	a := newThrottleKeys(netip.MustParseAddr("2001:db8::1"), "c")
	b := newThrottleKeys(netip.MustParseAddr("2001:db8::ffff"), "c")
	if a.ip != b.ip {
		t.Error("two addresses of one /64 count apart")
	}
}
