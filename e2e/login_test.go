package e2e

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 1: a wrong secret shows the error beside the form and keeps the
// other fields; the right one logs in; logging out ends the session.
func TestJourneyLogin(t *testing.T) {
	j := newJourney(t, 1, "login", testapp.Options{})

	j.open("/orders")
	j.until("the redirect to the login form", `location.pathname === "/login" && document.querySelector("#login-form")`)
	if j.count("[data-testid=demo-credentials]") != 1 {
		t.Error("the login page does not list the demo credentials")
	}

	j.typeInto("client_id", "demo-1001")
	j.typeInto("seller_id", "1001")
	j.choose("environment", "test")
	j.typeInto("display_name", "Anna")
	j.markPage()
	j.typeInto("client_secret", "nope\n")
	j.untilNewPage("the login error", `document.querySelector("#login-error")`)
	if got, want := j.text("#login-error"), j.trd("auth.rejected", map[string]any{"Env": j.tr("auth.env_test")}); !strings.Contains(got, want) {
		t.Errorf("#login-error says %q, want %q", got, want)
	}
	// The error sits with the form: in the same card, right above it.
	if !eval[bool](j, `document.querySelector("#login-error").nextElementSibling === document.querySelector("#login-form")`) {
		t.Error("#login-error is not right above the login form")
	}
	for id, want := range map[string]string{"client_id": "demo-1001", "seller_id": "1001", "environment": "test", "display_name": "Anna", "client_secret": ""} {
		if got := j.value(id); got != want {
			t.Errorf("after the wrong secret #%s holds %q, want %q", id, got, want)
		}
	}

	// Only the secret needs typing again; the dashboard then returns to the
	// page that asked for the login.
	j.markPage()
	j.typeInto("client_secret", "sandbox-secret-1001\n")
	j.untilNewPage("the orders page, logged in", `location.pathname.endsWith("/orders") && document.querySelector("#logout") && document.querySelector("#orders-table")`)
	if got := j.text("[data-testid=who]"); !strings.Contains(got, "Anna") || !strings.Contains(got, "demo-1001") || !strings.Contains(got, "1001") {
		t.Errorf("header says %q", got)
	}
	if got := j.text("[data-testid=env]"); got != j.tr("env.test") {
		t.Errorf("environment badge %q, want %q", got, j.tr("env.test"))
	}

	j.markPage()
	j.press("#logout")
	j.untilNewPage("the logged-out note", `document.querySelector("[data-testid=login-note]")`)
	if got := j.text("[data-testid=login-note]"); got != j.tr("auth.logged_out") {
		t.Errorf("login note %q", got)
	}
	if j.count("#logout") != 0 {
		t.Error("a log-out button is still shown after logging out")
	}
	// The session is gone: a protected page sends the visitor to log in.
	j.open("/prices")
	j.until("the login form after logout", `location.pathname === "/login" && document.querySelector("#login-form")`)
}
