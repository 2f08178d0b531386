package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/handlers"
)

// latinWord finds words in Latin letters; on a Russian page each must be
// on the allow-list or come from marketplace data.
var latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z'-]*`)

// allowedLatin are the words a Russian page may show: the brand, the
// language switch's codes, and the marketplace's own identifiers shown as
// data (the demo accounts' client ids and secrets).
var allowedLatin = map[string]bool{
	"Seller": true, "Desk": true, // the brand
	"RU": true, "EN": true, "ru": true, "en": true, // language codes
	"English": true,                                  // the switch names each language in itself
	"demo":    true, "sandbox": true, "secret": true, // demo client ids and secrets (marketplace data)
}

// englishIn returns the Latin words of the selection's visible texts
// (visibleTexts: text, <title>, aria-label, title, placeholder, alt, button
// values) that are not allowed. Marketplace data is excluded by the
// caller's selector and <code> (ids, secrets).
func englishIn(sel *goquery.Selection) []string {
	var out []string
	for _, t := range visibleTexts(sel) {
		for _, w := range latinWord.FindAllString(t, -1) {
			if !allowedLatin[w] {
				out = append(out, w)
			}
		}
	}
	return out
}

func russianApp(t *testing.T, opts testapp.Options) *testapp.App {
	opts.AcceptLanguage = "-" // no header: the dashboard's own default
	return testapp.New(t, opts)
}

func TestLoginPageInRussianByDefault(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	p := app.Browser(t).Get("/login")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if lang := p.Doc.Find("html").AttrOr("lang", ""); lang != "ru" {
		t.Errorf("<html lang=%q>, want ru", lang)
	}
	if got := p.Text("h1"); got != "Вход" {
		t.Errorf("h1 %q", got)
	}
	if got := p.Text("#login-submit"); got != "Войти" {
		t.Errorf("submit %q", got)
	}
	if p.Header.Get("Content-Language") != "ru" {
		t.Errorf("Content-Language %q", p.Header.Get("Content-Language"))
	}
	// The whole page but its <title> (the handler's, converted later).
	if words := englishIn(p.Doc.Find("body")); len(words) > 0 {
		t.Errorf("English on the Russian login page: %q", words)
	}
	if !strings.Contains(p.Text("[data-testid=demo-language]"), "RU / EN") {
		t.Error("the demo login page does not say how to switch the language")
	}
	if p.Doc.Find("[data-testid=lang-switch] button[value=ru][aria-pressed=true]").Length() != 1 {
		t.Error("the switch does not mark Russian as chosen")
	}
}

func TestLoginPageInEnglish(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/login", nil)
	req.Header.Set("Accept-Language", "en-US,en;q=0.9")
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if lang := doc.Find("html").AttrOr("lang", ""); lang != "en" {
		t.Errorf("<html lang=%q>, want en", lang)
	}
	if got := strings.TrimSpace(doc.Find("h1").Text()); got != "Log in" {
		t.Errorf("h1 %q", got)
	}
	if got := strings.TrimSpace(doc.Find("label[for], label").First().Text()); !strings.Contains(got, "Client id") {
		t.Errorf("first label %q", got)
	}
}

func TestLanguageSwitch(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	p := b.Post("/settings/language", url.Values{"lang": {"en"}, "back": {"/login?next=%2Forders"}})
	if p.Status != http.StatusSeeOther || p.Location != "/login?next=%2Forders" {
		t.Fatalf("switch: %d to %q, want 303 back to the login page", p.Status, p.Location)
	}
	var cookie *http.Cookie
	for _, c := range (&http.Response{Header: p.Header}).Cookies() {
		if c.Name == handlers.LanguageCookie {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "en" || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.MaxAge < 300*24*3600 || cookie.Secure {
		t.Fatalf("preference cookie %+v: want en, HttpOnly, SameSite=Lax, a year, not Secure over plain HTTP", cookie)
	}
	// No Accept-Language, yet the choice holds.
	en := b.Follow(p)
	if lang := en.Doc.Find("html").AttrOr("lang", ""); lang != "en" || en.Text("h1") != "Log in" {
		t.Errorf("after switching to English: lang=%q h1=%q", lang, en.Text("h1"))
	}
	// Logged in, the header's switch comes back to the page it was on.
	home := b.LoginDemo()
	if got := home.Text("#logout"); got != "Log out" {
		t.Errorf("logout button %q", got)
	}
	back := home.Doc.Find("[data-testid=lang-switch] input[name=back]").AttrOr("value", "")
	if back != b.InAccount("/") {
		t.Errorf("switch on the overview returns to %q", back)
	}
	orders := b.Get("/orders?page=1")
	if got := orders.Doc.Find("[data-testid=lang-switch] input[name=back]").AttrOr("value", ""); got != b.InAccount("/orders?page=1") {
		t.Errorf("switch on the orders page returns to %q", got)
	}
	// The Russian button of the switch.
	p = b.Post("/settings/language", url.Values{"lang": {"ru"}, "back": {"/orders?page=1"}})
	if p.Status != http.StatusSeeOther || p.Location != "/orders?page=1" {
		t.Fatalf("switch to ru: %d to %q", p.Status, p.Location)
	}
	ru := b.Follow(p)
	if got := ru.Text("#logout"); got != "Выйти" {
		t.Errorf("logout button after switching to Russian %q", got)
	}
}

func TestLanguageSwitchRefusals(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	for _, target := range redirectTricks {
		p := b.Post("/settings/language", url.Values{"lang": {"en"}, "back": {target}})
		if p.Status != http.StatusSeeOther || p.Location != "/" {
			t.Errorf("back=%q: %d to %q, want 303 to /", target, p.Status, p.Location)
		}
	}
	if p := b.Post("/settings/language", url.Values{"lang": {"de"}}); p.Status != http.StatusBadRequest {
		t.Errorf("lang=de: %d, want 400", p.Status)
	} else if strings.Contains(p.Header.Get("Set-Cookie"), handlers.LanguageCookie+"=de") {
		t.Error("an unknown language was kept")
	}
	// A cross-site form cannot switch the language.
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/settings/language", strings.NewReader("lang=en&back=%2F"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || len(resp.Cookies()) != 0 {
		t.Errorf("cross-site switch: %d with %d cookies, want 403 and none", resp.StatusCode, len(resp.Cookies()))
	}
}

func TestLanguageCookieSecureOverTLS(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{TLS: true})
	p := app.Browser(t).Post("/settings/language", url.Values{"lang": {"en"}})
	c := (&http.Response{Header: p.Header}).Cookies()
	if len(c) != 1 || c[0].Name != handlers.LanguageCookie || !c[0].Secure {
		t.Fatalf("cookies over TLS %+v: want a Secure %s", c, handlers.LanguageCookie)
	}
}

func TestChromeOfALoggedInPageInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	p := b.LoginDemo()
	if lang := p.Doc.Find("html").AttrOr("lang", ""); lang != "ru" {
		t.Errorf("<html lang=%q>", lang)
	}
	var nav []string
	p.Doc.Find("header nav a").Each(func(_ int, s *goquery.Selection) { nav = append(nav, s.Text()) })
	if got := strings.Join(nav, ", "); !strings.HasPrefix(got, "Обзор, Заказы, Номенклатура, Цены") {
		t.Errorf("navigation %q", got)
	}
	if got := p.Text("#logout"); got != "Выйти" {
		t.Errorf("logout %q", got)
	}
	if got := p.Text("[data-testid=env]"); got != "тестовая" {
		t.Errorf("environment badge %q", got)
	}
	// The header without the account's own ids, the footer, the skip link.
	header := p.Doc.Find("header.top").Clone()
	header.Find("[data-testid=who]").Remove()
	for name, sel := range map[string]*goquery.Selection{"header": header, "footer": p.Doc.Find("footer"), "skip link": p.Doc.Find("a.skip")} {
		if words := englishIn(sel); len(words) > 0 {
			t.Errorf("English in the Russian %s: %q", name, words)
		}
	}
	if who := p.Text("[data-testid=who]"); !strings.Contains(who, "продавец 1001") {
		t.Errorf("who %q", who)
	}
}

func TestErrorPageInBothLanguages(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	ru := app.Browser(t).Get("/no-such-page")
	if ru.Status != http.StatusNotFound {
		t.Fatalf("status %d", ru.Status)
	}
	if got := ru.Text("[data-testid=error] h1"); got != "Страница не найдена" {
		t.Errorf("ru title %q", got)
	}
	if lang := ru.Doc.Find("html").AttrOr("lang", ""); lang != "ru" {
		t.Errorf("<html lang=%q>", lang)
	}
	if words := englishIn(ru.Doc.Find("body")); len(words) > 0 {
		t.Errorf("English on the Russian error page: %q", words)
	}
	if !strings.Contains(ru.Text("[data-testid=error]"), "Номер запроса:") {
		t.Error("the request id is not introduced in Russian")
	}
	b := app.Browser(t)
	b.Post("/settings/language", url.Values{"lang": {"en"}})
	en := b.Get("/no-such-page")
	if got := en.Text("[data-testid=error] h1"); got != "Page not found" {
		t.Errorf("en title %q", got)
	}
	if !strings.Contains(en.Text("[data-testid=error]"), "Request id:") {
		t.Error("the request id is not introduced in English")
	}
}
