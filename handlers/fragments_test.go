package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// searchHeaders are the headers htmx sends with the copy's live search.
var searchHeaders = map[string]string{"HX-Request": "true", "HX-Target": "copy-results", "HX-Current-URL": "http://example/"}

// TestLiveSearchAnswersTheResults: a live search of each copy list (htmx,
// aimed at #copy-results) is answered with the results alone, the
// language switch's way back beside them, and its rows are the full
// page's; the same URL without the headers, or as a history restore, is the
// whole page; the answer varies on both headers.
func TestLiveSearchAnswersTheResults(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 30}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	for _, list := range []struct{ path, rows string }{
		{"/nomenclature?q=a&limit=100", "#nomenclature-table tbody tr"},
		{"/prices?q=a&limit=100", "#prices-table tbody tr"},
		{"/orders?q=", "#orders-table tbody tr"},
		{"/return-boxes?q=", "#boxes-table tbody tr"},
	} {
		t.Run(list.path, func(t *testing.T) {
			resp, full := rawGet(t, app, b, list.path, nil)
			fullDoc := parse(t, full)
			if resp.StatusCode != http.StatusOK || fullDoc.Find("header.top nav").Length() == 0 {
				t.Fatalf("page: status %d, no navigation", resp.StatusCode)
			}
			wantRows := rowKeys(fullDoc.Find("#copy-results " + list.rows))
			if len(wantRows) == 0 {
				t.Fatalf("the search finds no rows; pick another query")
			}

			resp, frag := rawGet(t, app, b, list.path, searchHeaders)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("search: status %d", resp.StatusCode)
			}
			for _, h := range []string{"HX-Request", "HX-Target"} {
				if v := strings.Join(resp.Header.Values("Vary"), ", "); !strings.Contains(v, h) {
					t.Errorf("search: Vary %q, want %s", v, h)
				}
			}
			s := string(frag)
			if strings.Contains(s, "<html") || strings.Contains(s, `class="top"`) || strings.Contains(s, "<head") || !strings.HasPrefix(strings.TrimSpace(s), `<div id="copy-results"`) {
				t.Errorf("search: answered %d bytes starting %q; want the results alone", len(s), s[:min(len(s), 80)])
			}
			doc := parse(t, frag)
			if got := rowKeys(doc.Find("#copy-results " + list.rows)); strings.Join(got, ",") != strings.Join(wantRows, ",") {
				t.Errorf("search rows %v, the page's %v", got, wantRows)
			}
			if got, want := doc.Find("#lang-back").AttrOr("value", "?"), fullDoc.Find("#lang-back").AttrOr("value", ""); got != want {
				t.Errorf("the way back %q, the page's %q", got, want)
			}
			// What the page shows outside the results and derives from the
			// search (the downloads of what was found, the page size form
			// keeping the search) comes with the answer, for the search form
			// to swap in out of band, the same as the page's.
			for _, sel := range []string{"[data-testid=copy-export] a", "[data-testid=export-links] a", "form:has(#filter-limit) input[name=q]"} {
				want := fullDoc.Find(sel)
				if want.Length() == 0 {
					continue // not on this list
				}
				got := doc.Find(sel)
				if got.Length() != want.Length() || got.First().AttrOr("href", got.First().AttrOr("value", "")) != want.First().AttrOr("href", want.First().AttrOr("value", "")) {
					t.Errorf("%s: the answer has %d, first %q; the page %d, first %q", sel, got.Length(), got.First().AttrOr("href", got.First().AttrOr("value", "")), want.Length(), want.First().AttrOr("href", want.First().AttrOr("value", "")))
				}
				// The block around the link is swapped, not the link.
				if id := want.First().Parent().Closest("[id]").AttrOr("id", ""); !strings.Contains(fullDoc.Find("form[data-testid=copy-search]").AttrOr("hx-select-oob", ""), "#"+id) {
					t.Errorf("%s: the search form does not swap #%s out of band", sel, id)
				}
			}
			if len(frag) >= len(full) {
				t.Errorf("search answered %d bytes, the page is %d", len(frag), len(full))
			}

			restore := map[string]string{"HX-Request": "true", "HX-History-Restore-Request": "true"}
			if _, page := rawGet(t, app, b, list.path, restore); parse(t, page).Find("header.top nav").Length() == 0 {
				t.Error("a history restore was not answered with the whole page")
			}
		})
	}
}
