package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

func TestReturnBoxesPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/return-boxes")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("h1"); got != "Коробки возвратов" {
		t.Errorf("h1 %q", got)
	}
	rows := p.Doc.Find("#boxes-table tbody tr")
	if rows.Length() == 0 {
		t.Fatal("no boxes")
	}
	if s := strings.TrimSpace(rows.First().Find("td").Eq(4).Text()); !ruDateTime.MatchString(s) {
		t.Errorf("created %q is not dd.mm.yyyy hh:mm МСК", s)
	}
	body := withoutData(p.Doc.Find("body"),
		"#boxes-table tbody td:nth-child(1)", // box codes
		"#boxes-table tbody td:nth-child(3)", // the marketplace's size symbols
	)
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian return boxes page: %q", words)
	}
}

func TestReturnBoxesPageStillInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/return-boxes")
	if got := p.Text("h1"); got != "Return boxes" {
		t.Errorf("h1 %q", got)
	}
	if got := strings.TrimSpace(p.Doc.Find("#boxes-table thead th").First().Text()); got != "Box" {
		t.Errorf("first column %q", got)
	}
}
