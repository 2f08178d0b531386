package handlers

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/flash"
	"github.com/sellerdesk/sellerdesk/httpx/status"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/resend"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

var validFormID = regexp.MustCompile(`^resend-[A-Za-z0-9_-]{1,80}$`)

// OrdersResend asks the marketplace to resend the notifications of one or
// more orders (the rules are package resend's), says which were queued and
// records the run in the audit trail. The control answers in place for
// htmx, or in a flash after a redirect.
func (a *App) OrdersResend(c echo.Context) error {
	ctx := c.Request().Context()
	form, err := postForm(c)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "orders.form_unreadable"))
	}
	formID := form.Get("form_id")
	if !validFormID.MatchString(formID) {
		formID = "resend-bulk"
	}
	ret := localOr(form.Get("return"), at(c, paths.Orders))
	label := i18n.T(ctx, "orders.resend")
	switch {
	case formID == "resend-bulk":
		label = i18n.T(ctx, "orders.resend_selected")
	case strings.HasPrefix(ret, at(c, paths.Orders)+"/"):
		label = i18n.T(ctx, "orders.resend_notifications")
	}
	var nrs []string
	if formID != "resend-bulk" {
		nrs = []string{strings.TrimPrefix(formID, "resend-")}
	}
	vm := resendView(formID, nrs, label, ret)

	selected, problem := resend.Select(form["orderNr"])
	if problem != resend.ProblemNone {
		vm.State, vm.Message = pages.ResendBad, format.Message(ctx, problem.Msgs())
		return a.resendAnswer(c, vm, http.StatusUnprocessableEntity)
	}
	sess := session(c)
	states := resend.Load(sess)
	now := a.deps.Now()
	run, err := resend.Send(ctx, a.account(c).B2B, states, selected, now, a.deps.ResendProcessing)
	if err != nil {
		return err
	}
	if run.Err != nil {
		a.logger(ctx).Warn("resend: a later request failed", "err", run.Err)
	}
	resend.Save(sess, states, now)
	if run.Requests > 0 { // audit trail: every order sent, queued, busy or refused
		a.record(c, resend.Entry(run, format.Message(ctx, run.Failure.Msgs())))
	}
	status := showRun(ctx, run, &vm, states, now)
	if formID == "resend-bulk" && wantsFragment(c.Request()) {
		// The rows just resent show their new state at once, as a reload
		// would: each row's control waiting, its checkbox unticked.
		rows := make([]pages.Resend, 0, len(run.Selected))
		for _, nr := range run.Selected {
			row := resendView("resend-"+nr, []string{nr}, i18n.T(ctx, "orders.resend"), ret)
			showResendState(ctx, states, &row, now)
			row.OOB = true
			rows = append(rows, row)
		}
		return a.render(c, status, pages.ResendBulkAnswer(vm, rows, i18n.T(ctx, "orders.select_prefix")), nil)
	}
	return a.resendAnswer(c, vm, status)
}

// resendAnswer renders the control in place for htmx, or comes back to
// the page with the same words in a flash.
func (a *App) resendAnswer(c echo.Context, vm pages.Resend, status int) error {
	if wantsFragment(c.Request()) {
		return a.render(c, status, pages.ResendForm(vm), nil)
	}
	kind := flash.Of(string(vm.State)) // ok, bad
	if vm.State == pages.ResendBusy {
		kind = flash.Warn
	}
	ctx := c.Request().Context()
	msg := vm.Message
	if len(vm.Queued) > 0 {
		msg += " " + i18n.TD(ctx, "orders.flash_queued", map[string]any{"List": strings.Join(vm.Queued, "; ")})
	}
	if len(vm.Busy) > 0 {
		msg += " " + i18n.TD(ctx, "orders.flash_not_sent", map[string]any{"List": strings.Join(vm.Busy, "; ")})
	}
	if vm.RetryIn > 0 {
		msg += " " + i18n.TD(ctx, "orders.flash_retry", map[string]any{"Seconds": vm.RetryIn, "At": vm.RetryAt})
	}
	session(c).AddFlash(kind, msg)
	return a.redirect(c, vm.Return)
}

// failureStatus is the status a refused request's control answers with.
func failureStatus(f resend.Failure) int {
	switch f {
	case resend.FailureUnknownOrder, resend.FailureUnknownSelected:
		return http.StatusNotFound
	case resend.FailureInvalid:
		return http.StatusUnprocessableEntity
	case resend.FailureForeignOrder, resend.FailureForeignSelected:
		return http.StatusForbidden
	case resend.FailureNoAnswer:
		return http.StatusBadGateway
	}
	return http.StatusOK
}

// showRun fills the control with the run's outcome (resend.Run.Tell) and
// returns the status: 200 when something was queued (or nothing was there
// to queue), 429 when every order was busy, or the status of a refusal.
func showRun(ctx context.Context, r *resend.Run, vm *pages.Resend, states resend.States, now time.Time) int {
	single := ""
	if len(vm.OrderNrs) == 1 {
		single = vm.OrderNrs[0]
	}
	ans := r.Tell(states, now, single)
	show(ctx, ans, vm, now)
	for _, l := range ans.Queued {
		vm.Queued = append(vm.Queued, l.Nr+": "+format.Message(ctx, l.Msg))
	}
	for _, l := range ans.NotSent {
		vm.Busy = append(vm.Busy, l.Nr+": "+format.Message(ctx, l.Msg))
	}
	if ans.Processing {
		vm.Message = strings.TrimSuffix(vm.Message, ".") + i18n.T(ctx, "orders.processing_them")
	}
	switch r.Verdict() {
	case resend.VerdictQueued, resend.VerdictNothing:
		return http.StatusOK
	case resend.VerdictFailed:
		return failureStatus(r.Failure)
	}
	return http.StatusTooManyRequests
}

// show puts an answer's tone, words and wait on a control.
func show(ctx context.Context, ans resend.Answer, vm *pages.Resend, now time.Time) {
	vm.State, vm.Message = pages.ResendState(ans.Tone), format.Message(ctx, ans.Message)
	if !ans.Until.IsZero() {
		vm.RetryIn, vm.RetryAt = status.RetryAfter(now, ans.Until), format.ClockIn(format.LocaleOf(ctx), ans.Until)
	}
}

func resendView(formID string, nrs []string, label, ret string) pages.Resend {
	return pages.Resend{FormID: formID, OrderNrs: nrs, Label: label, Return: ret}
}

// showResendState shows an order's state on its single-order control
// (resend.States.Tell): what was queued and when, and while the
// marketplace is busy, the button disabled with the reason and the time
// it can succeed.
func showResendState(ctx context.Context, s resend.States, vm *pages.Resend, now time.Time) {
	if len(vm.OrderNrs) != 1 {
		return
	}
	if ans, ok := s.Tell(vm.OrderNrs[0], now); ok {
		show(ctx, ans, vm, now)
	}
}
