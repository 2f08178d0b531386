package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// rowKeys returns the data-testid of every body row of a table.
func rowKeys(j *journey, table string) []string {
	j.t.Helper()
	return eval[[]string](j, fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(r => r.dataset.testid)`, table+" tbody tr"))
}

// rowStatuses returns the data-status of every body row of a table.
func rowStatuses(j *journey, table string) []string {
	j.t.Helper()
	return eval[[]string](j, fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(r => (r.querySelector("[data-status]")||{dataset:{}}).dataset.status || "")`, table+" tbody tr"))
}

// Journey 2: page through the orders, filter them, open one, resend its
// notifications, resend again at once and watch the countdown run out.
func TestJourneyOrders(t *testing.T) {
	j := newJourney(t, 2, "orders", testapp.Options{})
	j.loginDemo()

	j.open("/orders")
	page1 := rowKeys(j, "#orders-table")
	if len(page1) != 20 {
		t.Fatalf("first page has %d orders, want 20", len(page1))
	}

	// Page through with the keyboard.
	j.markPage()
	j.press("[data-testid=next]")
	j.untilNewPage("page 2", `new URLSearchParams(location.search).get("page") === "2" && document.querySelector("#orders-table")`)
	page2 := rowKeys(j, "#orders-table")
	if len(page2) == 0 {
		t.Fatal("page 2 is empty")
	}
	for _, k := range page2 {
		for _, k1 := range page1 {
			if k == k1 {
				t.Errorf("%s is on page 1 and page 2", k)
			}
		}
	}
	if got := j.text(".pager [aria-current=page]"); got != "2" {
		t.Errorf("pager marks page %q as current, want 2", got)
	}
	j.markPage()
	j.press("[data-testid=prev]")
	j.untilNewPage("page 1 again", `(new URLSearchParams(location.search).get("page") || "1") === "1" && document.querySelector(".pager [aria-current=page]").textContent.trim() === "1"`)

	// Filter: delivered, 50 a page.
	j.choose("filter-status", "delivered")
	j.choose("filter-limit", "50")
	j.markPage()
	j.press("#filter-apply")
	j.untilNewPage("the delivered view", `new URLSearchParams(location.search).get("status") === "delivered" && document.querySelector("#orders-table")`)
	statuses := rowStatuses(j, "#orders-table")
	if len(statuses) == 0 || len(statuses) > 50 {
		t.Fatalf("delivered view shows %d orders", len(statuses))
	}
	for i, st := range statuses {
		if st != "delivered" {
			t.Errorf("row %d has status %q in the delivered view", i, st)
		}
	}
	if got := j.value("filter-status"); got != "delivered" {
		t.Errorf("the filter shows %q after applying it", got)
	}
	if j.count("[data-testid=next]") == 1 {
		next := eval[string](j, `document.querySelector("[data-testid=next]").getAttribute("href")`)
		if !strings.Contains(next, "status=delivered") || !strings.Contains(next, "limit=50") {
			t.Errorf("next link %q loses the filter", next)
		}
	}

	// Open the first delivered order.
	nr := j.text("#orders-table tbody tr a")
	j.markPage()
	j.press("#orders-table tbody tr a")
	j.untilNewPage("the order page", `document.querySelector("#order-items") && document.querySelector("h1").textContent.includes(`+jsString(nr)+`)`)
	if n := j.count("#order-items tbody tr"); n == 0 {
		t.Error("the order lists no items")
	}
	if got := j.text("[data-testid=order-facts] [data-status]"); got != j.tr("status.delivered") {
		t.Errorf("order status %q, want %q", got, j.tr("status.delivered"))
	}

	// Resend: queued, with the notifications named; the button waits,
	// disabled, while the marketplace processes them.
	form := "form.resend"
	calls := j.app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
	j.markPage()
	j.press(form + " button[data-wait]")
	j.until("the queued message", `(document.querySelector("form.resend [data-testid=resend-status]")||{textContent:""}).textContent.includes(`+jsString(j.lead("orders.resend_queued"))+`)`)
	j.swappedInPlace(form)
	if got := j.text(form + " [data-testid=resend-queued]"); !strings.Contains(got, nr) || !strings.Contains(got, j.lead("notification.statusChanged")) {
		t.Errorf("queued list %q: want the order and its notification kinds", got)
	}
	if j.count(form+" [data-countdown]") != 1 || !eval[bool](j, `document.querySelector("form.resend button[data-wait]").disabled`) {
		t.Errorf("no disabled button with a countdown while the marketplace processes: %q", j.text(form))
	}
	if status := j.text(form + " [data-testid=resend-status]"); !strings.Contains(status, j.tr("orders.retry_in")) {
		t.Errorf("status %q does not count down", status)
	}
	j.snapshot("resend-queued", false)
	// A reload keeps it: what was queued, and the button still waiting.
	j.markPage()
	j.do("reload", chromedpReload())
	j.untilNewPage("the order page again", `document.querySelector("form.resend [data-testid=resend-status]")`)
	if got := j.text(form + " [data-testid=resend-status]"); !j.says(got, "orders.queued_at_processing") {
		t.Errorf("after a reload the status says %q", got)
	}
	if !eval[bool](j, `document.querySelector("form.resend button[data-wait]").disabled`) {
		t.Error("after a reload the resend button is enabled while the marketplace processes")
	}
	// Once the marketplace is done (its clock moved on), the page says
	// what was last queued and the button works.
	j.app.Sandbox.Advance(61 * time.Second)
	j.markPage()
	j.do("reload", chromedpReload())
	j.untilNewPage("the order page after processing", `document.querySelector("form.resend [data-testid=resend-status]")`)
	if eval[bool](j, `document.querySelector("form.resend button[data-wait]").disabled`) {
		t.Error("the resend button is still disabled after processing")
	}
	if got := j.text(form + " [data-testid=resend-status]"); !j.says(got, "orders.last_queued_at") {
		t.Errorf("after processing the status says %q", got)
	}
	if got := j.app.Sandbox.Counters().Requests[sandbox.RouteB2BResend] - calls; got != 1 {
		t.Errorf("%d resend calls reached the marketplace, want 1", got)
	}
}
