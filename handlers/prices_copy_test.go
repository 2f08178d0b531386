package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// priceSKUs are the SKUs of the rows of a prices page, in order.
func priceSKUs(p *testapp.Page) []string {
	var out []string
	p.Doc.Find("#prices-table tbody tr input[name=sku]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("value", ""))
	})
	return out
}

// priceCurrents are the current prices of the rows of a prices page, in
// kopecks, in order.
func priceCurrents(t *testing.T, p *testapp.Page) []int64 {
	t.Helper()
	var out []int64
	p.Doc.Find("#prices-table tbody tr [data-testid=current]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, moneyCell(t, s.Text()))
	})
	return out
}

// skusWhere is the set of SKUs with at least one record of recs that keep
// keeps.
func skusWhere(recs []copystore.Record, keep func(r copystore.Record) bool) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		if keep(r) {
			out[r.MarketplaceSKU] = true
		}
	}
	return out
}

// sameSet reports whether got lists exactly the members of want, each once.
func sameSet(got []string, want map[string]bool) bool {
	if len(got) != len(want) {
		return false
	}
	seen := map[string]bool{}
	for _, s := range got {
		if !want[s] || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// TestPricesFromCopy: before the first full copy the prices page reads the
// marketplace (a search does not filter it, and it says so); once the copy
// exists, q (a word of a Russian name in any case, a SKU, a barcode
// prefix), sort (both ways) and each filter (status, warehouse, stock,
// price range) select from the copy without a marketplace call, and the
// toolbar, the pager and the form keep them.
func TestPricesFromCopy(t *testing.T) {
	t.Parallel()
	app, b, release := beforeFullCopy(t, 200)
	defer release()
	products := app.Sandbox.Products(1001)
	kross := map[string]bool{}
	barcodes := map[string]string{}
	for _, pr := range products {
		if strings.Contains(strings.ToLower(pr.Name), "кроссовки") {
			kross[pr.MarketplaceSKU] = true
		}
		barcodes[pr.MarketplaceSKU] = pr.Barcode
	}
	if len(kross) == 0 || len(kross) == len(products) {
		t.Fatalf("%d of %d products are Кроссовки: the search would not select", len(kross), len(products))
	}

	before := app.Sandbox.Counters().Requests[sandbox.RouteRPCList]
	p := b.Get("/prices?q=" + url.QueryEscape("крос"))
	if p.Status != http.StatusOK || !p.Has("[data-testid=copy-live]") {
		t.Fatalf("before the copy: %d, live note %v", p.Status, p.Has("[data-testid=copy-live]"))
	}
	if got := app.Sandbox.Counters().Requests[sandbox.RouteRPCList] - before; got != 1 {
		t.Errorf("the prices page made %d live reads before the copy existed, want 1", got)
	}
	if p.Has("[data-testid=sort-head]") {
		t.Error("the live page offers sorting heads")
	}
	live := priceSKUs(p)
	// 100 records, 3 per product: the live page's first 34 products.
	if len(live) != 34 || sameSet(live, kross) || !slices.ContainsFunc(live, func(s string) bool { return !kross[s] }) {
		t.Errorf("the live page lists %d products, want the unfiltered first 34", len(live))
	}
	release()
	copyDone(t, app, 1)

	recs, err := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Limit: copystore.MaxLimit})
	if err != nil || len(recs) != 3*len(products) {
		t.Fatalf("%d records in the copy (%v)", len(recs), err)
	}
	get := func(query string) *testapp.Page {
		t.Helper()
		before := totalRequests(app.Sandbox.Counters())
		p := b.Get("/prices?" + query)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: %d", query, p.Status)
		}
		if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
			t.Errorf("%s: %d marketplace calls from the copy", query, got)
		}
		if p.Has("[data-testid=copy-live]") || !p.Has("[data-testid=sync-status]") {
			t.Errorf("%s: live note %v, freshness line %v", query, p.Has("[data-testid=copy-live]"), p.Has("[data-testid=sync-status]"))
		}
		return p
	}

	// A word of the Russian name, upper case, as a prefix.
	p = get("q=" + url.QueryEscape("КРОС") + "&limit=1000")
	if got := priceSKUs(p); !sameSet(got, kross) {
		t.Errorf("search КРОС lists %d products, want the %d Кроссовки", len(got), len(kross))
	}
	if v, _ := p.Doc.Find("#copy-q").Attr("value"); v != "КРОС" {
		t.Errorf("search box %q", v)
	}
	if v, _ := p.Doc.Find("#filter-limit").Closest("form").Find("input[name=q]").Attr("value"); v != "КРОС" {
		t.Errorf("the page size form drops the search (%q)", v)
	}
	if action, _ := p.Doc.Find("#prices-form").Attr("action"); !strings.Contains(action, "q=%D0%9A%D0%A0%D0%9E%D0%A1") || !strings.Contains(action, "limit=1000") {
		t.Errorf("form action %q loses the search", action)
	}
	// Nothing found: said so, with a link that clears the search.
	p = get("q=zzqqxx&sort=-price")
	if p.Has("#prices-table") || p.Doc.Find("[data-testid=copy-clear]").AttrOr("href", "") != b.InAccount("/prices") || !strings.Contains(p.Text("[data-testid=empty]"), "Nothing matches") {
		t.Errorf("a search without matches: table %v, empty %q", p.Has("#prices-table"), p.Text("[data-testid=empty]"))
	}
	// A SKU, in lower case.
	sku := products[17].MarketplaceSKU
	if got := priceSKUs(get("q=" + url.QueryEscape(strings.ToLower(sku)))); len(got) != 1 || got[0] != sku {
		t.Errorf("search %s lists %v", sku, got)
	}
	// A barcode's prefix.
	bc := products[42].Barcode
	prefix := bc[:len(bc)-2]
	got := priceSKUs(get("q=" + url.QueryEscape(prefix) + "&limit=1000"))
	if !slices.Contains(got, products[42].MarketplaceSKU) || len(got) >= len(products) {
		t.Errorf("barcode prefix %s lists %d products, without %s", prefix, len(got), products[42].MarketplaceSKU)
	}
	for _, s := range got {
		if !strings.HasPrefix(barcodes[s], prefix) {
			t.Errorf("barcode prefix %s lists %s (barcode %s)", prefix, s, barcodes[s])
		}
	}

	// Sorts, both ways, over a search; the pager keeps them.
	for _, sort := range []string{"price", "-price"} {
		p := get("q=" + url.QueryEscape("крос") + "&sort=" + sort + "&limit=20")
		cur := priceCurrents(t, p)
		if len(cur) < 2 {
			t.Fatalf("sort=%s: %d rows", sort, len(cur))
		}
		sorted := slices.IsSorted(cur)
		if sort == "-price" {
			sorted = slices.IsSortedFunc(cur, func(a, b int64) int { return int(b - a) })
		}
		if !sorted || cur[0] == cur[len(cur)-1] {
			t.Errorf("sort=%s: prices %v", sort, cur)
		}
		if v, _ := p.Doc.Find("#copy-sort option[selected]").Attr("value"); v != sort {
			t.Errorf("sort=%s: the toolbar selects %q", sort, v)
		}
		if href, _ := p.Doc.Find(".pager a").First().Attr("href"); !strings.Contains(href, "sort="+sort) || !strings.Contains(href, "q=") {
			t.Errorf("sort=%s: pager link %q loses the view", sort, href)
		}
		// The Current column's head sorts the other way; the others by
		// themselves, ascending, keeping the search.
		heads := p.Doc.Find("#prices-table thead th")
		curHead := heads.Eq(2)
		other := map[string]string{"price": "-price", "-price": "price"}[sort]
		dir := map[string]string{"price": "ascending", "-price": "descending"}[sort]
		if href := curHead.Find("a").AttrOr("href", ""); curHead.AttrOr("aria-sort", "") != dir || !strings.Contains(href, "sort="+other) || !strings.Contains(href, "q=") {
			t.Errorf("sort=%s: the Current head sorts by %q (aria-sort %q)", sort, href, curHead.AttrOr("aria-sort", ""))
		}
		if href := heads.Eq(0).Find("a").AttrOr("href", ""); !strings.Contains(href, "sort=sku&") && !strings.HasSuffix(href, "sort=sku") || heads.Eq(0).AttrOr("aria-sort", "") != "" {
			t.Errorf("sort=%s: the SKU head links %q", sort, href)
		}
	}
	for _, sort := range []string{"sku", "-sku"} {
		skus := priceSKUs(get("sort=" + sort + "&limit=1000"))
		want := slices.Sorted(setKeys(skusWhere(recs, func(copystore.Record) bool { return true })))
		if sort == "-sku" {
			slices.Reverse(want)
		}
		if !slices.Equal(skus, want) {
			t.Errorf("sort=%s: %d rows not in SKU order", sort, len(skus))
		}
	}

	// Status: the rarest status of the copy.
	counts := map[string]int{}
	for _, r := range recs {
		counts[r.Status]++
	}
	status := ""
	for s, n := range counts {
		if status == "" || n < counts[status] || (n == counts[status] && s < status) {
			status = s
		}
	}
	want := skusWhere(recs, func(r copystore.Record) bool { return r.Status == status })
	if got := priceSKUs(get("status=" + status + "&limit=1000")); !sameSet(got, want) || len(want) == len(products) {
		t.Errorf("status=%s lists %d products, want %d of %d", status, len(got), len(want), len(products))
	}
	// Warehouse: a page of 100 records is 100 products at one warehouse,
	// not 34 at three.
	wh := recs[0].Warehouse
	got = priceSKUs(get("warehouse=" + url.QueryEscape(wh)))
	if len(got) != 100 {
		t.Errorf("warehouse=%s lists %d products, want 100 (one record each)", wh, len(got))
	}
	// Stock: out of stock, and at most a threshold.
	for _, stock := range []int{0, 5} {
		want := skusWhere(recs, func(r copystore.Record) bool { return r.Quantity <= stock })
		if got := priceSKUs(get("stock=" + strconv.Itoa(stock) + "&limit=1000")); !sameSet(got, want) || len(want) == 0 || len(want) == len(products) {
			t.Errorf("stock=%d lists %d products, want %d of %d", stock, len(got), len(want), len(products))
		}
	}
	// Price range, in roubles.
	prices := make([]int64, 0, len(recs))
	for _, r := range recs {
		prices = append(prices, r.Price)
	}
	slices.Sort(prices)
	lo, hi := prices[len(prices)/4], prices[len(prices)*3/4]
	want = skusWhere(recs, func(r copystore.Record) bool { return r.Price >= lo && r.Price <= hi })
	p = get("price_min=" + strconv.FormatInt(lo/100, 10) + "." + strconv.FormatInt(lo%100, 10) + "&price_max=" + strconv.FormatInt(hi/100, 10) + "," + strconv.FormatInt(hi%100, 10) + "&limit=1000")
	if got := priceSKUs(p); !sameSet(got, want) || len(want) == len(products) {
		t.Errorf("price %d..%d lists %d products, want %d of %d", lo, hi, len(got), len(want), len(products))
	}
	for _, c := range priceCurrents(t, p) {
		if c < lo || c > hi {
			t.Errorf("price %d outside %d..%d", c, lo, hi)
		}
	}
}

// setKeys iterates the members of m.
func setKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestPriceChangeOnFilteredPrices: a price changed on a page found by a
// search keeps the search: the redirect lands on the same filtered view,
// where the row shows the new price at once, marked pending, and confirmed
// after the next read; a submit that needs the user answers with the same
// filtered rows and the error beside its row.
func TestPriceChangeOnFilteredPrices(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	kross := map[string]bool{}
	for _, pr := range app.Sandbox.Products(1001) {
		if strings.Contains(strings.ToLower(pr.Name), "кроссовки") {
			kross[pr.MarketplaceSKU] = true
		}
	}
	view := "/prices?q=" + url.QueryEscape("кросс") + "&sort=-price"
	page := b.Get(view)
	action, _ := page.Doc.Find("#prices-form").Attr("action")
	if action != b.InAccount(view) {
		t.Fatalf("form action %q, want %q", action, view)
	}
	if got := priceSKUs(page); !sameSet(got, kross) {
		t.Fatalf("the filtered page lists %d products, want the %d Кроссовки", len(got), len(kross))
	}

	// Invalid (the sale above the price): nothing sent, the same filtered
	// rows, the error beside the row.
	form := page.FormValues("#prices-form")
	sku := form["sku"][1]
	form["sale"][1] = (money(t, form["orig_price"][1]) + 100).Decimal()
	res := b.Post(action, form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("invalid submit: %d", res.Status)
	}
	if got := priceSKUs(res); !sameSet(got, kross) {
		t.Errorf("the answer lists %d products, want the filtered %d", len(got), len(kross))
	}
	if msg := res.Text("[data-testid=price-" + sku + "] .field-error"); msg == "" {
		t.Errorf("no error beside %s: %q", sku, res.Text("[data-testid=price-"+sku+"]"))
	}
	if a, _ := res.Doc.Find("#prices-form").Attr("action"); a != b.InAccount(view) {
		t.Errorf("the answer's form action %q loses the search", a)
	}

	// Accepted: back to the filtered view, pending at once.
	form = page.FormValues("#prices-form")
	newPrice := money(t, form["orig_price"][1]) + 45600
	form["price"][1], form["sale"][1] = newPrice.Decimal(), ""
	res = b.Post(action, form)
	if res.Status != http.StatusSeeOther || res.Location != b.InAccount(view) {
		t.Fatalf("submit: %d to %q, want 303 to %q", res.Status, res.Location, view)
	}
	p := b.Follow(res)
	if got := priceSKUs(p); !sameSet(got, kross) {
		t.Errorf("after the submit the page lists %d products, want the filtered %d", len(got), len(kross))
	}
	row := p.Doc.Find("[data-testid=price-" + sku + "]")
	if got := moneyCell(t, row.Find("[data-testid=current]").Text()); got != int64(newPrice) {
		t.Errorf("%s shows %d, want the accepted %d", sku, got, int64(newPrice))
	}
	if !row.Find("[data-status=PROCESSING]").Is("*") {
		t.Errorf("%s is not marked pending: %q", sku, strings.Join(strings.Fields(row.Text()), " "))
	}
	if v, _ := row.Find("input[name=price]").Attr("value"); v != newPrice.Decimal() {
		t.Errorf("%s's form holds %q, want the accepted %s as its baseline", sku, v, newPrice.Decimal())
	}
	if row.Find("[data-testid=result]").Text() == "" {
		t.Errorf("%s: no result beside the row", sku)
	}

	b.Post("/sync/refresh", nil)
	copyDone(t, app, 2)
	row = b.Get(view).Doc.Find("[data-testid=price-" + sku + "]")
	if got := moneyCell(t, row.Find("[data-testid=current]").Text()); got != int64(newPrice) || row.Find("[data-status=PROCESSING]").Length() != 0 {
		t.Errorf("after the next read %s shows %d (pending %v), want %d confirmed", sku, got, row.Find("[data-status=PROCESSING]").Length() != 0, int64(newPrice))
	}
}

// TestCardPricesFromCopy: in the lamoda profile (prices by product card)
// the copy keeps each record's card, so the card grid is served from it
// once it exists, with the search, sort and filters; a card's price
// changed on a filtered page lands back on it, every size of the card
// pending at once.
func TestCardPricesFromCopy(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	want := map[string]bool{}
	for _, c := range cardsOf(app.Sandbox, 1001) {
		for _, s := range c.sizes {
			if strings.Contains(strings.ToLower(s.Name), "кроссовки") {
				want[c.parent] = true
			}
		}
	}
	if len(want) == 0 || len(want) == len(cardsOf(app.Sandbox, 1001)) {
		t.Fatalf("%d cards of Кроссовки: the search would not select", len(want))
	}
	view := "/prices?q=" + url.QueryEscape("Кросс") + "&sort=-price"
	before := totalRequests(app.Sandbox.Counters())
	p := b.Get(view)
	if got := totalRequests(app.Sandbox.Counters()) - before; got != 0 {
		t.Errorf("the card grid from the copy made %d marketplace calls", got)
	}
	if p.Status != http.StatusOK || !p.Has("[data-testid=by-card]") || !p.Has("[data-testid=copy-search]") || p.Has("[data-testid=copy-live]") {
		t.Fatalf("card grid: %d, by card %v, search %v", p.Status, p.Has("[data-testid=by-card]"), p.Has("[data-testid=copy-search]"))
	}
	form := p.FormValues("#prices-form")
	if !sameSet(form["sku"], want) {
		t.Fatalf("the filtered grid lists cards %v, want the %d of Кроссовки", form["sku"], len(want))
	}
	cur := priceCurrents(t, p)
	if !slices.IsSortedFunc(cur, func(a, b int64) int { return int(b - a) }) {
		t.Errorf("sort=-price: card prices %v", cur)
	}

	parent := form["sku"][0]
	newPrice := money(t, form["orig_price"][0]) + 33300
	form["price"][0], form["sale"][0] = newPrice.Decimal(), ""
	action, _ := p.Doc.Find("#prices-form").Attr("action")
	res := b.Post(action, form)
	if res.Status != http.StatusSeeOther || res.Location != b.InAccount(view) {
		t.Fatalf("submit: %d to %q, want 303 to %q", res.Status, res.Location, view)
	}
	recs, err := app.Catalog.Store().Nomenclature(context.Background(), copyKey1001, copystore.Query{Limit: copystore.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	sizes := 0
	for _, r := range recs {
		if r.ParentSKU == parent {
			sizes++
			if r.Pending == nil || r.Pending.Price != int64(newPrice) {
				t.Errorf("size %s of %s is not pending at %d: %+v", r.MarketplaceSKU, parent, int64(newPrice), r.Pending)
			}
		} else if r.Pending != nil {
			t.Errorf("%s (card %s) is pending too", r.MarketplaceSKU, r.ParentSKU)
		}
	}
	if sizes == 0 {
		t.Fatalf("no record of card %s in the copy", parent)
	}
	card := b.Follow(res).Doc.Find("[data-testid=card-" + parent + "]")
	if got := moneyCell(t, card.Find("[data-testid=current]").First().Text()); got != int64(newPrice) {
		t.Errorf("card %s shows %d, want the accepted %d", parent, got, int64(newPrice))
	}
}

// TestPriceDraftOnFilteredPrices: a change on a filtered page from the
// copy that meets rejected credentials is kept (keepDraft); the login
// returns to the filtered page, which shows the typed price again over
// its rows.
func TestPriceDraftOnFilteredPrices(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	view := "/prices?q=" + url.QueryEscape("кросс") + "&sort=-price"
	page := b.Get(view)
	form := page.FormValues("#prices-form")
	sku := form["sku"][1]
	typed := (money(t, form["orig_price"][1]) + 1100).Decimal()
	form["price"][1] = typed
	app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultUnauthorized, Times: -1})
	if res := b.Post(view, form); res.Status != http.StatusSeeOther || res.Location != "/login" {
		t.Fatalf("submit with rejected credentials: %d to %q, want 303 to /login", res.Status, res.Location)
	}
	app.Sandbox.ClearFaults()
	p := b.LoginDemo()
	if got := priceSKUs(p); len(got) == 0 || !slices.Contains(got, sku) || p.Doc.Find("#copy-q").AttrOr("value", "") != "кросс" {
		t.Fatalf("after the login: %d rows, search %q; want the filtered page with %s", len(got), p.Doc.Find("#copy-q").AttrOr("value", ""), sku)
	}
	row := p.Doc.Find("[data-testid=price-" + sku + "]")
	if v, _ := row.Find("input[name=price]").Attr("value"); v != typed {
		t.Errorf("%s's restored price %q, want the typed %s", sku, v, typed)
	}
}
