package realip

import (
	"net/http/httptest"
	"testing"
)

// TestClientIP: X-Forwarded-For is read only from trusted proxies, from the
// right, and a malformed entry never yields a sender-chosen address.
func TestClientIP(t *testing.T) {
	proxies, err := ParseTrusted("10.0.0.0/8, 192.0.2.7 ::1")
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
		if got := ClientIP(r, proxies).String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "not-an-ip", "10.0.0.1/x"} {
		if _, err := ParseTrusted(bad); err == nil {
			t.Errorf("ParseTrusted(%q) accepted", bad)
		}
	}
	if p, err := ParseTrusted(""); err != nil || len(p) != 0 {
		t.Errorf("empty list: %v %v", p, err)
	}
}

// TestDropUntrustedForwarding: a client's own forwarding headers are
// dropped; a trusted proxy's are kept.
func TestDropUntrustedForwarding(t *testing.T) {
	proxies, _ := ParseTrusted("10.0.0.0/8")
	for _, c := range []struct {
		remote string
		keep   bool
	}{{"203.0.113.5:1234", false}, {"10.1.2.3:80", true}} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		r.Header.Set("X-Forwarded-For", "1.2.3.4")
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("Forwarded", "for=1.2.3.4")
		DropUntrustedForwarding(r, proxies)
		for _, h := range []string{"X-Forwarded-For", "X-Forwarded-Proto", "Forwarded"} {
			if got := r.Header.Get(h) != ""; got != c.keep {
				t.Errorf("peer %s: %s kept %v, want %v", c.remote, h, got, c.keep)
			}
		}
	}
}

func FuzzClientIP(f *testing.F) {
	trusted, _ := ParseTrusted("10.0.0.0/8")
	f.Add("10.0.0.1:1", "1.2.3.4, 10.0.0.2")
	f.Add("203.0.113.1:1", "1.2.3.4")
	f.Add("garbage", ", ,,")
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := httptest.NewRequest("POST", "/login", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", xff)
		ip := ClientIP(r, trusted)
		peer := Peer(r)
		if !IsTrusted(peer, trusted) && ip != peer {
			t.Fatalf("untrusted peer %v: header chose %v", peer, ip)
		}
	})
}
