package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestImportHelpReadsAsASentence: the import page's list of columns puts
// its "and optionally" the way each language writes it: no comma before
// the Russian «и», the English serial comma kept.
func TestImportHelpReadsAsASentence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, want, not string
	}{
		{"ru", "Цена и, по желанию, Цена со скидкой", ", и,"},
		{"en", "Price, and optionally Sale price", "Price, ,"},
	} {
		app := testapp.New(t, testapp.Options{AcceptLanguage: c.lang, Jobs: &bulkjobs.RunnerOptions{}})
		b := app.Browser(t)
		b.LoginDemo()
		got := strings.Join(strings.Fields(b.Get("/bulk/import").Text("[data-testid=import-help] li")), " ")
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
}

// TestHistoryReadBackHasItsSpace: an item's read-back in the history
// reads «сверка: подтверждено…», the label apart from what it labels.
func TestHistoryReadBackHasItsSpace(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	if err := app.Audit.Record(context.Background(), audit.Entry{ClientID: "demo-1001", SellerID: 1001, Environment: "test", Kind: audit.KindBulk,
		Items: []audit.Item{{Key: "MP1", Outcome: audit.Accepted, ReadBack: i18n.Plain("подтверждено")}}}); err != nil {
		t.Fatal(err)
	}
	got := b.Get("/history").Text("[data-testid=item-read-back]")
	if !strings.Contains(got, "сверка: подтверждено") {
		t.Errorf("read-back %q, want «сверка: подтверждено»", got)
	}
}

// TestLanguageSwitchKeepsALiveSearch: the copy's search, answered to htmx
// as a whole page (boosted), gives the language switch its URL with the
// query as the way back, and the search form swaps that way back into the
// header; switching the language then returns to the search.
func TestLanguageSwitchKeepsALiveSearch(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 5}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	page := b.Get("/prices")
	if got := page.Doc.Find("form[data-testid=copy-search]").AttrOr("hx-select-oob", ""); !slices.Contains(strings.Split(got, ","), "#lang-back") {
		t.Errorf("the search form swaps %q out of band, want #lang-back among them", got)
	}
	path := b.InAccount("/prices") + "?q=boots&sort=name"
	req, _ := http.NewRequest(http.MethodGet, app.URL+path, nil)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Boosted", "true")
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Find("#lang-back").AttrOr("value", ""); got != path {
		t.Errorf("the switch's way back after a search is %q, want %q", got, path)
	}
}

// TestRussianPriceInputsUseTheDecimalComma: the prices page's fields hold
// amounts with the reader's decimal mark (a comma in Russian, a point in
// English), and a Russian form sent back unchanged changes nothing.
func TestRussianPriceInputsUseTheDecimalComma(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ lang, mark, not string }{{"ru", ",", "."}, {"en", ".", ","}} {
		app := testapp.New(t, testapp.Options{AcceptLanguage: c.lang})
		b := app.Browser(t)
		b.LoginDemo()
		p := b.Get("/prices?limit=20")
		v := p.Doc.Find("#price-0").AttrOr("value", "")
		if !strings.Contains(v, c.mark) || strings.Contains(v, c.not) {
			t.Errorf("%s: the price field holds %q", c.lang, v)
		}
		if c.lang != "ru" {
			continue
		}
		before := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices]
		b.Post("/prices?limit=20", p.FormValues("#prices-form"))
		if n := app.Sandbox.Counters().Requests[sandbox.RouteRPCSetPrices] - before; n != 0 {
			t.Errorf("an unchanged Russian form sent %d requests", n)
		}
	}
}

// TestHistoryLabelsNotificationKinds: a resend recorded with the
// marketplace's names of its notification kinds (as one text) reads by
// their labels in the history and in its export.
func TestHistoryLabelsNotificationKinds(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	if err := app.Audit.Record(context.Background(), audit.Entry{ClientID: "demo-1001", SellerID: 1001, Environment: "test", Kind: audit.KindResend,
		Items: []audit.Item{{Key: "RU1-1", Outcome: audit.Queued, New: i18n.Plain("statusChanged, itemStatusChanged")}}}); err != nil {
		t.Fatal(err)
	}
	want := "смена статуса заказа, смена статуса товара"
	if got := b.Get("/history").Text("#history-table"); !strings.Contains(got, want) || strings.Contains(got, "statusChanged") {
		t.Errorf("history %q, want %q", got, want)
	}
	if _, body := getCSV(t, app, b, "/history/export.csv"); !strings.Contains(body, want) || strings.Contains(body, "statusChanged") {
		t.Errorf("export %q, want %q", body, want)
	}
}
