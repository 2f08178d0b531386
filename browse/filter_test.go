package browse

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sellerdesk/sellerdesk/copystore"
)

func TestParseFilter(t *testing.T) {
	t.Parallel()
	get := func(v url.Values) func(string) string { return v.Get }
	for _, tc := range []struct {
		name        string
		in          url.Values
		statusTaken bool
		want        Filter
	}{
		{"canonical", url.Values{"q": {"  кеды "}, "sort": {"-price"}, "status": {"online"}, "warehouse": {"WH-1"}, "stock": {"007"},
			"price_min": {"1499,5"}, "price_max": {"2000"}, "from": {"2026-01-02"}, "to": {"2026-02-03"}},
			false, Filter{Q: "кеды", Sort: "-price", Status: "online", Warehouse: "WH-1", Stock: "7", PriceMin: "1499.50", PriceMax: "2000.00", From: "2026-01-02", To: "2026-02-03"}},
		{"dropped", url.Values{"q": {"\xff"}, "sort": {"price; drop"}, "status": {"gone"}, "warehouse": {strings.Repeat("w", 65)}, "stock": {"-1"},
			"price_min": {"1.234"}, "price_max": {"x"}, "from": {"02.01.2026"}, "to": {"tomorrow"}}, false, Filter{}},
		{"status taken by the list", url.Values{"status": {"online"}}, true, Filter{}},
		{"long search cut", url.Values{"q": {strings.Repeat("я", MaxQueryChars+5)}}, false, Filter{Q: strings.Repeat("я", MaxQueryChars)}},
	} {
		if got := ParseFilter(get(tc.in), tc.statusTaken); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestFilterQuery(t *testing.T) {
	t.Parallel()
	f := Filter{Q: "a", Sort: "name", Status: "online", Warehouse: "W", Stock: "3", PriceMin: "10.50", PriceMax: "20.00", From: "2026-01-02", To: "2026-01-05"}
	three := 3
	want := copystore.Query{Q: "a", Sort: "name", Status: "online", Warehouse: "W", StockMax: &three, PriceMin: 1050, PriceMax: 2000,
		From: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 1, 6, 0, 0, 0, 0, time.UTC), Limit: 50, Offset: 100}
	if diff := cmp.Diff(want, f.Query("", 3, 50), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
	if got := f.Query("disabled", 1, 20).Status; got != "disabled" {
		t.Errorf("the list's own status %q, want it over the filter's", got)
	}
	v := url.Values{"status": {"new"}}
	f.SetValues(v)
	if v.Get("status") != "new" || v.Get("price_min") != "10.50" || v.Get("to") != "2026-01-05" {
		t.Errorf("values %v", v)
	}
}
