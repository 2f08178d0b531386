package handlers

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// Status values the marketplace uses (browse); unknown values from the
// marketplace still render, these only drive filters and selects.
var (
	orderStatuses        = browse.OrderStatuses
	nomenclatureStatuses = browse.NomenclatureStatuses
	boxStatuses          = browse.BoxStatuses
)

// listQuery is a list view as the URL describes it.
type listQuery struct {
	Page, Limit int
	Status      string
	def         int // the default limit, left out of links
	// copy is the search, sort and filters of a list served from the
	// local copy (handlers/copy_lists.go).
	copy browse.Filter
	// ends are the keyset positions of the page read from the copy, for
	// the pager's links (nil: they go by page number).
	ends *browse.Ends
	// cursor is the keyset position a pager link carries (the "cursor"
	// parameter, copystore.Cursor.Text); only the pager sets it: a
	// position belongs to one sort and filter, which forms change.
	cursor string
	// cursorIn is the URL's cursor, which places the page read (browse
	// ignores one that does not fit the sort).
	cursorIn string
}

// parseListQuery reads page, limit and status from the URL. Values out of
// range fall back to the defaults rather than failing: a mistyped link still
// shows a sensible page.
func parseListQuery(c echo.Context, limits []int, def int, statuses []string) listQuery {
	q := listQuery{Page: 1, Limit: def, def: def}
	if p, err := strconv.Atoi(c.QueryParam("page")); err == nil && p >= 1 && p <= 1_000_000 {
		q.Page = p
	}
	if l, err := strconv.Atoi(c.QueryParam("limit")); err == nil && slices.Contains(limits, l) {
		q.Limit = l
	}
	if s := c.QueryParam("status"); slices.Contains(statuses, s) {
		q.Status = s
	}
	q.copy = browse.ParseFilter(c.QueryParam, q.Status != "")
	q.cursorIn = c.QueryParam("cursor")
	return q
}

// reads is the page of the list view q as browse reads it.
func (q listQuery) reads() browse.Query {
	return browse.Query{Page: q.Page, Limit: q.Limit, Status: q.Status, Copy: q.copyQuery(), Cursor: q.cursorIn}
}

// values is the canonical query of a view, for links that reproduce it.
func (q listQuery) values() url.Values {
	v := url.Values{}
	if q.Status != "" {
		v.Set("status", q.Status)
	}
	if q.Limit != q.def {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Page > 1 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.cursor != "" {
		v.Set("cursor", q.cursor)
	}
	q.copy.SetValues(v)
	return v
}

// link is paths.WithQuery(path, q.values()) built directly: the same keys in the
// same (sorted) order with the same escaping, without a url.Values map per
// link (a pager asks for a dozen).
func (q listQuery) link(path string) string {
	var b []byte
	sep := byte('?')
	add := func(k, v string) {
		if b == nil {
			b = make([]byte, 0, len(path)+48)
			b = append(b, path...)
		}
		b = append(b, sep)
		b = append(b, k...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(v)...)
		sep = '&'
	}
	var num [20]byte
	f := &q.copy // its keys interleave in sorted order
	if q.cursor != "" {
		add("cursor", q.cursor)
	}
	if f.From != "" {
		add("from", f.From)
	}
	if q.Limit != q.def {
		add("limit", string(strconv.AppendInt(num[:0], int64(q.Limit), 10)))
	}
	if q.Page > 1 {
		add("page", string(strconv.AppendInt(num[:0], int64(q.Page), 10)))
	}
	if f.PriceMax != "" {
		add("price_max", f.PriceMax)
	}
	if f.PriceMin != "" {
		add("price_min", f.PriceMin)
	}
	if f.Q != "" {
		add("q", f.Q)
	}
	if f.Sort != "" {
		add("sort", f.Sort)
	}
	if q.Status != "" {
		add("status", q.Status)
	} else if f.Status != "" {
		add("status", f.Status)
	}
	if f.Stock != "" {
		add("stock", f.Stock)
	}
	if f.To != "" {
		add("to", f.To)
	}
	if f.Warehouse != "" {
		add("warehouse", f.Warehouse)
	}
	if b == nil {
		return path
	}
	return string(b)
}

// copyQuery is the copy's query of list view q.
func (q listQuery) copyQuery() copystore.Query { return q.copy.Query(q.Status, q.Page, q.Limit) }

// pager builds the pager of a list view at path. Its links keep the page
// numbers; those next to a page read from the copy, and its last one,
// also carry the keyset position of the page they lead to (browse.Ends).
func (q listQuery) pager(path string, pages, total int) components.Pager {
	return components.NewPager(q.Page, pages, total, func(p int) string {
		qq := q
		qq.Page = p
		qq.cursor = q.ends.CursorTo(q.Page, p, pages, q.Limit)
		return qq.link(path)
	})
}

func statusOptions(all []string, allLabel string) []pages.Option {
	out := make([]pages.Option, 0, len(all)+1)
	if allLabel != "" {
		out = append(out, pages.Option{Value: "", Label: allLabel})
	}
	for _, s := range all {
		out = append(out, pages.Option{Value: s, Label: s}) // labelled by localStatusOptions
	}
	return out
}

func limitOptions(limits []int) []pages.Option {
	out := make([]pages.Option, len(limits))
	for i, l := range limits {
		out[i] = pages.Option{Value: strconv.Itoa(l), Label: strconv.Itoa(l)}
	}
	return out
}
