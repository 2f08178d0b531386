package apiclient

import (
	"fmt"
	"io"
)

// The types below hold (or reach) secrets and tokens. Their Format methods
// make every fmt verb print a short description instead of walking their
// fields, so a stray %v, %+v, %#v or %s never prints a secret.

// Format prints the client's base URLs only.
func (c *Client) Format(f fmt.State, verb rune) {
	if c == nil {
		io.WriteString(f, "<nil>")
		return
	}
	fmt.Fprintf(f, "apiclient.Client{B2B: %q, Seller: %q}", c.b2bProd.String(), c.seller.String())
}

// Format prints the account's client id and environment only.
func (a Account) Format(f fmt.State, verb rune) { io.WriteString(f, a.String()) }

// Format prints the service's account without its secret.
func (s *B2BService) Format(f fmt.State, verb rune) { formatService(f, "B2BService", s.acct()) }

// Format prints the service's account without its secret.
func (s *SellerService) Format(f fmt.State, verb rune) { formatService(f, "SellerService", s.acct()) }

// Format prints the service's account without its secret.
func (s *ReturnBoxesService) Format(f fmt.State, verb rune) {
	formatService(f, "ReturnBoxesService", s.acct())
}

func (s *B2BService) acct() *accountState {
	if s == nil {
		return nil
	}
	return s.a
}

func (s *SellerService) acct() *accountState {
	if s == nil {
		return nil
	}
	return s.a
}

func (s *ReturnBoxesService) acct() *accountState {
	if s == nil {
		return nil
	}
	return s.a
}

func formatService(f fmt.State, name string, st *accountState) {
	if st == nil {
		fmt.Fprintf(f, "apiclient.%s{}", name)
		return
	}
	fmt.Fprintf(f, "apiclient.%s{ClientID: %q, Environment: %q}", name, st.creds.ClientID, string(st.creds.Environment))
}
