package e2e

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 7: return boxes, filtered by status and paged through.
func TestJourneyReturnBoxes(t *testing.T) {
	j := newJourney(t, 7, "return-boxes", testapp.Options{})
	j.loginDemo()
	j.open("/return-boxes")
	j.until("the boxes table", `document.querySelector("#boxes-table")`)

	// Filter: shipped boxes only.
	j.choose("filter-status", "shipped")
	j.markPage()
	j.press("#filter-apply")
	j.untilNewPage("the shipped view", `new URLSearchParams(location.search).get("status") === "shipped" && document.querySelector("#boxes-table, [data-testid=empty]")`)
	st := rowStatuses(j, "#boxes-table")
	if len(st) == 0 {
		t.Fatal("no shipped boxes")
	}
	for i, s := range st {
		if s != "shipped" {
			t.Errorf("box %d has status %q in the shipped view", i, s)
		}
	}

	// All statuses, 20 a page, and page through.
	j.choose("filter-status", "")
	j.choose("filter-limit", "20")
	j.markPage()
	j.press("#filter-apply")
	j.untilNewPage("all boxes, 20 a page", `!new URLSearchParams(location.search).get("status") && new URLSearchParams(location.search).get("limit") === "20" && document.querySelector("#boxes-table")`)
	page1 := rowKeys(j, "#boxes-table")
	if len(page1) != 20 || j.count("[data-testid=next]") != 1 {
		t.Fatalf("first page: %d boxes, next link %t; want 20 and a next link", len(page1), j.count("[data-testid=next]") == 1)
	}
	j.markPage()
	j.press("[data-testid=next]")
	j.untilNewPage("page 2", `new URLSearchParams(location.search).get("page") === "2" && document.querySelector("#boxes-table")`)
	page2 := rowKeys(j, "#boxes-table")
	if len(page2) == 0 {
		t.Fatal("page 2 is empty")
	}
	seen := map[string]bool{}
	for _, k := range page1 {
		seen[k] = true
	}
	for _, k := range page2 {
		if seen[k] {
			t.Errorf("%s is on page 1 and page 2", k)
		}
	}
	if got := j.value("filter-limit"); got != "20" {
		t.Errorf("page 2 shows limit %q, want the 20 chosen", got)
	}
	if got := j.text(".pager [aria-current=page]"); got != "2" {
		t.Errorf("pager marks page %q as current, want 2", got)
	}
}
