package handlers

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads a comma- or space-separated list of CIDR
// prefixes or single addresses ("10.0.0.0/8, 192.0.2.7") naming the reverse
// proxies whose X-Forwarded-For the dashboard believes. Empty means none.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
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

// clientIP is the address of the client that sent r. X-Forwarded-For is
// read only when the direct peer is a trusted proxy, and then from the
// right: each trusted hop is skipped, and the first address not trusted is
// the client (entries to its left were written by the client itself and
// may be forged). Any malformed entry ends the walk at the last trusted
// hop, so a garbage header never yields an address chosen by the sender.
func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	peer := remoteAddr(r.RemoteAddr)
	if !peer.IsValid() || !isTrusted(peer, trusted) {
		return peer
	}
	hops := r.Header.Values("X-Forwarded-For")
	var list []string
	for _, h := range hops {
		list = append(list, strings.Split(h, ",")...)
	}
	ip := peer
	for i := len(list) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(list[i]))
		if err != nil {
			return ip
		}
		ip = a.Unmap()
		if !isTrusted(ip, trusted) {
			return ip
		}
	}
	return ip
}

func remoteAddr(s string) netip.Addr {
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
