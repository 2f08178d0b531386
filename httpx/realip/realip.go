// Package realip finds the address of the client behind a request: the
// direct peer, or, when the peer is a reverse proxy the dashboard trusts,
// the first untrusted address of X-Forwarded-For read from the right.
package realip

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrusted reads a comma- or space-separated list of CIDR prefixes or
// single addresses ("10.0.0.0/8, 192.0.2.7") naming the reverse proxies
// whose X-Forwarded-For the dashboard believes. Empty means none.
func ParseTrusted(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not a CIDR prefix like 10.0.0.0/8", f)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// ClientIP is the address of the client that sent r. X-Forwarded-For is
// read only when the direct peer is a trusted proxy, and then from the
// right: each trusted hop is skipped, and the first address not trusted is
// the client (entries to its left were written by the client itself and
// may be forged). Any malformed entry ends the walk at the last trusted
// hop, so a garbage header never yields an address chosen by the sender.
func ClientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	peer := Peer(r)
	if !peer.IsValid() || !IsTrusted(peer, trusted) {
		return peer
	}
	var list []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		list = append(list, strings.Split(h, ",")...)
	}
	ip := peer
	for i := len(list) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(list[i]))
		if err != nil {
			return ip
		}
		ip = a.Unmap()
		if !IsTrusted(ip, trusted) {
			return ip
		}
	}
	return ip
}

// Peer is the address of the direct peer of r (its RemoteAddr), or the
// zero Addr when that is no address.
func Peer(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// IsTrusted reports whether a is one of the trusted proxies.
func IsTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// DropUntrustedForwarding removes the forwarding headers of r unless its
// peer is a trusted proxy: a client cannot claim HTTPS (Secure cookies)
// or another address by sending them itself.
func DropUntrustedForwarding(r *http.Request, trusted []netip.Prefix) {
	if IsTrusted(Peer(r), trusted) {
		return
	}
	r.Header.Del("X-Forwarded-For")
	r.Header.Del("X-Forwarded-Proto")
	r.Header.Del("Forwarded")
}
