package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestExportLinksFollowTheView: /prices and /nomenclature link to CSV and
// XLSX exports of exactly the page on screen, named after it.
func TestExportLinksFollowTheView(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{})
	b := e.browser()
	for _, tc := range []struct{ page, want string }{
		{"/prices?page=2&limit=50", "prices_seller-1001_test_page-2_limit-50"},
		{"/nomenclature?limit=20", "nomenclature_seller-1001_test_page-1_limit-20"},
	} {
		p := b.Get(tc.page)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: %d", tc.page, p.Status)
		}
		for _, ext := range []string{"csv", "xlsx"} {
			href, ok := p.Doc.Find("#export-" + ext).Attr("href")
			if !ok {
				t.Fatalf("%s: no %s export link", tc.page, ext)
			}
			resp, data := download(t, e, b, href)
			if cd := resp.Header.Get("Content-Disposition"); resp.StatusCode != http.StatusOK || !strings.Contains(cd, tc.want+"_") || !strings.HasSuffix(cd, "."+ext+`"`) {
				t.Errorf("%s → %s: %d %q, want %s.%s", tc.page, href, resp.StatusCode, cd, tc.want, ext)
			}
			if ext == "csv" {
				tab, err := bulkjobs.ReadTable(data)
				if err != nil || len(tab.Rows) == 0 {
					t.Errorf("%s: export unreadable (%v)", href, err)
				}
			}
		}
	}
}
