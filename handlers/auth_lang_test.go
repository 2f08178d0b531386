package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/internal/loginguard"
)

// TestLoginMessagesInRussian: the login form's field errors, its refusal,
// the throttle's wait (in the configured zone, labelled), the logged-out
// note and the page's <title> are Russian, with no English word but the
// allowed ones.
func TestLoginMessagesInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{LoginLimits: loginguard.Limits{Free: 2, Max: 4, BaseDelay: 10 * time.Second, Lockout: 10 * time.Minute}})
	b := app.Browser(t)

	p := b.Post("/login", url.Values{"client_id": {""}, "client_secret": {""}, "seller_id": {"x"}, "environment": {"staging"}, "display_name": {strings.Repeat("я", 81)}})
	if p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("empty form: %d", p.Status)
	}
	if got := p.Text("#login-error"); got != "Проверьте отмеченные поля." {
		t.Errorf("form error %q", got)
	}
	for id, want := range map[string]string{"client_id-error": "Введите идентификатор клиента", "client_secret-error": "Введите секрет клиента.",
		"seller_id-error": "Номер продавца — целое число"} {
		if got := p.Text("#" + id); !strings.Contains(got, want) {
			t.Errorf("%s %q, want %q", id, got, want)
		}
	}
	if words := englishIn(p.Doc.Find("body")); len(words) > 0 {
		t.Errorf("English on the refused Russian login form: %q", words)
	}
	if got := p.Doc.Find("title").Text(); !strings.Contains(got, "Вход") {
		t.Errorf("title %q", got)
	}

	// Logging out says so in Russian.
	c := app.Browser(t)
	c.LoginDemo()
	c.Post("/logout", url.Values{})
	out := c.Get("/login?logged_out=1")
	if got := out.Text("[data-testid=login-note]"); got != "Вы вышли." {
		t.Errorf("logged-out note %q", got)
	}

	for i := 1; i <= 3; i++ {
		p = b.Post("/login", loginForm("demo-1001", "wrong"))
	}
	got := p.Text("#login-error")
	if !strings.Contains(got, "отклонил эти учётные данные для тестовой среды") || !strings.Contains(got, "следующая возможна в") || !strings.Contains(got, "МСК") {
		t.Errorf("third refusal %q", got)
	}
	if words := englishIn(p.Doc.Find("#login-error")); len(words) > 0 {
		t.Errorf("English in the Russian refusal: %q", words)
	}
	p = b.Post("/login", loginForm("demo-1001", "wrong"))
	if got := p.Text("#login-error"); p.Status != http.StatusTooManyRequests || !strings.HasPrefix(got, "Слишком много неудачных входов. Попробуйте снова в ") || !strings.HasSuffix(got, "МСК.") {
		t.Errorf("throttled: %d %q", p.Status, got)
	}

}

// TestLoginMessagesInEnglish: the same messages in English, as before,
// with the wait labelled MSK.
func TestLoginMessagesInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{LoginLimits: loginguard.Limits{Free: 2, Max: 4, BaseDelay: 10 * time.Second, Lockout: 10 * time.Minute}})
	b := app.Browser(t)
	p := b.Post("/login", url.Values{"client_id": {""}, "client_secret": {"s"}, "seller_id": {"1001"}, "environment": {"test"}})
	if got := p.Text("#client_id-error"); got != "Enter the client id your sales manager gave you." {
		t.Errorf("client id error %q", got)
	}
	var got string
	for i := 1; i <= 3; i++ {
		got = b.Post("/login", loginForm("demo-1001", "wrong")).Text("#login-error")
	}
	if !strings.Contains(got, "rejected these credentials for the test environment") || !strings.Contains(got, "MSK.") {
		t.Errorf("third refusal %q", got)
	}
}
