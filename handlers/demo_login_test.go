package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// TestEveryDemoButtonLogsIn: each one-click demo login, on the login page
// and on the accounts page, posts what its account accepts (a test-only
// account in the test environment) and logs in.
func TestEveryDemoButtonLogsIn(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	forms := func(p *testapp.Page) []url.Values {
		var out []url.Values
		p.Doc.Find("[data-testid=demo-credentials] form.demo-login").Each(func(_ int, f *goquery.Selection) {
			v := url.Values{}
			f.Find("input").Each(func(_ int, in *goquery.Selection) { v.Add(in.AttrOr("name", ""), in.AttrOr("value", "")) })
			out = append(out, v)
		})
		return out
	}
	login := forms(app.Browser(t).Get("/login"))
	if len(login) < 3 {
		t.Fatalf("%d demo buttons on the login page, want one per seeded account", len(login))
	}
	for _, form := range login {
		b := app.Browser(t)
		if p := b.Post("/login", form); p.Status != http.StatusSeeOther {
			t.Errorf("login page, %s (%s): %d %q, want 303", form.Get("client_id"), form.Get("environment"), p.Status, p.Text("#login-error, .flash"))
		}
	}
	b := app.Browser(t)
	b.LoginDemo()
	accounts := forms(b.Get("/accounts"))
	if len(accounts) == 0 {
		t.Fatal("no demo buttons on the accounts page")
	}
	for _, form := range accounts {
		if form.Get("client_id") == "demo-1001" {
			continue // the account the browser holds
		}
		if p := b.Post("/accounts", form); p.Status != http.StatusSeeOther {
			t.Errorf("accounts page, %s (%s): %d %q, want 303", form.Get("client_id"), form.Get("environment"), p.Status, p.Text("#login-error, .flash"))
		}
	}
}
