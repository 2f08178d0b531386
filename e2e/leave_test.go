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
	// never send a form. htmx names the request's element in
	// requestConfig.elt; an answer that swaps the form away reaches the
	// document from a parent still in the page.
	const setup = `window.__leave = {
		form: () => { const f = document.createElement("form"); document.body.appendChild(f); return f; },
		submit: f => f.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true})),
		end: (on, elt, redirect) => on.dispatchEvent(new CustomEvent("htmx:afterRequest", {bubbles: true, detail: {
			elt: on, requestConfig: {elt: elt}, successful: true,
			xhr: {getResponseHeader: h => (h.toLowerCase() === "hx-redirect" && redirect) ? redirect : null}}})),
	}`
	eval[chromedp.Void](j, setup)
	eval[chromedp.Void](j, `(() => { const f = __leave.form(); __leave.submit(f); f.remove(); __leave.end(document.body, f, ""); })()`)
	if !eval[bool](j, leaveAsks) {
		t.Error("after an answer swapped in place, leaving with the edits still unsent does not ask")
	}
	// Another request (a poll, a search) ending while the form's own is in
	// flight says nothing about the form.
	eval[chromedp.Void](j, `(() => { window.__f = __leave.form(); __leave.submit(__f); const poll = document.createElement("div"); document.body.appendChild(poll); __leave.end(poll, poll, ""); poll.remove(); })()`)
	if eval[bool](j, leaveAsks) {
		t.Error("a poll ending while the form was being sent made leaving ask about the edits being sent")
	}
	eval[chromedp.Void](j, `__leave.end(__f, __f, ""); __f.remove()`)
	if !eval[bool](j, leaveAsks) {
		t.Error("after the sent form's own answer came back in place, leaving does not ask")
	}
	eval[chromedp.Void](j, fmt.Sprintf(`(() => { const f = __leave.form(); __leave.submit(f); __leave.end(f, f, %q); f.remove(); })()`, j.app.URL+"/prices"))
	if eval[bool](j, leaveAsks) {
		t.Error("after an answer that leaves the page (HX-Redirect), leaving asks about the edits just sent")
	}
}
