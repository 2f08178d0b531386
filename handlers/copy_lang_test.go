package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// The pages served from the local copy, in Russian: the freshness line,
// the search toolbar with its sort names, and the overview's needs-action.
func TestCopyPagesInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 20}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	ov := b.Get("/")
	if !strings.HasPrefix(ov.Text("[data-testid=sync-status]"), "По состоянию на ") || !strings.Contains(ov.Text("[data-testid=sync-status]"), "МСК") {
		t.Errorf("sync line %q", ov.Text("[data-testid=sync-status]"))
	}
	if got := ov.Text("[data-testid=needs-action] h2"); got != "Требует внимания сегодня" {
		t.Errorf("needs action %q", got)
	}
	body := withoutData(ov.Doc.Find("body"), "[data-testid=account] dd:nth-of-type(3)")
	for _, w := range englishIn(body) {
		if w != "API" && w != "B" {
			t.Errorf("English on the Russian overview from the copy: %q", w)
		}
	}
	for _, path := range []string{"/orders", "/nomenclature", "/return-boxes"} {
		p := b.Get(path)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: %d", path, p.Status)
		}
		if got := p.Text("#copy-apply"); got != "Найти" {
			t.Errorf("%s: search button %q", path, got)
		}
		toolbar := withoutData(p.Doc.Find("[data-testid=copy-search]"),
			"[data-testid=copy-export]", // exports: converted with the export pages
		)
		if words := englishIn(toolbar); len(words) > 0 {
			t.Errorf("%s: English in the Russian search toolbar: %q", path, words)
		}
	}
	if got := b.Get("/orders").Doc.Find("#copy-sort option").First().Text(); got != "Сначала новые" {
		t.Errorf("first order sort %q", got)
	}
}
