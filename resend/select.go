package resend

import (
	"regexp"
	"strings"
)

// MaxOrders bounds the orders of one resend request.
const MaxOrders = 100

var validOrderNr = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidOrderNr reports whether nr has the shape of an order number: 1 to
// 64 ASCII letters, digits, '_' or '-'. Such a number needs no escaping in
// a URL path.
func ValidOrderNr(nr string) bool { return validOrderNr.MatchString(nr) }

// Problem is what is wrong with the orders of a resend request.
type Problem int

const (
	// ProblemNone: the selection can be sent.
	ProblemNone Problem = iota
	// ProblemInvalidNr: an order number does not have the shape of one.
	ProblemInvalidNr
	// ProblemNoneSelected: no order was named.
	ProblemNoneSelected
	// ProblemTooMany: more than MaxOrders orders were named.
	ProblemTooMany
)

// Select checks the order numbers of a resend request: blanks and repeats
// are dropped, the order kept.
func Select(raw []string) ([]string, Problem) {
	seen := map[string]bool{}
	var out []string
	for _, nr := range raw {
		nr = strings.TrimSpace(nr)
		if nr == "" || seen[nr] {
			continue
		}
		if !ValidOrderNr(nr) {
			return nil, ProblemInvalidNr
		}
		seen[nr] = true
		out = append(out, nr)
	}
	switch {
	case len(out) == 0:
		return nil, ProblemNoneSelected
	case len(out) > MaxOrders:
		return nil, ProblemTooMany
	}
	return out, ProblemNone
}
