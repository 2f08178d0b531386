package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// assertInert fails when any element or attribute of the page came from
// marketplace data: inline or foreign scripts, event handlers, javascript:
// URLs, injected svg/img/style/iframe elements or a second title.
func assertInert(t *testing.T, name string, p *testapp.Page) {
	t.Helper()
	if p.Status != http.StatusOK {
		t.Fatalf("%s: status %d", name, p.Status)
	}
	p.Doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if src := s.AttrOr("src", ""); !strings.HasPrefix(src, "/static/") || strings.TrimSpace(s.Text()) != "" {
			t.Errorf("%s: live script element (src %q)", name, src)
		}
	})
	p.Doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			k, v := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(k, "on") {
				t.Errorf("%s: event handler attribute %s=%q", name, a.Key, a.Val)
			}
			if (k == "href" || k == "src" || k == "action" || k == "formaction") && strings.HasPrefix(v, "javascript:") {
				t.Errorf("%s: %s=%q", name, a.Key, a.Val)
			}
		}
	})
	for _, sel := range []string{"body svg", "body img[src=x]", "body style", "iframe", "object", "embed"} {
		if n := p.Doc.Find(sel).Length(); n > 0 {
			t.Errorf("%s: %d injected %s elements", name, n, sel)
		}
	}
	if n := p.Doc.Find("title").Length(); n != 1 {
		t.Errorf("%s: %d title elements", name, n)
	}
	for _, bad := range []string{"\x00", "\x07", "\x1b", "\u202e"} {
		if strings.Contains(p.Body, bad) {
			t.Errorf("%s: control character %q reached the page", name, bad)
		}
	}
}

// TestHostileMarketplaceData: markup, script, event handlers, javascript:
// URLs, a 100 KB name and control characters from the marketplace render
// as inert text, shortened with the full value available, layout intact.
func TestHostileMarketplaceData(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{Hostile: true}})
	b := app.Browser(t)
	b.LoginDemo()

	for _, path := range []string{"/prices?limit=1000", "/nomenclature?limit=1000"} {
		p := b.Get(path)
		assertInert(t, path, p)
		if p.Doc.Find("table tbody tr").Length() < 6 {
			t.Errorf("%s: table lost its rows", path)
		}
		text := p.Doc.Text()
		for _, s := range []string{`<script>alert("xss")</script>Платье`, `<img src=x onerror=alert(1)> Футболка`, `javascript:alert(document.cookie)`, `"><svg onload=alert(2)>`} {
			if !strings.Contains(text, s) {
				t.Errorf("%s: hostile text %q not shown as text", path, s)
			}
		}
		// The 100 KB name: a short cell, the full value one click away.
		var long *goquery.Selection
		p.Doc.Find("details.full").Each(func(_ int, s *goquery.Selection) {
			if strings.Contains(s.Text(), "Очень длинное название") {
				long = s
			}
		})
		if long == nil {
			t.Fatalf("%s: the 100 KB name has no full-text disclosure", path)
		}
		// Its disclosure shows a bounded beginning and says how long the
		// value is: a 100 KB name costs the page a few kilobytes.
		if n := len(long.Text()); n > 6*1024 {
			t.Errorf("%s: the 100 KB name takes %d bytes of the page, want a bounded prefix", path, n)
		}
		chars := format.ThousandsIn(i18n.EN, len([]rune(hostileLongName()))) // the test app speaks English
		if got := long.Find("summary").Text(); !strings.Contains(got, "truncated, ") || !strings.Contains(got, chars+" characters") {
			t.Errorf("%s: summary %q does not say it was truncated from %s characters", path, got, chars)
		}
		if clip := long.Parent().Find("span.clip").Text(); len([]rune(clip)) > 61 {
			t.Errorf("%s: shortened name is %d characters", path, len([]rune(clip)))
		}
		if !p.Has("footer") && !p.Has("main") {
			t.Errorf("%s: layout broken", path)
		}
	}

	// Orders: the newest orders carry one hostile item each.
	list := b.Get("/orders")
	assertInert(t, "/orders", list)
	seen := 0
	list.Doc.Find("#orders-table tbody tr a[href^='" + b.InAccount("/orders/") + "']").EachWithBreak(func(i int, s *goquery.Selection) bool {
		href, _ := s.Attr("href")
		p := b.Get(href)
		assertInert(t, href, p)
		if strings.Contains(p.Doc.Text(), "HOSTILE-1001-") {
			seen++
		}
		return i < 10
	})
	if seen < 3 {
		t.Errorf("only %d order pages showed hostile items", seen)
	}
}

// hostileLongName is the sandbox's 100 KB name (sandbox/fixtures.go): its
// length is what the page must report.
func hostileLongName() string {
	const word = "Очень длинное название "
	return strings.Repeat(word, 100*1024/len(word)+1)
}
