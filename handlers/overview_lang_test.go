package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

func TestOverviewPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	p := b.LoginDemo()
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("h1"); got != "Обзор" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("[data-testid=counts-orders] h2 a"); got != "Заказы" {
		t.Errorf("orders card %q", got)
	}
	body := withoutData(p.Doc.Find("body"),
		"[data-testid=account] dd:nth-of-type(3)", // the client id
	)
	// The token rows name the marketplace's two APIs (B2B API, Seller API).
	text := englishIn(body)
	var words []string
	for _, w := range text {
		if w != "API" && w != "B" { // "B2B" reads as B, B
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		t.Errorf("English on the Russian overview: %q", words)
	}
	if !strings.Contains(p.Text("[data-testid=account]"), "Токен") {
		t.Errorf("account card %q", p.Text("[data-testid=account]"))
	}
}

func TestOverviewPageStillInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	p := app.Browser(t).LoginDemo()
	if got := p.Text("h1"); got != "Overview" {
		t.Errorf("h1 %q", got)
	}
	if !strings.Contains(p.Text("[data-testid=account]"), "token") {
		t.Errorf("account card %q", p.Text("[data-testid=account]"))
	}
}
