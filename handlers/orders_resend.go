package handlers

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/flash"
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
		vm.State, vm.Message = "bad", problemText(ctx, problem)
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
		failed, _ := failureAnswer(ctx, run.Failure)
		a.record(c, resend.Entry(run, failed))
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

// problemText is what is wrong with a resend form's orders, in the
// language of ctx.
func problemText(ctx context.Context, p resend.Problem) string {
	switch p {
	case resend.ProblemInvalidNr:
		return i18n.T(ctx, "orders.invalid_nr")
	case resend.ProblemTooMany:
		return i18n.TD(ctx, "orders.select_at_most", map[string]any{"Max": resend.MaxOrders})
	}
	return i18n.T(ctx, "orders.select_one")
}

// failureAnswer is a refused request's words in the language of ctx and
// the status the control answers with.
func failureAnswer(ctx context.Context, f resend.Failure) (string, int) {
	switch f {
	case resend.FailureUnknownOrder:
		return i18n.T(ctx, "orders.unknown_order"), http.StatusNotFound
	case resend.FailureUnknownSelected:
		return i18n.T(ctx, "orders.unknown_selected"), http.StatusNotFound
	case resend.FailureInvalid:
		return i18n.T(ctx, "orders.invalid_request"), http.StatusUnprocessableEntity
	case resend.FailureForeignOrder:
		return i18n.T(ctx, "orders.not_your_order"), http.StatusForbidden
	case resend.FailureForeignSelected:
		return i18n.T(ctx, "orders.not_your_selected"), http.StatusForbidden
	case resend.FailureNoAnswer:
		return i18n.T(ctx, "orders.no_answer"), http.StatusBadGateway
	}
	return "", http.StatusOK
}

// showRun fills the control with the run's outcome and returns the
// status: 200 when something was queued (or nothing was there to queue),
// 429 when every order was busy, or the status of a refusal.
func showRun(ctx context.Context, r *resend.Run, vm *pages.Resend, states resend.States, now time.Time) int {
	l := format.LocaleOf(ctx)
	nqueued := 0
	for _, nr := range r.Selected {
		if types, ok := r.Queued[nr]; ok {
			nqueued += max(len(types), 1)
			vm.Queued = append(vm.Queued, nr+": "+i18n.Text(ctx, resend.TypesKept(types)))
		}
	}
	for _, nr := range r.Busy {
		vm.Busy = append(vm.Busy, nr+": "+i18n.TD(ctx, "orders.busy_retry_at", map[string]any{"At": format.ClockIn(l, states.BusyUntil(nr))}))
	}
	for _, nr := range r.Unsent {
		vm.Busy = append(vm.Busy, nr+": "+i18n.T(ctx, "orders.not_sent_item"))
	}
	failed, status := failureAnswer(ctx, r.Failure)
	switch r.Verdict() {
	case resend.VerdictQueued:
		vm.State, status = "ok", http.StatusOK
		vm.Message = i18n.TD(ctx, "orders.resend_queued", map[string]any{"Notifications": i18n.N(ctx, "orders.n_notifications", nqueued), "Orders": i18n.N(ctx, "orders.for_n_orders", len(r.Queued))})
		if failed != "" {
			vm.Message += " " + failed
		}
	case resend.VerdictFailed:
		vm.State, vm.Message = "bad", failed
	case resend.VerdictBusy:
		vm.State, vm.Message, status = "busy", i18n.T(ctx, "orders.busy_earlier"), http.StatusTooManyRequests
	case resend.VerdictNothing:
		vm.State, vm.Message = "ok", i18n.T(ctx, "orders.nothing_to_resend")
	default:
		vm.State, vm.Message, status = "busy", i18n.T(ctx, "orders.busy"), http.StatusTooManyRequests
	}
	// A single-order control waits, disabled, until a resend can succeed.
	if len(vm.OrderNrs) == 1 {
		if until := states.BusyUntil(vm.OrderNrs[0]); until.After(now) {
			vm.RetryIn, vm.RetryAt = secondsUntil(now, until), format.ClockIn(l, until)
			if len(r.Queued) > 0 {
				vm.Message = strings.TrimSuffix(vm.Message, ".") + i18n.T(ctx, "orders.processing_them")
			}
		}
	}
	return status
}

func resendView(formID string, nrs []string, label, ret string) pages.Resend {
	return pages.Resend{FormID: formID, OrderNrs: nrs, Label: label, Return: ret}
}

// showResendState shows an order's state on its single-order control:
// what was queued and when, and while the marketplace is busy, the button
// disabled with the reason and the time it can succeed.
func showResendState(ctx context.Context, s resend.States, vm *pages.Resend, now time.Time) {
	if len(vm.OrderNrs) != 1 {
		return
	}
	l := format.LocaleOf(ctx)
	st, phase := s.Phase(vm.OrderNrs[0], now)
	switch phase {
	case resend.PhaseProcessing:
		vm.State = "busy"
		vm.Message = i18n.TD(ctx, "orders.queued_at_processing", map[string]any{"At": format.ClockIn(l, st.QueuedAt), "What": queuedText(ctx, st)})
	case resend.PhaseBusy:
		vm.State = "busy"
		vm.Message = i18n.T(ctx, "orders.still_processing")
		if !st.QueuedAt.IsZero() {
			vm.Message += " " + i18n.TD(ctx, "orders.last_queued_at", map[string]any{"At": format.ClockIn(l, st.QueuedAt), "What": queuedText(ctx, st)})
		}
	case resend.PhaseDone:
		vm.State = "ok"
		vm.Message = i18n.TD(ctx, "orders.last_queued_at", map[string]any{"At": format.ClockIn(l, st.QueuedAt), "What": queuedText(ctx, st)})
	default:
		return
	}
	if phase != resend.PhaseDone {
		vm.RetryIn, vm.RetryAt = secondsUntil(now, st.Until), format.ClockIn(l, st.Until)
	}
}

// queuedText is what a resend queued, in the language of ctx.
func queuedText(ctx context.Context, st resend.State) string {
	out := i18n.N(ctx, "orders.n_notifications", st.Queued)
	if st.Queued == 0 {
		out = i18n.T(ctx, "orders.notifications_lower")
	}
	if st.Types != "" {
		out += " (" + i18n.Text(ctx, i18n.NotificationTypes(strings.Split(st.Types, ", "))) + ")"
	}
	return out
}
