package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestJourneyRussian (issue 18): the browser asks for English; the header's
// RU button switches the login page to Russian, the choice survives a demo
// login, and the orders page's header reads Russian. At 1366 and 390 px the
// Russian header (longer words) fits the screen; screenshots of both.
func TestJourneyRussian(t *testing.T) {
	j := newJourneyIn(t, 12, "russian", i18n.EN, testapp.Options{}) // starts in English on purpose
	j.open("/login")
	if lang := eval[string](j, `document.documentElement.lang`); lang != "en" {
		t.Errorf("an English browser got <html lang=%q>", lang)
	}
	j.markPage()
	j.press("[data-testid=lang-switch] button[value=ru]")
	j.untilNewPage("the Russian login page", `document.documentElement.lang === "ru"`)
	if got := j.text("h1"); got != "Вход" {
		t.Errorf("login title %q", got)
	}
	for _, w := range []int64{1366, 390} {
		j.do("viewport", chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile))
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("the Russian login page is %d px wide in a %d px window", sw, iw)
		}
		j.snapshot("login-"+strconv.FormatInt(w, 10), false)
	}

	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
	j.markPage()
	j.press("[data-testid=demo-login]")
	j.untilNewPage("the overview after a demo login", `document.querySelector("#logout")`)
	j.open("/orders")
	if got := j.text("#logout"); got != "Выйти" {
		t.Errorf("logout button %q", got)
	}
	if nav := squash(j.text("header nav")); !strings.Contains(nav, "Заказы") || !strings.Contains(nav, "Номенклатура") {
		t.Errorf("navigation %q", nav)
	}
	for _, w := range []int64{1366, 390} {
		j.do("viewport", chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile))
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("the Russian orders page is %d px wide in a %d px window", sw, iw)
		}
		// Nothing of the header but the scrolling navigation reaches past
		// the right edge.
		out := eval[string](j, `Array.from(document.querySelectorAll("header.top *")).filter(e => !e.closest("nav") &&
			e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + "." + e.className).join(", ")`)
		if out != "" {
			t.Errorf("at %d px the Russian header overflows: %s", w, out)
		}
		j.snapshot("orders-"+strconv.FormatInt(w, 10), false)
	}

	// The other converted pages: Russian words are longer, and still no
	// page is wider than the screen.
	href := eval[string](j, `document.querySelector("#orders-table tbody tr td:nth-child(2) a").getAttribute("href")`)
	for _, pg := range []struct{ path, name, h1 string }{
		{href, "order", "Заказ "}, {"/", "overview", "Обзор"}, {"/nomenclature", "nomenclature", "Номенклатура"},
		{"/prices", "prices", "Цены"}, {"/return-boxes", "boxes", "Коробки возвратов"},
	} {
		j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
		j.open(pg.path)
		if got := j.text("h1"); !strings.HasPrefix(got, pg.h1) {
			t.Errorf("%s: h1 %q", pg.path, got)
		}
		for _, w := range []int64{1366, 390} {
			j.do("viewport", chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile))
			if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
				t.Errorf("the Russian %s page is %d px wide in a %d px window", pg.name, sw, iw)
			}
			j.snapshot(pg.name+"-"+strconv.FormatInt(w, 10), false)
		}
	}
}
