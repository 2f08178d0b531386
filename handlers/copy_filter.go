package handlers

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// copyFilter is the search, sort and filters of a list as the URL gives
// them, validated and kept as their canonical text for links.
type copyFilter struct {
	Q, Sort, Status, Warehouse, Stock, PriceMin, PriceMax, From, To string
}

const maxQueryChars = 100

// parseCopyFilter reads q, sort, status (when the list's own status filter
// does not take it), warehouse, stock, price_min, price_max, from and to.
// Values that do not parse are dropped, as the list query drops a bad page.
func parseCopyFilter(c echo.Context, statusTaken bool) copyFilter {
	var f copyFilter
	if q := strings.TrimSpace(c.QueryParam("q")); q != "" && utf8.ValidString(q) {
		if utf8.RuneCountInString(q) > maxQueryChars {
			q = string([]rune(q)[:maxQueryChars])
		}
		f.Q = q
	}
	if s := c.QueryParam("sort"); s != "" && len(s) <= 20 && strings.TrimLeft(strings.TrimPrefix(s, "-"), "abcdefghijklmnopqrstuvwxyz_") == "" {
		f.Sort = s
	}
	if s := c.QueryParam("status"); !statusTaken && slices.Contains(nomenclatureStatuses, s) {
		f.Status = s
	}
	if w := c.QueryParam("warehouse"); w != "" && len(w) <= 64 && utf8.ValidString(w) {
		f.Warehouse = w
	}
	if n, err := strconv.Atoi(c.QueryParam("stock")); err == nil && n >= 0 && n <= 1_000_000 {
		f.Stock = strconv.Itoa(n)
	}
	for _, p := range []struct {
		name string
		dst  *string
	}{{"price_min", &f.PriceMin}, {"price_max", &f.PriceMax}} {
		if v := strings.TrimSpace(c.QueryParam(p.name)); v != "" {
			if k, ok := parseRoubles(v); ok {
				*p.dst = format.MoneyInput(k)
			}
		}
	}
	for _, p := range []struct {
		name string
		dst  *string
	}{{"from", &f.From}, {"to", &f.To}} {
		if t, err := time.Parse(time.DateOnly, c.QueryParam(p.name)); err == nil {
			*p.dst = t.Format(time.DateOnly)
		}
	}
	return f
}

// parseRoubles reads a non-negative amount in roubles ("1499", "1499.50",
// "1499,5") as kopecks.
func parseRoubles(s string) (int64, bool) {
	s = strings.ReplaceAll(s, ",", ".")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 9 || len(frac) > 2 {
		return 0, false
	}
	r, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || r < 0 {
		return 0, false
	}
	k := r * 100
	if frac != "" {
		f, err := strconv.Atoi(frac)
		if err != nil || f < 0 {
			return 0, false
		}
		if len(frac) == 1 {
			f *= 10
		}
		k += int64(f)
	}
	return k, true
}

func (f copyFilter) setValues(v url.Values) {
	for _, kv := range [][2]string{{"q", f.Q}, {"sort", f.Sort}, {"warehouse", f.Warehouse}, {"stock", f.Stock},
		{"price_min", f.PriceMin}, {"price_max", f.PriceMax}, {"from", f.From}, {"to", f.To}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if f.Status != "" && v.Get("status") == "" {
		v.Set("status", f.Status)
	}
}

// query is the copy's query for list view q.
func (q listQuery) copyQuery() copystore.Query {
	f := q.copy
	cq := copystore.Query{Q: f.Q, Sort: f.Sort, Status: q.Status, Warehouse: f.Warehouse, Limit: q.Limit, Offset: (q.Page - 1) * q.Limit}
	if cq.Status == "" {
		cq.Status = f.Status
	}
	if f.Stock != "" {
		n, _ := strconv.Atoi(f.Stock)
		cq.StockMax = &n
	}
	cq.PriceMin, _ = parseRoubles(f.PriceMin)
	cq.PriceMax, _ = parseRoubles(f.PriceMax)
	if t, err := time.Parse(time.DateOnly, f.From); err == nil {
		cq.From = t
	}
	if t, err := time.Parse(time.DateOnly, f.To); err == nil {
		cq.To = t.AddDate(0, 0, 1) // the whole "to" day
	}
	return cq
}
