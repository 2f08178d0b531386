package e2e

import (
	"fmt"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// reasonCells are, per screen, the cells that say why a row came out as
// it did: they must be in view at 1366 px without scrolling sideways.
const reasonCells = `#prices-form td[data-testid=result], #job-grid [data-testid=message], #job-grid td[data-testid=result], #job-grid [data-testid=readback]`

// Journey 20: the reason of every row stays in view. A prices submit with
// refused rows, an import preview, the job's grid after sending and the
// retry's preview, with the sandbox's long hostile product names, in the
// run's language: at 1366 px each reason cell's right edge is within the
// window (and its table's box), at 390 px no page is wider than 390 px.
// A screenshot of each at both widths.
func TestJourneyReasonsInView(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{Hostile: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	j := newJourney(t, 20, "reasons", testapp.Options{Market: m})
	// The marketplace's refusals of the prices form are the subject: the
	// form's own price guard is off (the import keeps the jobs' guard).
	j.app = testapp.New(t, testapp.Options{Market: m, ChunkSize: 25, Jobs: &bulkjobs.RunnerOptions{}, AcceptLanguage: string(e2eLang(t)), GuardPercent: -1})
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
	j.loginDemo()

	check := func(what string) {
		t.Helper()
		for _, width := range []int64{1366, 390} {
			if width < 600 {
				j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
			} else {
				j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
			}
			where := fmt.Sprintf("%s at %d px", what, width)
			if width >= 600 {
				n := eval[int](j, `document.querySelectorAll(`+jsString(reasonCells)+`).length`)
				if n == 0 {
					t.Errorf("%s: no reason cell on the page", where)
				}
				if off := eval[string](j, `Array.from(document.querySelectorAll(`+jsString(reasonCells)+`)).filter(c => {
						const r = c.getBoundingClientRect(), w = c.closest(".table-wrap");
						const right = Math.min(window.innerWidth, w ? w.getBoundingClientRect().right : window.innerWidth);
						return r.width > 0 && r.right > right + 1;
					}).map(c => Math.round(c.getBoundingClientRect().right) + " px: " + c.textContent.trim().slice(0, 40)).slice(0, 3).join("; ")`); off != "" {
					t.Errorf("%s: reasons beyond the right edge (%d px): %s", where, width, off)
				}
			} else if sw := eval[int](j, `Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth)`); sw > int(width) {
				wide := eval[string](j, `Array.from(document.querySelectorAll("main *")).filter(e => e.getBoundingClientRect().right > `+fmt.Sprint(width)+` + 1 && !e.closest("[data-scrolls]")).map(e => e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " " + Math.round(e.getBoundingClientRect().right)).slice(0, 4).join("; ")`)
				t.Errorf("%s: the page is %d px wide: %s", where, sw, wide)
			}
			png := run(j, "screenshot", chromedp.FullScreenshot(100))
			file := filepath.Join(artifactsDir(t), fmt.Sprintf("journey-20-%s-%d.png", what, width))
			if err := os.WriteFile(file, png, 0o644); err != nil {
				t.Errorf("write screenshot: %v", err)
			}
		}
		j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))
	}

	// Prices: three refused drops and a raise, submitted at once.
	j.open("/prices?limit=20")
	skus := eval[[]string](j, `Array.from(document.querySelectorAll("#prices-form input[name=sku]")).map(i => i.value)`)
	origs := eval[[]string](j, `Array.from(document.querySelectorAll("#prices-form input[name=orig_price]")).map(i => i.value)`)
	if len(skus) < 6 || len(origs) < 6 {
		t.Fatalf("prices page: %d skus, %d prices", len(skus), len(origs))
	}
	for i := range 3 {
		j.typeInto(fmt.Sprintf("price-%d", i), "1.00")
		j.typeInto(fmt.Sprintf("sale-%d", i), "\b")
	}
	j.typeInto("price-3", "99999.00")
	j.markPage()
	j.typeInto("price-3", "\n")
	j.until("the prices result", `document.querySelectorAll("#prices-form tr.rejected td[data-testid=result]").length >= 3`)
	check("prices-result")
	// The refused rows keep their typed values (edited): leave without the
	// "unsaved edits" question.
	eval[chromedp.Void](j, `document.querySelectorAll(".edited").forEach(e => e.classList.remove("edited"))`)

	// An import: a refused drop (confirmed), a raise, an invalid and an
	// unchanged row, then its preview, its grid once sent, and a retry.
	csv := "sku,price\n" + skus[0] + ",1.00\n" + skus[4] + ",99999.00\n" + skus[1] + "," + origs[1] + "9\n" + skus[2] + ",\n"
	file := filepath.Join(t.TempDir(), "week-47-prices-with-a-long-file-name.csv")
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	j.open("/bulk/import")
	j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	j.markPage()
	j.press("#import-submit")
	j.untilNewPage("the preview grid", `document.querySelector("#job-submit-form")`)
	check("import-preview")
	job := j.location()
	for _, id := range eval[[]string](j, `Array.from(document.querySelectorAll("#job-grid input[name=confirm]")).map(i => i.id)`) {
		j.do("send anyway "+id, chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(" "))
	}
	j.markPage()
	j.press("#job-submit")
	j.untilNewPage("the job's results", `document.querySelector("[data-testid=progress-state]") &&
		!document.querySelector("#job-progress[hx-trigger]") && document.querySelector("#job-grid td[data-testid=result]")`)
	j.open(job)
	check("job-grid")

	j.markPage()
	j.press("#job-retry")
	j.untilNewPage("the retry preview", `document.querySelector("#job-submit-form")`)
	check("retry")
}
