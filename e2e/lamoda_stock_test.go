package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 15: stock and status in the lamoda profile, sent through the
// marketplace's filtered writes. Three quantities (two of them the same),
// one status and one quantity above the marketplace's limit: one
// update-stock call per distinct quantity, one update-activation call, the
// refused row marked beside itself with the marketplace's reason, the
// others accepted; the history has the change. Screenshots at 1366 and 390
// px wide; no page wider than the screen.
func TestJourneyLamodaStock(t *testing.T) {
	j := newJourney(t, 15, "lamoda-stock", testapp.Options{Profile: apiclient.ProfileLamoda})
	j.loginDemo()
	j.open("/nomenclature?limit=20")
	status := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-form select[name=status]")).map(s => s.dataset.original)`)
	off := -1
	for i := 4; i < len(status); i++ {
		if status[i] == "online" {
			off = i
			break
		}
	}
	if off < 0 {
		t.Fatalf("no online record among the %d rows", len(status))
	}
	j.app.Sandbox.ResetCounters()
	j.typeInto("qty-0", "21")
	j.typeInto("qty-1", "21")
	j.typeInto("qty-2", "34")
	j.typeInto("qty-3", "100000") // above the marketplace's limit: refused by it
	j.choose("status-"+strconv.Itoa(off), "disabled")
	j.markPage()
	j.press("#nomenclature-submit")
	j.until("the answer beside the rows", `document.querySelector("#nomenclature-form tr.rejected") && document.querySelector("[data-testid=summary]")`)
	j.swappedInPlace("#nomenclature-form")

	c := j.app.Sandbox.Counters()
	if c.Requests[sandbox.RouteRPCUpdateStock] != 3 || c.Requests[sandbox.RouteRPCUpdateActivation] != 1 {
		t.Errorf("update-stock %d, update-activation %d: want 3 (21, 34 and the refused 100000) and 1",
			c.Requests[sandbox.RouteRPCUpdateStock], c.Requests[sandbox.RouteRPCUpdateActivation])
	}
	if c.Requests[sandbox.RouteRPCStore] != 0 {
		t.Error("the lamoda profile called store")
	}
	if got := j.text("[data-testid=summary]"); !strings.Contains(got, j.trd("nomenclature.summary", map[string]any{"Updated": 4, "Rejected": 1})) {
		t.Errorf("summary %q", got)
	}
	rows := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-table tbody tr")).map(r => r.className)`)
	for _, i := range []int{0, 1, 2, off} {
		if i >= len(rows) || !strings.Contains(rows[i], "accepted") {
			t.Errorf("row %d: class %q, want accepted", i, rows[min(i, len(rows)-1)])
		}
	}
	if !strings.Contains(rows[3], "rejected") {
		t.Errorf("row 3: class %q, want rejected", rows[3])
	}
	if msg := squash(j.text(`#nomenclature-table tbody tr.rejected [data-testid=result]`)); !strings.Contains(msg, "99999") && !strings.Contains(msg, "99 999") && !strings.Contains(msg, "99,999") {
		t.Errorf("the refused row says %q, want the marketplace's limit", msg)
	}
	for _, width := range []int64{1366, 390} {
		if width < 600 {
			j.do("phone viewport", chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
		} else {
			j.do("desktop viewport", chromedp.EmulateViewport(width, 900))
		}
		if sw, iw := eval[int](j, `document.documentElement.scrollWidth`), eval[int](j, `window.innerWidth`); sw > iw {
			t.Errorf("at %d px the page is %d px wide", width, sw)
		}
		eval[chromedp.Void](j, `document.querySelector("#nomenclature-table tbody tr.rejected").scrollIntoView({block: "center"})`)
		png := run(j, "screenshot", chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(artifactsDir(t), fmt.Sprintf("journey-15-lamoda-stock-%d.png", width)), png, 0o644); err != nil {
			t.Error(err)
		}
	}
	j.do("desktop viewport", chromedp.EmulateViewport(1366, 900))

	// The refused row keeps its typed value (leaving would ask); fixed to
	// the marketplace's limit, it goes alone.
	j.markPage()
	j.typeInto("qty-3", "99999\n")
	updated := j.trn("nomenclature.rows_updated", 1)
	j.untilNewPage("the flash after the fix", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCUpdateStock]; n != 4 {
		t.Errorf("%d update-stock calls after the fix, want 4", n)
	}

	j.open("/history")
	entries := squash(j.text("#history-table tbody"))
	for _, want := range []string{"21", "34", "99"} {
		if !strings.Contains(entries, want) {
			t.Errorf("the history %q lacks the quantity %s", entries, want)
		}
	}
	j.snapshot("history", false)
}
