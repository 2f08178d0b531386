// Package components holds the small templ pieces pages are built from:
// pager, status badge, shortened text, empty state, field error.
package components

import (
	"context"
	"strconv"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// Pager is a list's page navigation with every link already built, so a
// link reproduces the view with its filters.
type Pager struct {
	Page, Pages, Total int
	Prev, Next         string // empty when there is no such page
	Links              []PageLink
}

// PageLink is one numbered link of a pager; Gap marks an ellipsis.
type PageLink struct {
	Label   string
	Href    string
	Current bool
	Gap     bool
}

// NewPager builds a pager for page of pages, showing the first, the last and
// two pages either side of the current one. href builds the URL of a page.
func NewPager(page, pages, total int, href func(page int) string) Pager {
	p := Pager{Page: page, Pages: pages, Total: total}
	if pages < 1 {
		return p
	}
	if page > 1 {
		p.Prev = href(page - 1)
	}
	if page < pages {
		p.Next = href(page + 1)
	}
	last := 0
	for i := 1; i <= pages; i++ {
		if i != 1 && i != pages && (i < page-2 || i > page+2) {
			continue
		}
		if last != 0 && i > last+1 {
			p.Links = append(p.Links, PageLink{Label: "…", Gap: true})
		}
		p.Links = append(p.Links, PageLink{Label: strconv.Itoa(i), Href: href(i), Current: i == page})
		last = i
	}
	return p
}

// truncatedNote says how much of a long value is shown: "truncated: the
// first 1,000 of 102,400 characters are shown".
func truncatedNote(ctx context.Context, chars int) string {
	return i18n.ND(ctx, "text.truncated", chars, map[string]any{"Shown": format.ThousandsIn(i18n.LangOf(ctx), format.MaxShown)})
}
