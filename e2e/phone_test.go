package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 10: every page at phone width (390 x 844, as a phone renders it)
// and at desktop width, in light and dark mode: no page is wider than the
// screen, and every button of the page's forms can be reached without
// scrolling sideways. One click on a demo account logs in. A screenshot of
// each goes to the artifacts.
func TestJourneyPhoneAndDark(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{Hostile: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	j := newJourney(t, 10, "phone", testapp.Options{Market: m})
	app, _, _ := bulkDashboard(t, m, 25)
	j.app = app

	// One click on a demo account (the login page defaults to production).
	j.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	j.open("/login")
	if got := j.value("environment"); got != "production" {
		t.Errorf("the login form defaults to %q, want production", got)
	}
	if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
		t.Errorf("the login page is %d px wide in a %d px window", sw, iw)
	}
	j.markPage()
	j.press("[data-testid=demo-login]")
	j.untilNewPage("the overview after a one-click demo login", `document.querySelector("#logout")`)

	j.open("/orders")
	order := eval[string](j, `(document.querySelector("#orders-table a[href*='/orders/']") || {getAttribute: () => ""}).getAttribute("href")`)
	pages := []string{"/", "/orders", "/nomenclature?limit=20", "/prices?limit=20", "/return-boxes", "/bulk/import", "/history", "/no-such-page"}
	if order == "" {
		t.Fatal("no order to open on /orders")
	}
	pages = append(pages, order)
	// Something in the history and a queued resend on the order page, so
	// both are seen with content: a price edit as the store records it
	// (a long hostile message included) and a resend made here.
	if err := app.Audit.Record(context.Background(), audit.Entry{ClientID: "demo-1001", UserName: "Anna Petrova", SellerID: 1001, Environment: "production",
		Kind: audit.KindPrice, Items: []audit.Item{
			{Key: "MP48365BDUNAD4LL", Old: priceKept("21299.00", "14270.00"), New: priceKept("21300.00", "—"), Outcome: audit.Accepted},
			{Key: "MP38356SV10W9KVE", Old: priceKept("1799.00", ""), New: priceKept("1.00", ""), Outcome: audit.Refused, Message: i18n.Plain(strings.Repeat("price 1.00 is more than 90% below the current price ", 8))},
		}}); err != nil {
		t.Fatal(err)
	}
	// An import preview with a named, a guarded and a doomed row (issue 17
	// items 7 and 8), so the job page is seen with its grid.
	j.open("/prices?limit=20")
	skus := eval[[]string](j, `Array.from(document.querySelectorAll("#prices-form input[name=sku]")).map(i => i.value)`)
	origs := eval[[]string](j, `Array.from(document.querySelectorAll("#prices-form input[name=orig_price]")).map(i => i.value)`)
	if len(skus) < 3 || len(origs) < 3 {
		t.Fatalf("prices page: %d skus, %d prices", len(skus), len(origs))
	}
	csv := "sku,price\n" + skus[0] + ",1.00\n" + skus[1] + "," + origs[1] + "9\n" + skus[2] + ",\n"
	file := filepath.Join(t.TempDir(), "week-47-prices-with-a-long-file-name.csv")
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	j.open("/bulk/import")
	j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	j.markPage()
	j.press("#import-submit")
	j.untilNewPage("the preview grid", `document.querySelector("#job-submit-form")`)
	pages = append(pages, j.location())

	j.open(order)
	j.press("form.resend button[data-wait]")
	j.until("the queued resend", `(document.querySelector("form.resend [data-testid=resend-status]")||{textContent:""}).textContent.includes(`+jsString(j.lead("orders.resend_queued"))+`)`)
	for _, scheme := range []string{"light", "dark"} {
		j.do("colour scheme "+scheme, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
		for _, width := range []int64{390, 1366} {
			if width < 600 {
				j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
			} else {
				j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
			}
			for _, p := range pages {
				j.open(p)
				where := fmt.Sprintf("%s at %d px (%s)", p, width, scheme)
				// A phone widens its layout viewport to fit what overflows,
				// so the page is held to the width asked for, not to
				// innerWidth.
				if sw, iw := eval[int](j, `Math.max(document.documentElement.scrollWidth, window.innerWidth)`), int(width); sw > iw {
					t.Errorf("%s: the page is %d px wide in a %d px window", where, sw, iw)
				}
				if off := eval[string](j, `Array.from(document.querySelectorAll("main button, main input[type=submit]")).filter(b => {
						const r = b.getBoundingClientRect(); return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1);
					}).map(b => b.textContent.trim() || b.id).slice(0, 3).join(", ")`); off != "" {
					t.Errorf("%s: buttons out of reach sideways: %s", where, off)
				}
				name := strings.NewReplacer("/", "_", "?", "_", "=", "_", "&", "_").Replace(strings.TrimPrefix(p, "/"))
				png := run(j, "screenshot", chromedp.CaptureScreenshot())
				file := filepath.Join(artifactsDir(t), fmt.Sprintf("journey-10-%s-%d-%s.png", scheme, width, name))
				if err := os.WriteFile(file, png, 0o644); err != nil {
					t.Errorf("write screenshot: %v", err)
				}
			}
		}
	}
}

// priceKept is a price (and sale price, when not "") as the dashboard
// keeps it in the history: a message kept as data, read in the reader's
// language and number format.
func priceKept(price, sale string) i18n.Msgs {
	ms := []i18n.Msg{{Text: price}}
	if sale != "" {
		ms = append(ms, i18n.M("prices.sale_change", map[string]any{"Sale": sale}))
	}
	return i18n.Of(ms...)
}
