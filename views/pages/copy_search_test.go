package pages

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// TestCopySearchMatchesTempl keeps the Go toolbar byte for byte what its
// templ original renders: every list's shape (records, orders with dates,
// boxes), with and without search, sort and filters set, hostile values,
// the live fallback and a running sync, in English and in Russian.
func TestCopySearchMatchesTempl(t *testing.T) {
	sorts := []Option{{Value: "", Label: "Name"}, {Value: "price", Label: "Price ↑"}, {Value: "-price", Label: "Price ↓"}}
	statuses := []Option{{Value: "", Label: "Any"}, {Value: "online", Label: "On sale"}, {Value: "a\"<b>&'", Label: "<i>odd</i> & \"quoted\""}}
	bare := CopyToolbar{Action: "/nomenclature", Sync: SyncView{AsOf: "14:02"}, Sorts: sorts, Statuses: statuses, Placeholder: "SKU, barcode or name",
		Records: true, ExportCSV: "/nomenclature/export.csv", ExportXLSX: "/nomenclature/export.xlsx"}
	filtered := bare
	filtered.Q, filtered.Sort, filtered.Status = `шарф "зима" <b>&amp;`, "-price", "online"
	filtered.Warehouse, filtered.Stock, filtered.PriceMin, filtered.PriceMax = "MSK-1", "5", "10,50", "1 000"
	filtered.Limit, filtered.KeepStatus = "50", "disabled"
	filtered.ExportCSV, filtered.ExportXLSX = "/nomenclature/export.csv?q=%D1%88&sort=-price", "/nomenclature/export.xlsx?q=%D1%88&sort=-price"
	hostile := filtered
	hostile.Action = `/x"><script>alert(1)</script>`
	hostile.Status = "a\"<b>&'"
	hostile.Placeholder = `'"<>&`
	orders := CopyToolbar{Action: "/orders", Sync: SyncView{AsOf: "09:15", Running: true, Kind: "orders", Page: 3, Pages: 12, Poll: "/sync/status?list=orders",
		Waiting: "429 <wait>", Error: "boom & \"bust\""}, Sorts: sorts, Statuses: statuses, Dates: true, From: "2026-11-01", To: "2026-11-30", Sort: "price", Status: "online"}
	ordersBare := CopyToolbar{Action: "/orders", Sorts: sorts, Statuses: statuses, Dates: true}
	boxes := CopyToolbar{Action: "/boxes", Sync: SyncView{Running: true, Kind: "return boxes"}, Sorts: sorts, Q: "BOX-1", KeepStatus: "loading"}
	live := bare
	live.Live, live.Sync = true, SyncView{Running: true, Kind: "nomenclature", Page: 1}
	cases := map[string]CopyToolbar{"bare": bare, "filtered": filtered, "hostile": hostile, "orders": orders, "orders bare": ordersBare,
		"boxes": boxes, "live": live, "empty": {}}
	for name, tb := range cases {
		for _, lang := range []i18n.Lang{i18n.EN, i18n.RU} {
			ctx := i18n.WithLang(context.Background(), lang)
			var got, want bytes.Buffer
			if err := CopySearch(tb).Render(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if err := copySearchTempl(tb).Render(ctx, &want); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, %s: CopySearch differs from the templ original:\n got %s\nwant %s", name, lang, got.String(), want.String())
			}
		}
	}
	// The comparison saw what it compares: the filters' values, escaped,
	// and the Russian labels.
	ru := i18n.WithLang(context.Background(), i18n.RU)
	var b bytes.Buffer
	if err := CopySearch(hostile).Render(ru, &b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`value="шарф &#34;зима&#34; &lt;b&gt;&amp;amp;"`, `<option value="-price" selected>`, `<option value="a&#34;&lt;b&gt;&amp;&#39;" selected>`,
		`action="/x&#34;&gt;&lt;script&gt;`, `name="price_max" id="copy-price-max" value="1 000"`, `<input type="hidden" name="status" value="disabled">`,
		i18n.T(ru, "copy.search"), i18n.T(ru, "copy.stock_at_most"), "export.xlsx?q=%D1%88&amp;sort=-price"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the toolbar lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "<script>") {
		t.Error("the toolbar writes markup from its values")
	}
}

// TestCopySearchStopsAtFirstError: a failing writer gets nothing after its
// first error, and the error is returned, as templ's code does.
func TestCopySearchStopsAtFirstError(t *testing.T) {
	w := &failAfter{n: 2}
	err := CopySearch(CopyToolbar{Action: "/nomenclature", Records: true}).Render(context.Background(), w)
	if err == nil || w.writes != 2 {
		t.Fatalf("err %v after %d writes, want an error after 2", err, w.writes)
	}
}

type failAfter struct{ n, writes int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.writes >= f.n {
		return 0, errFull
	}
	f.writes++
	return len(p), nil
}

var errFull = errorString("full")

type errorString string

func (e errorString) Error() string { return string(e) }

// TestEscMatchesTempl: the row writer's escaping writes what templ's does,
// and allocates nothing, even for a value full of characters to replace.
func TestEscMatchesTempl(t *testing.T) {
	for _, s := range []string{"", "plain", "<", `a<b>c&d'e"f`, `"'&<>`, "Шарф «Зима» & <co>", "x&amp;", "\x00&\u202e<", strings.Repeat(`<&>"'x`, 50)} {
		var b bytes.Buffer
		h := newRowWriter(context.Background(), &b)
		h.esc(s)
		if want := templ.EscapeString(s); b.String() != want {
			t.Errorf("esc(%q) = %q, want %q", s, b.String(), want)
		}
	}
	var b bytes.Buffer
	b.Grow(1 << 12)
	h := newRowWriter(context.Background(), &b)
	hostile := strings.Repeat(`<&>"'x`, 50)
	if n := testing.AllocsPerRun(100, func() { b.Reset(); h.esc(hostile) }); n != 0 {
		t.Errorf("esc allocates %v times a call, want 0", n)
	}
}
