// Package demo runs the marketplace sandbox inside the dashboard's process
// on a loopback port, for demo mode and for tests that need the dashboard
// and the marketplace side by side.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
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

// Credential is one of the sandbox's seeded accounts as the login page
// offers it.
type Credential struct {
	ClientID, ClientSecret string
	SellerID               int64
	// Environment is the one its one-click login posts: "production"
	// where the account works there, else "test".
	Environment string
	// Note is a message key the login page translates.
	Note string
}

// Credentials are the sandbox's seeded accounts as the login page offers
// them.
func Credentials() []Credential {
	var out []Credential
	for _, c := range sandbox.SeededCredentials() {
		note, env := i18n.K("login.demo_note_both"), "production" // the note translated by the login page
		if !c.B2BProduction {
			note, env = i18n.K("login.demo_note_test_only"), "test"
		}
		out = append(out, Credential{ClientID: c.ClientID, ClientSecret: c.ClientSecret, SellerID: c.SellerID, Environment: env, Note: note})
	}
	return out
}

// ProductsEnv names the variable that sizes the demo sandbox's sellers.
const ProductsEnv = "SELLERDESK_DEMO_PRODUCTS"

// ParseProducts reads the value of SELLERDESK_DEMO_PRODUCTS: the products
// per seller of the demo sandbox, each stocked in three warehouses. Empty
// (or 0) keeps the sandbox's default fixtures exactly as they are.
func ParseProducts(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > sandbox.MaxProductsPerSeller {
		return 0, fmt.Errorf("want a whole number of products per seller from 0 (the default) to %d", sandbox.MaxProductsPerSeller)
	}
	return n, nil
}

// Options are the demo sandbox's options: the wall clock, hostile records
// when asked for, and products per seller (0 = the default fixtures).
func Options(hostile bool, products int, logger *slog.Logger) sandbox.Options {
	return sandbox.Options{Live: true, Hostile: hostile, ProductsPerSeller: products, Logger: logger}
}
