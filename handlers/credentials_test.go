package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// sessionOf is the session b's cookie names, as the store holds it.
func sessionOf(t *testing.T, app *testapp.App, b *testapp.Browser) *sessions.Session {
	t.Helper()
	u, _ := url.Parse(app.URL)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(&http.Cookie{Name: "sd_session", Value: cookieValue(b, u)})
	sess, err := app.Store.Load(req)
	if err != nil || sess.IsNew() {
		t.Fatalf("session: %v (new %v)", err, sess != nil && sess.IsNew())
	}
	return sess
}

// TestRotatedSecretEndsOnlyItsSession: a client's secret is rotated; a
// session still holding the former secret presses "refresh now". The
// former secret alone is refused: that session is sent to log in, a
// colleague's session holding the new secret goes on (its pages, the copy
// and its freshness line), the copy's last pass is not marked stopped, and
// the copy's next passes read with the new secret.
func TestRotatedSecretEndsOnlyItsSession(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	stale, fresh := app.Browser(t), app.Browser(t)
	stale.LoginDemo()
	copyDone(t, app, 1)
	app.Sandbox.RotateSecret("demo-1001", "rotated-secret-1001")
	// The tokens the former secret obtained have expired: it cannot
	// obtain new ones.
	app.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute)
	fresh.Login("demo-1001", "rotated-secret-1001", "1001", "test")

	stale.Post("/sync/refresh", nil)
	former := copystore.CredentialOf("demo-1001", "test", "sandbox-secret-1001")
	waitUntil(t, "the former secret marked rejected", func() bool {
		rejected, err := app.Catalog.Store().CredentialRejected(context.Background(), former)
		if err != nil {
			t.Fatal(err)
		}
		return rejected && !app.Catalog.Running(copyKey1001)
	})
	for i := range 3 { // again and again: the colleague stays
		for _, path := range []string{"/", "/nomenclature?q=a", "/sync/status"} {
			if p := fresh.Get(path); p.Status != http.StatusOK {
				t.Fatalf("round %d: %s with the new secret: %d to %q, want 200", i, path, p.Status, p.Location)
			}
		}
		if p := stale.Post("/sync/refresh", nil); !loggedOut(p) {
			t.Errorf("round %d: refresh with the former secret: %d to %q, want the login page", i, p.Status, p.Location)
		}
	}
	st, err := app.Catalog.Store().SyncStates(context.Background(), copyKey1001)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range copystore.Kinds {
		if st[kind].Stopped() {
			t.Errorf("%s: the pass is marked stopped (%s) for every session", kind, st[kind].LastError)
		}
	}

	// The copy's next pass (the new session's refresh) reads with the new
	// secret, and it is not marked.
	fresh.Post("/sync/refresh", nil)
	copyDone(t, app, 2)
	if rejected, _ := app.Catalog.Store().CredentialRejected(context.Background(), copystore.CredentialOf("demo-1001", "test", "rotated-secret-1001")); rejected {
		t.Error("the new secret is marked rejected")
	}
}

// TestRefusedAccountDropsOnlyIt: in a session of three accounts, the
// marketplace refuses one account's secret. Only that account leaves the
// session, its secret wiped from the sealed payload; the user lands on the
// accounts page with the account offered again, the two others still work,
// and a login adding it again with its new secret keeps them and returns
// to the page the refusal interrupted.
func TestRefusedAccountDropsOnlyIt(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	a := b.Account
	refused := addAccount(t, b, "demo-1002", "sandbox-secret-1002", "1002", "production")
	c := addAccount(t, b, "test-1003", "sandbox-secret-1003", "1003", "test")
	b.Account = ""

	app.Sandbox.RotateSecret("demo-1002", "rotated-secret-1002")
	app.Sandbox.Advance(sandbox.DefaultTokenTTL + time.Minute) // the tokens must be renewed
	p := b.Get(paths.Of(refused, paths.Orders))
	if p.Status != http.StatusSeeOther || p.Location != paths.Accounts {
		t.Fatalf("the refused account's page: %d to %q, want the accounts page", p.Status, p.Location)
	}
	p = b.Get(paths.Accounts)
	if p.Status != http.StatusOK {
		t.Fatalf("accounts page: %d to %q", p.Status, p.Location)
	}
	if got := p.Doc.Find("#client_id").AttrOr("value", ""); got != "demo-1002" {
		t.Errorf("the add form offers client id %q, want the refused demo-1002", got)
	}
	if got := p.Doc.Find("#seller_id").AttrOr("value", ""); got != "1002" {
		t.Errorf("the add form offers seller %q, want 1002", got)
	}
	if got := p.Text("#flash-area"); !strings.Contains(got, "no longer accepts the credentials of demo-1002") {
		t.Errorf("the accounts page says %q, want the refusal of demo-1002", got)
	}
	for _, id := range []string{a, c} {
		if p := b.Get(paths.Of(id, paths.Orders)); p.Status != http.StatusOK {
			t.Errorf("account %s after another's refusal: %d to %q, want 200", id, p.Status, p.Location)
		}
	}
	d := sessionOf(t, app, b).Data()
	if _, held := d.Account(refused); held || len(d.AccountList()) != 2 {
		t.Errorf("the session holds %d accounts (the refused one: %v), want the two others", len(d.AccountList()), held)
	}
	if d.AddAgain == nil || d.AddAgain.ClientSecret != "" {
		t.Errorf("the account to add again: %v", d.AddAgain)
	}
	payload, err := json_(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(payload, "sandbox-secret-1002") {
		t.Error("the refused secret stays in the sealed payload")
	}

	// Logging in again with the new secret keeps the two others.
	p = b.Post("/login", url.Values{"client_id": {"demo-1002"}, "client_secret": {"rotated-secret-1002"}, "seller_id": {"1002"}, "environment": {"production"}})
	if p.Status != http.StatusSeeOther || p.Location != paths.Of(refused, paths.Orders) {
		t.Fatalf("login adding the account again: %d to %q, want the interrupted page %q", p.Status, p.Location, paths.Of(refused, paths.Orders))
	}
	for _, id := range []string{a, refused, c} {
		if p := b.Get(paths.Of(id, paths.Orders)); p.Status != http.StatusOK {
			t.Errorf("account %s after the login: %d to %q, want 200", id, p.Status, p.Location)
		}
	}
	if n := len(sessionOf(t, app, b).Data().AccountList()); n != 3 {
		t.Errorf("the login left %d accounts in the session, want 3", n)
	}
}

// json_ is d's stored form.
func json_(d *sessions.Data) (string, error) {
	raw, err := d.MarshalJSON()
	return string(raw), err
}

// TestCrossSiteGetKeepsCurrentAccount: a link from another site to an
// account's page opens it without making it current: the paths without an
// account still lead to the account the user was on. A navigation from
// the dashboard's own pages does make it current.
func TestCrossSiteGetKeepsCurrentAccount(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	a := b.Account
	other := addAccount(t, b, "demo-1002", "sandbox-secret-1002", "1002", "production")
	b.Account = ""
	get := func(path, site string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, app.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Sec-Fetch-Site", site)
		resp, err := b.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := get(paths.Of(a, paths.Prices), "cross-site"); resp.StatusCode != http.StatusOK {
		t.Fatalf("a cross-site link to an account's page: %d", resp.StatusCode)
	}
	if p := b.Get(paths.Prices); p.Location != paths.Of(other, paths.Prices) {
		t.Errorf("after a cross-site link to %s, /prices leads to %q, want the current account's %q", a, p.Location, paths.Of(other, paths.Prices))
	}
	if resp := get(paths.Of(a, paths.Prices), "same-origin"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the dashboard's own link: %d", resp.StatusCode)
	}
	b.Account = ""
	if p := b.Get(paths.Prices); p.Location != paths.Of(a, paths.Prices) {
		t.Errorf("after the dashboard's own link to %s, /prices leads to %q", a, p.Location)
	}
}

// TestClientsBoundMessage: an address that failed at as many client ids
// as the bound allows is told that bound, not "too many failed logins";
// client ids that logged in are not counted.
func TestClientsBoundMessage(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{LoginLimits: loginguard.Limits{MaxClientsPerAddress: 2, Free: 50, Max: 100}})
	b := app.Browser(t)
	// Two client ids that log in fill no place of the two.
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
	b.Post("/logout", url.Values{})
	b.Login("demo-1002", "sandbox-secret-1002", "1002", "test")
	b.Post("/logout", url.Values{})
	for i := range 2 {
		p := b.Post("/login", loginForm(fmt.Sprint("nobody-", i), "wrong"))
		if p.Status != http.StatusUnprocessableEntity {
			t.Fatalf("wrong client id %d: %d %q, want 422", i, p.Status, p.Text("#login-error"))
		}
	}
	p := b.Post("/login", loginForm("nobody-3", "wrong"))
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("a third failing client id: %d, want 429", p.Status)
	}
	if got := p.Text("#login-error"); !strings.Contains(got, "at most 2 within 15 minutes") {
		t.Errorf("the refusal says %q, want the bound named", got)
	}
}
