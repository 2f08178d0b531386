package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 5: a mass update of the nomenclature where the marketplace takes
// some rows and refuses one: quantities of a few rows, and a product its
// moderation rejected switched back on. Then the refused row is fixed.
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
	j.choose("status-"+strconv.Itoa(bad), "online", "online")

	before := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
	j.markPage()
	j.typeInto("qty-"+strconv.Itoa(good[len(good)-1]), "\n") // Enter submits
	j.until("the answer of the marketplace", `document.querySelector("[data-testid=summary]") || document.querySelector("#flash-area .flash")`)
	if n := j.app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] - before; n != 1 {
		t.Errorf("%d store requests for 4 rows, want 1", n)
	}
	if j.count("[data-testid=summary]") == 0 {
		t.Fatalf("the marketplace accepted every row (flash %q), but it must refuse switching row %d from rejected to online "+
			"(\"rejected by moderation\", an item error of v1.nomenclatures.store); the sandbox lacks that rule",
			j.text("#flash-area"), bad)
	}
	j.swappedInPlace("#nomenclature-form")
	if got := j.text("[data-testid=summary]"); !strings.Contains(got, "3 updated, 1 rejected") {
		t.Errorf("summary %q, want 3 updated, 1 rejected", got)
	}
	rowOf := func(i int) string { return fmt.Sprintf(`document.getElementById("qty-%d").closest("tr")`, i) }
	badRow := rowOf(bad)
	if cls := eval[string](j, badRow+`.className`); !strings.Contains(cls, "rejected") {
		t.Errorf("row %d: class %q, want rejected", bad, cls)
	}
	if msg := squash(eval[string](j, `(`+badRow+`.querySelector(".row-msg")||{textContent:""}).textContent`)); !strings.Contains(strings.ToLower(msg), "rejected by moderation") {
		t.Errorf("row %d: message %q, want the marketplace's \"rejected by moderation\"", bad, msg)
	}
	if got := j.value("status-" + strconv.Itoa(bad)); got != "online" {
		t.Errorf("row %d: the chosen status was not kept: %q", bad, got)
	}
	for _, i := range good {
		cls := eval[string](j, rowOf(i)+`.className`)
		res := squash(eval[string](j, rowOf(i)+`.querySelector("[data-testid=result]").textContent`))
		if !strings.Contains(cls, "accepted") || !strings.Contains(res, origQty[i]+" pcs") || !strings.Contains(res, "→ "+want[i]+" pcs") {
			t.Errorf("row %d: class %q, result %q; want accepted, %s → %s pcs", i, cls, res, origQty[i], want[i])
		}
	}

	j.snapshot("rejected", true)

	// Fix the refused row: leave its status alone and change its quantity.
	q, _ := strconv.Atoi(origQty[bad])
	fixed := strconv.Itoa(q + 1)
	j.choose("status-"+strconv.Itoa(bad), "rejected", "rejected")
	j.markPage()
	j.typeInto("qty-"+strconv.Itoa(bad), fixed+"\n")
	j.untilNewPage("the flash after a full success", `(document.querySelector("#flash-area")||{textContent:""}).textContent.includes("updated")`)
	if got := j.text("#flash-area"); !strings.Contains(got, "1 row updated") {
		t.Errorf("flash %q, want 1 row updated", got)
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
