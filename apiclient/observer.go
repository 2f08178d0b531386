package apiclient

import (
	"strings"
	"time"
)

// Observer is told what the client does, for metrics: every attempt's
// answer (or its failure to get one) and every wait before a retry. Its
// methods run on the caller's goroutine, synchronously, and must not block.
//
// iface is the interface called: "b2b", "seller_rpc", "seller_rest" or
// "seller_v2". name is the operation within it, from a fixed set: a
// JSON-RPC method ("v1.nomenclatures.list") or a route's name ("list
// orders", "token"); never an id, a path or a query. status is the HTTP
// status of the answer, 0 when none came (a transport failure).
type Observer interface {
	Request(iface, name string, status int, d time.Duration)
	Retry(iface, name string, status int, wait time.Duration)
}

// Interfaces, as Observer names them.
const (
	IfaceB2B        = "b2b"
	IfaceSellerRPC  = "seller_rpc"
	IfaceSellerREST = "seller_rest"
	IfaceSellerV2   = "seller_v2"
)

// opPrefixes map a request's op to its interface; the rest of the op is
// the operation's name. Cutting a prefix never allocates.
var opPrefixes = [...]struct{ prefix, iface string }{
	{"b2b ", IfaceB2B},
	{"seller rpc ", IfaceSellerRPC},
	{"seller rest ", IfaceSellerREST},
	{"seller api v2 ", IfaceSellerV2},
}

// opLabels splits an op ("seller rpc v1.nomenclatures.list") into the
// interface and the operation's name Observer reports.
func opLabels(op string) (iface, name string) {
	for _, p := range opPrefixes {
		if rest, ok := strings.CutPrefix(op, p.prefix); ok {
			return p.iface, rest
		}
	}
	return "other", op
}

// observeRequest reports one attempt to the observer, if there is one.
func (c *Client) observeRequest(op string, status int, d time.Duration) {
	if c.obs == nil {
		return
	}
	iface, name := opLabels(op)
	c.obs.Request(iface, name, status, d)
}
