package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
)

// englishOutside is englishIn without the words of extra (format names
// such as CSV) and of the selectors drop (marketplace data and texts
// recorded as they were sent).
func englishOutside(sel *goquery.Selection, extra []string, drop ...string) []string {
	sel = sel.Clone()
	for _, d := range drop {
		sel.Find(d).Remove()
	}
	var out []string
	for _, w := range englishIn(sel) {
		if !slices.Contains(extra, w) {
			out = append(out, w)
		}
	}
	return out
}

// priceEditForHistory makes a price edit of two rows, one accepted and one
// refused, and returns their SKUs.
func priceEditForHistory(t *testing.T, b *testapp.Browser) (string, string) {
	t.Helper()
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	okSKU, badSKU := form["sku"][0], form["sku"][1]
	oldOK := money(t, form["orig_price"][0])
	form["price"][0], form["sale"][0] = (oldOK + 100).Decimal(), ""
	form["price"][1], form["sale"][1] = "1.00", ""
	if p := b.Post("/prices?limit=20", form); p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("price submit: %d", p.Status)
	}
	return okSKU, badSKU
}

var moscowTime = regexp.MustCompile(`^\d\d\.\d\d\.\d{4} \d\d:\d\d\x{a0}МСК$`)

// TestHistoryPageInRussian: the history's filter, columns, kinds, outcomes,
// note, problems, empty states and the export's header are Russian; times
// are in the configured zone, labelled; marketplace data stays as sent.
func TestHistoryPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Анна Петрова")
	okSKU, _ := priceEditForHistory(t, b)

	h := b.Get("/history")
	if h.Status != http.StatusOK {
		t.Fatalf("history: %d", h.Status)
	}
	if got := h.Text("main h1"); got != "История" {
		t.Errorf("h1 %q", got)
	}
	if got := h.Doc.Find("title").Text(); !strings.Contains(got, "История") {
		t.Errorf("title %q", got)
	}
	entry := h.Doc.Find("#history-table tbody tr").First()
	if got := strings.TrimSpace(entry.Find("td").Eq(0).Text()); !moscowTime.MatchString(got) {
		t.Errorf("when %q, want 22.11.2026 14:05 МСК", got)
	}
	et := entry.Text()
	for _, want := range []string{"Правка цен", "боевая · продавец 1001", "принято", "отклонено", "выполнено частично", okSKU} {
		if !strings.Contains(et, want) {
			t.Errorf("entry lacks %q: %q", want, et)
		}
	}
	if got := h.Text("[data-testid=history-note]"); !strings.Contains(got, "1 изменение.") || !strings.Contains(got, "400 дней") || !strings.Contains(got, "Время — МСК.") {
		t.Errorf("note %q", got)
	}
	var kinds []string
	h.Doc.Find("#history-kind option").Each(func(_ int, s *goquery.Selection) { kinds = append(kinds, s.Text()) })
	if got := strings.Join(kinds, ", "); got != "Все изменения, Правка цен, Правка остатков или статуса, Повторная отправка уведомления, Массовое задание, Сверка массового задания" {
		t.Errorf("kinds %q", got)
	}
	// Marketplace data and the texts recorded with the change: the SKUs
	// (<code>), product names, old and new values, messages.
	data := []string{"[data-testid=history-change]", "[data-testid=history-item] .muted", "[data-testid=history-item] .small", "td .small:not(.muted)"}
	// demo-1001 is the client id.
	if words := englishOutside(h.Doc.Find("main"), []string{"CSV", "demo-"}, data...); len(words) > 0 {
		t.Errorf("English on the Russian history page: %q", words)
	}

	p := b.Get("/history?from=yesterday&q=no-such-thing")
	if got := p.Text("[data-testid=history-problem]"); !strings.Contains(got, "не распознана") {
		t.Errorf("problem %q", got)
	}
	if words := englishOutside(p.Doc.Find("main"), []string{"CSV"}, "[data-testid=history-problem]", "#history-q"); len(words) > 0 {
		t.Errorf("English on the Russian empty search: %q", words)
	}
	if !strings.Contains(p.Text("main"), "Под этот поиск не подходит ни одно изменение.") {
		t.Errorf("empty search: %q", p.Text("main"))
	}

	_, body := getCSV(t, app, b, "/history/export.csv")
	lines := strings.Split(strings.TrimSpace(body), "\r\n")
	if !strings.HasPrefix(lines[0], "\ufeff\"Запись\",\"Когда (UTC)\",\"Идентификатор клиента\"") || !strings.HasSuffix(lines[0], "\"Сверка\"") {
		t.Errorf("Russian header %q", lines[0])
	}
	if len(lines) < 3 || !strings.Contains(lines[1], `"Правка цен"`) || !strings.Contains(body, okSKU) {
		t.Errorf("Russian export %q", lines)
	}
	// Environments and outcomes are labels, not the codes recorded.
	for _, code := range []string{`"production"`, `"accepted"`, `"refused"`, `"partial"`} {
		if strings.Contains(body, code) {
			t.Errorf("the Russian export carries the code %s: %q", code, lines[1])
		}
	}
	if !strings.Contains(lines[1], `"боевая"`) {
		t.Errorf("the Russian export's environment is no label: %q", lines[1])
	}
}

// TestHistoryPageInEnglish: the same page in English, times labelled MSK,
// and the export's English header as before.
func TestHistoryPageInEnglish(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Anna")
	priceEditForHistory(t, b)
	h := b.Get("/history")
	entry := h.Doc.Find("#history-table tbody tr").First()
	if got := strings.TrimSpace(entry.Find("td").Eq(0).Text()); !regexp.MustCompile(`^[A-Z][a-z]{2} \d{1,2}, \d{4} \d\d:\d\d\x{a0}MSK$`).MatchString(got) {
		t.Errorf("when %q, want Nov 22, 2026 14:05 MSK", got)
	}
	if got := h.Text("[data-testid=history-note]"); !strings.HasPrefix(got, "1 change. Every change") || !strings.Contains(got, "400 days") || !strings.Contains(got, "Times in MSK.") {
		t.Errorf("note %q", got)
	}
	if !strings.Contains(entry.Text(), "Price edit") || !strings.Contains(entry.Text(), "production · seller 1001") {
		t.Errorf("entry %q", entry.Text())
	}
	_, body := getCSV(t, app, b, "/history/export.csv")
	want := "\ufeff\"" + strings.Join(audit.CSVHeader, "\",\"") + "\""
	if first := strings.SplitN(body, "\r\n", 2)[0]; first != want {
		t.Errorf("English header %q, want %q", first, want)
	}
}

// TestBusyPageInRussian: the marketplace's 429 as a whole page: title,
// message with the time to try again (МСК), the retry countdown and the
// page's <title> in Russian, with no English word outside the header's
// account ids.
func TestBusyPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{TestHook: func(echo.Context) error {
		return &apiclient.RateLimitError{RetryAt: time.Now().Add(20 * time.Second), Status: http.StatusTooManyRequests}
	}})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/_test/hook")
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("[data-testid=error] h1"); got != "Маркетплейс перегружен" {
		t.Errorf("title %q", got)
	}
	if got := p.Text("[data-testid=error]"); !strings.Contains(got, "МСК.") || !strings.Contains(got, "Страница повторит попытку через") {
		t.Errorf("busy page %q", got)
	}
	if got := p.Doc.Find("[data-countdown]").AttrOr("data-countdown-done", ""); got != "Повторяем…" {
		t.Errorf("countdown's last word %q", got)
	}
	if got := p.Doc.Find("title").Text(); !strings.Contains(got, "Маркетплейс перегружен") {
		t.Errorf("<title> %q", got)
	}
	body := p.Doc.Find("body").Clone()
	body.Find("[data-testid=who]").Remove()
	if words := englishIn(body); len(words) > 0 {
		t.Errorf("English on the Russian busy page: %q", words)
	}
}

// TestHistoryRecordedTextsReadInTheReadersLanguage: what the dashboard
// itself wrote into an entry (a price change's "(sale …)", a resend's
// "Queued") is kept as data, so the history reads it in the language and
// number format of whoever opens it, not of whoever made the change.
func TestHistoryRecordedTextsReadInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off
	b := app.Browser(t)
	loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Anna")
	form := b.Get("/prices?limit=20").FormValues("#prices-form")
	old := money(t, form["orig_price"][0])
	newPrice := old + 123456
	form["price"][0], form["sale"][0] = newPrice.Decimal(), (newPrice - 100).Decimal()
	if p := b.Post("/prices?limit=20", form); p.Status >= 400 {
		t.Fatalf("price submit: %d", p.Status)
	}
	nr := orderNumbers(t, b, 1)[0]
	b.HTMX = true
	if p := b.Post("/orders/resend", resendForm(nr)); p.Status != http.StatusOK {
		t.Fatalf("resend: %d", p.Status)
	}
	b.HTMX = false

	read := func() string {
		h := b.Get("/history")
		if h.Status != http.StatusOK {
			t.Fatalf("history: %d", h.Status)
		}
		return h.Text("main")
	}
	en := read()
	for _, want := range []string{"(sale " + enMoney(newPrice-100) + ")", "Queued", enMoney(newPrice)} {
		if !strings.Contains(en, want) {
			t.Errorf("English history lacks %q", want)
		}
	}
	if r := b.Post("/settings/language", url.Values{"lang": {"ru"}}); r.Status >= 400 {
		t.Fatalf("switch: %d", r.Status)
	}
	ru := read()
	// Text folds the narrow no-break space between thousands to a space.
	ruMoney := func(m apiclient.Money) string { return strings.Replace(m.String(), ".", ",", 1) }
	for _, want := range []string{"(со скидкой " + ruMoney(newPrice-100), "В очереди", ruMoney(newPrice)} {
		if !strings.Contains(ru, want) {
			t.Errorf("Russian history lacks %q: %q", want, ru)
		}
	}
	for _, bad := range []string{"sale", "Queued", `"k":`} {
		if strings.Contains(ru, bad) {
			t.Errorf("Russian history shows %q", bad)
		}
	}
}

// enMoney is an amount as English pages write it: 21,299.00.
func enMoney(m apiclient.Money) string { return strings.ReplaceAll(m.String(), " ", ",") }
