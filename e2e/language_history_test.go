package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestJourneyRussianHistoryAndError (issue 18): switched to Russian, one sees the
// history (filter, columns, kinds, outcomes, times labelled МСК, a send
// the dashboard stopped in the middle of) and an error page in Russian; at 1366 and 390 px neither page is wider than the
// screen; screenshots of both at both widths.
func TestJourneyRussianHistoryAndError(t *testing.T) {
	j := newJourneyIn(t, 14, "russian-history", i18n.EN, testapp.Options{}) // starts in English on purpose
	j.open("/login")
	j.markPage()
	j.press("[data-testid=lang-switch] button[value=ru]") // the browser asks for English
	j.untilNewPage("the Russian login page", `document.documentElement.lang === "ru"`)
	j.markPage()
	j.press("[data-testid=demo-login]")
	j.untilNewPage("the overview after a demo login", `document.querySelector("#logout")`)
	now := j.app.Sandbox.Now()
	for _, env := range []string{"production", "test"} {
		for i, e := range []audit.Entry{
			{Kind: audit.KindPrice, Outcome: audit.Partial, Items: []audit.Item{
				{Key: "MP48365BDUNAD4LL", Name: "Кроссовки беговые", Old: i18n.Plain("21 299,00"), New: i18n.Plain("23 428,90"), Outcome: audit.Accepted},
				{Key: "MP38356SV10W9KVE", Name: "Куртка зимняя", Old: i18n.Plain("1 799,00"), New: i18n.Plain("1,00"), Outcome: audit.Refused, Message: i18n.Plain("Снижение цены более чем на 90%")}}},
			{Kind: audit.KindStock, Outcome: audit.Accepted, Items: []audit.Item{{Key: "WH-1|4601234567890", Old: i18n.Plain("5"), New: i18n.Plain("10"), Outcome: audit.Accepted}}},
		} {
			e.At, e.ClientID, e.UserName, e.SellerID, e.Environment = now.Add(-time.Duration(i)*time.Hour), "demo-1001", "Анна Петрова", 1001, env
			if err := j.app.Audit.Record(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A price send the dashboard stopped in the middle of, long ago: begun
	// along the send, a chunk's rows recorded, never finished.
	open, err := j.app.Audit.Begin(context.Background(), audit.Entry{At: now.Add(-audit.OpenFor - 3*time.Hour), Kind: audit.KindPrice,
		ClientID: "demo-1001", UserName: "Анна Петрова", SellerID: 1001, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	if err := open.Append(context.Background(), []audit.Item{
		{Key: "MP00INTERRUPTED1", Name: "Платье летнее", Old: i18n.Plain("3 499,00"), New: i18n.Plain("2 999,00"), Outcome: audit.Accepted}}); err != nil {
		t.Fatal(err)
	}
	j.open("/history")
	if got := j.text("main h1"); got != "История" {
		t.Errorf("history title %q", got)
	}
	if when := squash(j.text("#history-table tbody tr td")); !strings.HasSuffix(when, "МСК") {
		t.Errorf("history time %q, want it labelled МСК", when)
	}
	if body := squash(j.text("#history-table")); !strings.Contains(body, "Правка цен") || !strings.Contains(body, "выполнено частично") {
		t.Errorf("history table %q", body)
	}
	if body := squash(j.text("#history-table")); !strings.Contains(body, "MP00INTERRUPTED1") || !strings.Contains(body, "Дашборд остановился во время отправки") {
		t.Errorf("history table without the interrupted send and its note: %q", body)
	}
	pages := []struct{ name, path, check string }{
		{"history", "/history", `document.querySelector("#history-table")`},
		{"error", "/no-such-page", `document.querySelector("[data-testid=error] h1")`},
	}
	for _, p := range pages {
		j.open(p.path)
		j.until(p.name, p.check)
		if p.name == "error" {
			if got := j.text("[data-testid=error] h1"); got != "Страница не найдена" {
				t.Errorf("error title %q", got)
			}
		}
		for _, w := range []int64{1366, 390} {
			j.do("viewport", chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile))
			if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
				t.Errorf("the Russian %s page is %d px wide in a %d px window", p.name, sw, iw)
			}
			j.snapshot(p.name+"-"+strconv.FormatInt(w, 10), false)
		}
		j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
	}
}
