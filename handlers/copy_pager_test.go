package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// pageSig is what a list page shows: its rows and its pager (page
// numbers and total).
func pageSig(t *testing.T, p *testapp.Page, table string) string {
	t.Helper()
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	return p.Text(table+" tbody") + " | " + p.Text("[data-testid=pager]")
}

// pagerLink is the href of the pager's link labelled label ("" if none).
func pagerLink(p *testapp.Page, label string) string {
	href := ""
	p.Doc.Find("[data-testid=pager] a").Each(func(_ int, a *goquery.Selection) {
		if strings.TrimSpace(a.Text()) == label {
			href, _ = a.Attr("href")
		}
	})
	return href
}

func attr(p *testapp.Page, sel, name string) string {
	v, _ := p.Doc.Find(sel).Attr(name)
	return v
}

// checkCursorLink checks that a pager link leads to page n and carries a
// cursor exactly when it should; mayLack allows a position too long for a
// link (the link then goes by page number). It reports whether it has one.
func checkCursorLink(t *testing.T, what, href string, n int, cursor, mayLack bool) bool {
	t.Helper()
	u, err := url.Parse(href)
	if err != nil {
		t.Fatalf("%s: %q: %v", what, href, err)
	}
	if got := u.Query().Get("page"); n > 1 && got != strconv.Itoa(n) {
		t.Errorf("%s %q: page %q, want %d", what, href, got, n)
	}
	has := u.Query().Has("cursor")
	if has != cursor && (has || !mayLack) {
		t.Errorf("%s %q: cursor %v, want %v", what, href, has, cursor)
	}
	return has
}

// noCursorOutsidePager: only the pager's links carry a cursor; the
// sort links, forms and other links keep the view without it.
func noCursorOutsidePager(t *testing.T, p *testapp.Page, what string) {
	t.Helper()
	p.Doc.Find("a[href*='cursor='], form[action*='cursor='], input[name=cursor], [hx-get*='cursor='], [hx-post*='cursor=']").Each(func(_ int, s *goquery.Selection) {
		if s.Closest("[data-testid=pager]").Length() == 0 {
			h, _ := goquery.OuterHtml(s)
			t.Errorf("%s: a cursor outside the pager: %.200s", what, h)
		}
	})
}

// TestPagerCursorWalk: on lists from the copy, the pager's next, next but
// one, previous, previous but one and last links carry keyset cursors,
// and the pages they lead to show exactly the rows, counts and pager that
// the same page numbers give by offset, walking every page forward from
// the first and back from the last, for several sorts, filters and a
// search.
func TestPagerCursorWalk(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 150}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	for _, c := range []struct {
		base, table string
		long        bool // some names are too long for a cursor
	}{
		{"/nomenclature?sort=-price&limit=20", "#nomenclature-table", false},
		{"/nomenclature?limit=20", "#nomenclature-table", false},
		{"/nomenclature?q=" + url.QueryEscape("к") + "&limit=20", "#nomenclature-table", false},
		{"/nomenclature?q=" + url.QueryEscape("к") + "&sort=-sale_price&limit=20", "#nomenclature-table", false},
		{"/nomenclature?sort=quantity&stock=20&limit=20", "#nomenclature-table", false},
		{"/prices?sort=name&status=online&limit=20", "#prices-table", true},
		{"/prices?sort=-updated&limit=20", "#prices-table", false},
	} {
		t.Run(c.base, func(t *testing.T) {
			first := b.Get(c.base)
			pages := 1
			first.Doc.Find("[data-testid=pager] a").Each(func(_ int, a *goquery.Selection) {
				if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil {
					pages = max(pages, n)
				}
			})
			if pages < 4 {
				t.Fatalf("%d pages: too few to walk", pages)
			}
			byOffset := map[int]string{1: pageSig(t, first, c.table)}
			for p := 2; p <= pages; p++ {
				byOffset[p] = pageSig(t, b.Get(c.base+"&page="+strconv.Itoa(p)), c.table)
			}
			cursors := 0
			follow := func(what, href string, n int) *testapp.Page {
				t.Helper()
				if checkCursorLink(t, what, href, n, n > 1, c.long) {
					cursors++
				}
				p := b.Get(href)
				if got := pageSig(t, p, c.table); got != byOffset[n] {
					t.Fatalf("%s: page %d by %q shows\n%.300s\nby offset\n%.300s", what, n, href, got, byOffset[n])
				}
				noCursorOutsidePager(t, p, what)
				return p
			}
			noCursorOutsidePager(t, first, "page 1")
			at := first
			for p := 1; p < pages; p++ {
				if p+2 <= pages {
					follow("next but one", pagerLink(at, strconv.Itoa(p+2)), p+2)
				}
				at = follow("next", attr(at, "[data-testid=next]", "href"), p+1)
			}
			at = follow("last", pagerLink(first, strconv.Itoa(pages)), pages)
			for p := pages; p > 1; p-- {
				if p-2 >= 1 {
					follow("previous but one", pagerLink(at, strconv.Itoa(p-2)), p-2)
				}
				at = follow("previous", attr(at, "[data-testid=prev]", "href"), p-1)
			}
			if cursors < 3*pages/2 {
				t.Errorf("%d of the links followed carried a cursor", cursors)
			}
		})
	}
}

// TestPagerCursorTampered: a cursor that does not read, or belongs to
// another sort, is ignored: the page is the offset page its number
// names, not an error.
func TestPagerCursorTampered(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	base := "/nomenclature?sort=-price&limit=20&page=3"
	want := pageSig(t, b.Get(base), "#nomenclature-table")
	other, _ := copystore.Cursor{Sort: "name", ID: 5, Value: "Кроссовки"}.Text()
	end, _ := copystore.Cursor{Sort: "price", Before: true, End: true}.Text()
	for _, cur := range []string{"garbage", "%00%ff", strings.Repeat("QUFB", 200), other, end, "YTAuMS4tcHJpY2UuMTAwJyBPUiAxPTE"} {
		p := b.Get(base + "&cursor=" + cur)
		if p.Status != http.StatusOK {
			t.Errorf("cursor %.40q: status %d", cur, p.Status)
			continue
		}
		if got := pageSig(t, p, "#nomenclature-table"); got != want {
			t.Errorf("cursor %.40q: not the offset page 3", cur)
		}
	}
}
