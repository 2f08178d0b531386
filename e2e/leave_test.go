package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// Journey 28: a form sent with htmx whose answer leaves the page
// (HX-Redirect, as a saved prices form gets) leaves it without asking about
// unsaved edits: they were sent. htmx sets the new address and then ends
// the request (htmx:afterRequest); the browser asks the page whether it
// may leave only after that, with the edited fields still on it. An answer
// swapped in place (a refused row) keeps the question: the edits are still
// there, unsent.
func TestJourneyLeaveAfterSentForm(t *testing.T) {
	j := newJourney(t, 28, "leave-after-send", testapp.Options{})
	j.loginDemo()
	j.open("/prices")
	j.typeInto("price-0", "123.00")
	leaveAsks := `(() => { const e = new Event("beforeunload", {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()`
	if !eval[bool](j, leaveAsks) {
		t.Fatal("leaving with unsaved edits does not ask for confirmation")
	}
	// The events in the order the browser delivers them, on a form of no
	// htmx of its own, so that nothing is sent: synthetic submit events
	// never send a form.
	answer := func(redirect string) string {
		return fmt.Sprintf(`(() => {
			const f = document.createElement("form");
			document.body.appendChild(f);
			f.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
			const xhr = {getResponseHeader: h => (h.toLowerCase() === "hx-redirect" && %q) ? %q : null};
			f.dispatchEvent(new CustomEvent("htmx:afterRequest", {bubbles: true, detail: {xhr: xhr, successful: true}}));
			f.remove();
		})()`, redirect, redirect)
	}
	eval[chromedp.Void](j, answer(""))
	if !eval[bool](j, leaveAsks) {
		t.Error("after an answer swapped in place, leaving with the edits still unsent does not ask")
	}
	eval[chromedp.Void](j, answer(j.app.URL+"/prices"))
	if eval[bool](j, leaveAsks) {
		t.Error("after an answer that leaves the page (HX-Redirect), leaving asks about the edits just sent")
	}
}
