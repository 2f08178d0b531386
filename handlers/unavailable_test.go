package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// TestUnavailableNamesTheService: a table of the job runner or of the
// history that fails is answered 503, naming the service that failed in
// the reader's language, never "session store unavailable".
func TestUnavailableNamesTheService(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, table, page, lang, want string
	}{
		{"jobs", "bulk_jobs", "/bulk/jobs/0123456789abcdef0123456789abcdef", "en", "job service is unavailable"},
		{"jobs in Russian", "bulk_jobs", "/bulk/jobs/0123456789abcdef0123456789abcdef", "ru", "Служба заданий недоступна"},
		{"history", "audit_entries", "/history", "en", "history is unavailable"},
		{"history in Russian", "audit_entries", "/history", "ru", "История изменений недоступна"},
	} {
		t.Run(c.name, func(t *testing.T) {
			app := testapp.New(t, testapp.Options{Jobs: &bulkjobs.RunnerOptions{}, AcceptLanguage: c.lang})
			b := app.Browser(t)
			b.Login("demo-1001", "sandbox-secret-1001", "1001", "test")
			if _, err := app.DB.Writer().Exec("DROP TABLE " + c.table); err != nil {
				t.Fatal(err)
			}
			p := b.Get(c.page)
			body := p.Text("main")
			if p.Status != http.StatusServiceUnavailable || !strings.Contains(body, c.want) {
				t.Fatalf("GET %s without %s: %d %q, want 503 saying %q", c.page, c.table, p.Status, body, c.want)
			}
			if strings.Contains(strings.ToLower(body), "session") || strings.Contains(strings.ToLower(body), "сесси") {
				t.Errorf("the page blames the sessions: %q", body)
			}
		})
	}
}
