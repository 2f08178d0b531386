package browse

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Filter is the search, sort and filters of a list as a URL gives them,
// validated and kept as their canonical text for links.
type Filter struct {
	Q, Sort, Status, Warehouse, Stock, PriceMin, PriceMax, From, To string
}

// MaxQueryChars bounds a search text; a longer one is cut.
const MaxQueryChars = 100

// ParseFilter reads q, sort, status (when the list's own status filter
// does not take it: statusTaken), warehouse, stock, price_min, price_max,
// from and to through get (a URL's query parameter by name). Values that
// do not parse are dropped, as a list drops a bad page number.
func ParseFilter(get func(name string) string, statusTaken bool) Filter {
	var f Filter
	if q := strings.TrimSpace(get("q")); q != "" && utf8.ValidString(q) {
		if utf8.RuneCountInString(q) > MaxQueryChars {
			q = string([]rune(q)[:MaxQueryChars])
		}
		f.Q = q
	}
	if s := get("sort"); s != "" && len(s) <= 20 && strings.TrimLeft(strings.TrimPrefix(s, "-"), "abcdefghijklmnopqrstuvwxyz_") == "" {
		f.Sort = s
	}
	if s := get("status"); !statusTaken && slices.Contains(NomenclatureStatuses, s) {
		f.Status = s
	}
	if w := get("warehouse"); w != "" && len(w) <= 64 && utf8.ValidString(w) {
		f.Warehouse = w
	}
	if n, err := strconv.Atoi(get("stock")); err == nil && n >= 0 && n <= 1_000_000 {
		f.Stock = strconv.Itoa(n)
	}
	for name, dst := range map[string]*string{"price_min": &f.PriceMin, "price_max": &f.PriceMax} {
		if v := strings.TrimSpace(get(name)); v != "" {
			if k, ok := parseRoubles(v); ok {
				*dst = apiclient.Money(k).Decimal()
			}
		}
	}
	for name, dst := range map[string]*string{"from": &f.From, "to": &f.To} {
		if t, err := time.Parse(time.DateOnly, get(name)); err == nil {
			*dst = t.Format(time.DateOnly)
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

// SetValues sets f's parameters in v, for links that reproduce the list;
// its status only where v has none (the list's own).
func (f Filter) SetValues(v url.Values) {
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

// Query is the copy's query of page (from 1) of limit rows filtered by f,
// status the list's own status filter (it wins over f's).
func (f Filter) Query(status string, page, limit int) copystore.Query {
	cq := copystore.Query{Q: f.Q, Sort: f.Sort, Status: status, Warehouse: f.Warehouse, Limit: limit, Offset: (page - 1) * limit}
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
