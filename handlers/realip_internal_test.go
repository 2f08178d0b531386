package handlers

import (
	"net/http/httptest"
	"testing"
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
