// Package demo runs the marketplace sandbox inside the dashboard's process
// on a loopback port, for demo mode and for tests that need the dashboard
// and the marketplace side by side.
package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// Marketplace is a running sandbox and the three base URLs that reach it.
type Marketplace struct {
	Sandbox                       *sandbox.Sandbox
	B2BURL, B2BTestURL, SellerURL string
	srv                           *http.Server
	done                          chan struct{}
}

// Start serves sb on a free loopback port until Close.
func Start(sb *sandbox.Sandbox) (*Marketplace, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo: listen: %w", err)
	}
	origin := "http://" + ln.Addr().String()
	m := &Marketplace{
		Sandbox: sb, B2BURL: origin, B2BTestURL: origin + "/test", SellerURL: origin,
		srv:  &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second},
		done: make(chan struct{}),
	}
	go func() {
		defer close(m.done)
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err) // a loopback listener that fails is a broken machine
		}
	}()
	return m, nil
}

// Close stops the sandbox server.
func (m *Marketplace) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := m.srv.Shutdown(ctx)
	<-m.done
	return err
}

// Credentials are the sandbox's seeded accounts as the login page offers
// them.
func Credentials() []pages.DemoCredential {
	var out []pages.DemoCredential
	for _, c := range sandbox.SeededCredentials() {
		note := i18n.K("login.demo_note_both") // translated by the login page
		if !c.B2BProduction {
			note = i18n.K("login.demo_note_test_only")
		}
		out = append(out, pages.DemoCredential{ClientID: c.ClientID, ClientSecret: c.ClientSecret, SellerID: c.SellerID, Note: note})
	}
	return out
}
