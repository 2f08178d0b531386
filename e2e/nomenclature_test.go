package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 5: a mass update of the nomenclature: quantities of a few rows,
// and a product its moderation rejected, which is not offered "online" and,
// asked for anyway (a stale form), is refused beside its control before
// anything is sent. Then the refused row is fixed and all rows go.
func TestJourneyNomenclature(t *testing.T) {
	j := newJourney(t, 5, "nomenclature", testapp.Options{})
	j.loginDemo()
	j.open("/nomenclature?limit=50")
	origStatus := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-form select[name=status]")).map(s => s.dataset.original)`)
	origQty := eval[[]string](j, `Array.from(document.querySelectorAll("#nomenclature-form input[name=qty]")).map(s => s.dataset.original)`)
	bad := -1
	for i, st := range origStatus {
		if st == "rejected" {
			bad = i
			break
		}
	}
	if bad < 0 {
		t.Fatalf("none of the %d rows on the page has the status rejected", len(origStatus))
	}
	var good []int
	for i := 0; len(good) < 3 && i < len(origQty); i++ {
		if i != bad {
			good = append(good, i)
		}
	}
	want := map[int]string{}
	for _, i := range good {
		q, err := strconv.Atoi(origQty[i])
		if err != nil {
			t.Fatalf("row %d quantity %q", i, origQty[i])
		}
		want[i] = strconv.Itoa(q + 5)
		j.typeInto("qty-"+strconv.Itoa(i), want[i])
	}
	// The rows send each original once (the hidden orig_ inputs); the
	// page's script gives it to the fields, so the edited ones are marked
	// and an untouched one is not.
	if !eval[bool](j, fmt.Sprintf(`document.getElementById("qty-%d").classList.contains("edited")`, good[0])) {
		t.Error("an edited quantity is not marked as edited")
	}
	if eval[bool](j, fmt.Sprintf(`document.getElementById("status-%d").classList.contains("edited")`, good[0])) {
		t.Error("an untouched status is marked as edited")
	}
	// Issue 17 item 7: a record moderation rejected is not offered
	// "online" (the marketplace always refuses it). A stale or forged form
	// asking for it anyway is refused beside the control, and nothing is
	// sent.
	if n := j.count(fmt.Sprintf("#status-%d option[value=online]", bad)); n != 0 {
		t.Errorf("row %d (rejected by moderation) is offered online", bad)
	}
	eval[bool](j, fmt.Sprintf(`(() => { const s = document.getElementById("status-%d"); s.add(new Option("online", "online")); s.value = "online"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`, bad))

	before := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
	j.markPage()
	j.typeInto("qty-"+strconv.Itoa(good[len(good)-1]), "\n") // Enter submits
	j.until("the refusal", `document.querySelector("#status-`+strconv.Itoa(bad)+`-error") && document.querySelector("#status-`+strconv.Itoa(bad)+`-error").textContent.trim() !== ""`)
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] - before; n != 0 {
		t.Errorf("%d store requests for a form with a change the marketplace refuses, want 0", n)
	}
	j.swappedInPlace("#nomenclature-form")
	if msg := squash(j.text(fmt.Sprintf("#status-%d-error", bad))); !j.says(msg, "mass.status_rejected") {
		t.Errorf("row %d: beside the status %q, want the reason", bad, msg)
	}
	for _, i := range good {
		if got := j.value("qty-" + strconv.Itoa(i)); got != want[i] {
			t.Errorf("row %d: the typed quantity was not kept: %q, want %s", i, got, want[i])
		}
	}

	j.snapshot("rejected", true)

	// Fix the refused row: leave its status alone and change its quantity.
	q, _ := strconv.Atoi(origQty[bad])
	fixed := strconv.Itoa(q + 1)
	j.choose("status-"+strconv.Itoa(bad), "rejected")
	j.markPage()
	j.typeInto("qty-"+strconv.Itoa(bad), fixed+"\n")
	updated := j.trn("nomenclature.rows_updated", 4)
	j.untilNewPage("the flash after a full success", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes(`+jsString(updated)+`)`)
	if got := j.text("#flash-area"); !strings.Contains(got, updated) {
		t.Errorf("flash %q, want %q", got, updated)
	}

	// A reload shows what the marketplace now holds.
	j.markPage()
	j.do("reload", chromedpReload())
	j.untilNewPage("the reloaded page", `document.querySelector("#nomenclature-form") && !document.querySelector("#flash-area .flash")`)
	want[bad] = fixed
	for i, q := range want {
		if got := j.value("qty-" + strconv.Itoa(i)); got != q {
			t.Errorf("row %d: quantity %q after reload, want %s", i, got, q)
		}
	}
	if got := j.value("status-" + strconv.Itoa(bad)); got != "rejected" {
		t.Errorf("row %d: status %q after reload, want rejected", bad, got)
	}
}
