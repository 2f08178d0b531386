package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

var orderLimits = []int{20, 50, 100}

var (
	validOrderNr = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	validFormID  = regexp.MustCompile(`^resend-[A-Za-z0-9_-]{1,80}$`)
)

// maxResendOrders bounds one resend request from the page.
const maxResendOrders = 100

// OrdersList shows a page of orders, filtered by status.
func (a *App) OrdersList(c echo.Context) error {
	q := parseListQuery(c, orderLimits, orderLimits[0], orderStatuses)
	// The list shows ItemQuantity, never the items: skip decoding them.
	list, err := a.ordersPage(c, q) // issue 16: from the local copy once it exists (handlers/copy_lists.go)
	if err != nil {
		return err
	}
	toolbar, err := a.copyToolbar(c, "/orders", q, orderSorts)
	if err != nil {
		return err
	}
	here := q.link("/orders")
	states := loadResendStates(session(c))
	now := a.deps.Now()
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	resendLabel := i18n.T(ctx, "orders.resend")
	v := pages.OrdersView{
		Status:      q.Status,
		Limit:       strconv.Itoa(q.Limit),
		Statuses:    localStatusOptions(ctx, orderStatuses, i18n.T(ctx, "orders.all_statuses")),
		Limits:      limitOptions(orderLimits),
		Pager:       q.pager("/orders", list.Pages, list.Total),
		Bulk:        resendView("resend-bulk", nil, i18n.T(ctx, "orders.resend_selected"), here),
		Rows:        make([]pages.OrderRow, 0, len(list.Orders)),
		Copy:        toolbar,
		SelectLabel: i18n.T(ctx, "orders.select_prefix"),
	}
	// Only what the table shows is formatted (the row's Updated and
	// Delivery are for other views); a valid order number needs no path
	// escaping, and its one-element list is a sub-slice of one array.
	nrs := make([]string, len(list.Orders))
	back := "?back=" + url.QueryEscape(here) // the detail's way back keeps the filter and page
	for i, o := range list.Orders {
		r := pages.OrderRow{
			OrderNr:   o.OrderNr,
			Status:    o.Status,
			Created:   listDateTime(l, o.CreatedAt),
			Sum:       listMoney(l, int64(o.FullSum)),
			Payment:   o.PaymentMethod,
			Items:     o.ItemQuantity,
			Confirmed: o.IsConfirmed,
		}
		if validOrderNr.MatchString(o.OrderNr) {
			r.Href = "/orders/" + o.OrderNr + back // [A-Za-z0-9_-] only: PathEscape would return it unchanged
			nrs[i] = o.OrderNr
			r.Resend = resendView("resend-"+o.OrderNr, nrs[i:i+1:i+1], resendLabel, here)
			if len(states) > 0 {
				states.apply(ctx, &r.Resend, now)
			}
		} else {
			r.Href = "/orders/" + url.PathEscape(o.OrderNr) + back
		}
		v.Rows = append(v.Rows, r)
	}
	return a.render(c, http.StatusOK, pages.OrdersPage(a.chrome(c, i18n.T(ctx, "orders.title"), "orders"), v), nil)
}

// OrderDetail shows one order. The B2B API has no single-order read, so the
// order is found by walking the list lazily, stopping at the match.
func (a *App) OrderDetail(c echo.Context) error {
	nr := c.Param("orderNr")
	if !validOrderNr.MatchString(nr) {
		return echo.ErrNotFound
	}
	var found *apiclient.Order
	for o, err := range a.account(c).B2B.AllOrders(a.pageContext(c), &apiclient.ListOrdersOptions{Limit: 100}) {
		if err != nil {
			return err
		}
		if o.OrderNr == nr {
			found = &o
			break
		}
	}
	if found == nil {
		return fmt.Errorf("order %s: %w", nr, apiclient.ErrNotFound)
	}
	o := found
	back := localOr(c.QueryParam("back"), "/orders")
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	v := pages.OrderDetail{
		OrderNr:      o.OrderNr,
		Status:       o.Status,
		Created:      format.DateTimeIn(l, o.CreatedAt),
		Updated:      format.DateTimeIn(l, o.UpdatedAt),
		Sum:          format.MoneyIn(l, int64(o.FullSum)),
		Delivery:     format.MoneyIn(l, int64(o.DeliveryPrice)),
		Payment:      o.PaymentMethod,
		Currency:     format.Currency(o.Currency),
		Confirmed:    o.IsConfirmed,
		ItemQuantity: o.ItemQuantity,
		Back:         back,
		Resend:       resendView("resend-"+o.OrderNr, []string{o.OrderNr}, i18n.T(ctx, "orders.resend_notifications"), "/orders/"+o.OrderNr),
	}
	loadResendStates(session(c)).apply(ctx, &v.Resend, a.deps.Now()) // what was queued, and whether a resend can succeed now
	for _, it := range o.Items {
		v.Items = append(v.Items, pages.OrderItemRow{
			ID: string(it.ID), SKU: it.SKU, MarketplaceSKU: it.MarketplaceSKU, Description: it.Description,
			Size: it.Size, Status: it.Status, SalePrice: format.MoneyIn(l, int64(it.SalePrice)), PaidPrice: format.MoneyIn(l, int64(it.PaidPrice)),
		})
	}
	return a.render(c, http.StatusOK, pages.OrderPage(a.chrome(c, i18n.TD(ctx, "orders.detail_title", map[string]any{"Nr": o.OrderNr}), "orders"), v), nil)
}

// OrdersResend asks the marketplace to resend the notifications of one or
// more orders, and says which were queued. The marketplace refuses (429)
// a resend that touches a notification still processing, and refuses the
// whole request for one busy order; so:
//
//   - an order known to be busy (queued here a moment ago, or refused
//     with a time) is not sent again before that time: it is named, with
//     when it can be retried, and the free orders of a selection go alone;
//   - a refusal that names one order of several drops that one and sends
//     the rest again (a refused request queued nothing); one that names
//     none is tried order by order; every attempt counts against
//     maxResendRequests;
//   - what was queued and what is busy is kept in the session, so the
//     order pages say it after a reload, and their buttons stay disabled
//     (with the reason and the time) until a resend can succeed.
//
// A resend is never retried automatically after that time: the user does.
func (a *App) OrdersResend(c echo.Context) error {
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, "orders.form_unreadable"))
	}
	formID := form.Get("form_id")
	if !validFormID.MatchString(formID) {
		formID = "resend-bulk"
	}
	ret := localOr(form.Get("return"), "/orders")
	label := i18n.T(ctx, "orders.resend")
	switch {
	case formID == "resend-bulk":
		label = i18n.T(ctx, "orders.resend_selected")
	case strings.HasPrefix(ret, "/orders/"):
		label = i18n.T(ctx, "orders.resend_notifications")
	}
	var nrs []string
	if formID != "resend-bulk" {
		nrs = []string{strings.TrimPrefix(formID, "resend-")}
	}
	vm := resendView(formID, nrs, label, ret)

	selected, problem := selectedOrders(ctx, form["orderNr"])
	status := http.StatusOK
	sess := session(c)
	states := loadResendStates(sess)
	now := a.deps.Now()
	if problem != "" {
		vm.State, vm.Message, status = "bad", problem, http.StatusUnprocessableEntity
		return a.resendAnswer(c, vm, status)
	}
	run, err := a.resend(c, states, selected, now)
	if err != nil {
		return err
	}
	states.save(sess, now)
	if run.requests > 0 { // audit trail (issue 17.3): every order sent, queued, busy or refused
		a.record(c, run.auditEntry())
	}
	status = run.show(ctx, &vm, states, now)
	return a.resendAnswer(c, vm, status)
}

// resendAnswer renders the control in place for htmx, or comes back to
// the page with the same words in a flash.
func (a *App) resendAnswer(c echo.Context, vm pages.Resend, status int) error {
	if wantsFragment(c.Request()) {
		return a.render(c, status, pages.ResendForm(vm), nil)
	}
	kind := vm.State
	if kind == "busy" {
		kind = "warn"
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

// maxResendRequests bounds the marketplace calls of one resend: a
// selection split around busy orders, or tried order by order.
const maxResendRequests = 10

// resendRun is what became of each selected order in one resend.
type resendRun struct {
	selected []string
	queued   map[string][]string // order → the notification types queued
	empty    []string            // sent, but the marketplace had nothing to resend
	busy     []string            // not sent, or refused: still processing
	unsent   []string            // not sent: the request budget ran out
	failed   string              // a refusal of the whole request (unknown order, invalid)
	status   int                 // its status
	requests int                 // calls made to the marketplace
}

// resend sends the free orders of selected and accounts for every one.
// Errors other than the marketplace's answers (credentials, the session
// store) are returned for the central handler.
func (a *App) resend(c echo.Context, states resendStates, selected []string, now time.Time) (*resendRun, error) {
	run := &resendRun{selected: selected, queued: map[string][]string{}}
	ctx := c.Request().Context()
	var free []string
	for _, nr := range selected {
		if states.busyUntil(nr).After(now) {
			run.busy = append(run.busy, nr)
		} else {
			free = append(free, nr)
		}
	}
	api := a.account(c).B2B
	pending := [][]string{}
	if len(free) > 0 {
		pending = append(pending, free)
	}
	for len(pending) > 0 {
		set := pending[0]
		pending = pending[1:]
		if run.requests == maxResendRequests {
			run.unsent = append(run.unsent, set...)
			continue
		}
		run.requests++
		res, err := api.ResendNotifications(c.Request().Context(), &apiclient.ResendRequest{OrderNrs: set})
		var rl *apiclient.RateLimitError
		switch {
		case err == nil:
			types := map[string][]string{}
			for _, n := range res.Notifications {
				if t := notificationType(n.Type); t != "" && len(types[n.OrderNr]) < 8 {
					types[n.OrderNr] = append(types[n.OrderNr], t)
				}
			}
			for _, nr := range set {
				switch {
				case len(types[nr]) > 0:
					run.queued[nr] = types[nr]
				case res.Queued > 0 && len(res.Notifications) == 0:
					// A marketplace that counts without listing: queued, kinds unknown.
					run.queued[nr] = nil
				default:
					run.empty = append(run.empty, nr)
				}
				states.queued(nr, now, now.Add(a.resendProcessing()), run.queued[nr], len(types[nr]))
			}
		case errors.As(err, &rl) || errors.Is(err, apiclient.ErrRateLimited):
			named, at := busyNamed(err, set, now)
			switch {
			case named != "" && len(set) > 1:
				// One named order blocked the rest: they go again without it.
				states.refused(named, now, at)
				run.busy = append(run.busy, named)
				pending = append(pending, slices.DeleteFunc(slices.Clone(set), func(nr string) bool { return nr == named }))
			case len(set) == 1:
				states.refused(set[0], now, at)
				run.busy = append(run.busy, set[0])
			default:
				// Refused without naming an order: try them one by one.
				for _, nr := range set {
					pending = append(pending, []string{nr})
				}
			}
		case errors.Is(err, apiclient.ErrNotFound):
			run.failed, run.status = i18n.T(ctx, "orders.unknown_order"), http.StatusNotFound
			if len(set) > 1 {
				run.failed = i18n.T(ctx, "orders.unknown_selected")
			}
			run.unsent = append(run.unsent, set...)
		case errors.Is(err, apiclient.ErrValidation):
			run.failed, run.status = i18n.T(ctx, "orders.invalid_request"), http.StatusUnprocessableEntity
			run.unsent = append(run.unsent, set...)
		case errors.Is(err, apiclient.ErrForbidden):
			// An order of another seller: refused beside it, never taken
			// as the account losing the seller.
			run.failed, run.status = i18n.T(ctx, "orders.not_your_order"), http.StatusForbidden
			if len(set) > 1 {
				run.failed = i18n.T(ctx, "orders.not_your_selected")
			}
			run.unsent = append(run.unsent, set...)
		default:
			if run.requests == 1 {
				return nil, err
			}
			// Later failures leave what was already queued standing.
			a.logger(c.Request().Context()).Warn("resend: a later request failed", "err", err)
			run.failed, run.status = i18n.T(ctx, "orders.no_answer"), http.StatusBadGateway
			run.unsent = append(run.unsent, set...)
			for _, rest := range pending {
				run.unsent = append(run.unsent, rest...)
			}
			pending = nil
		}
	}
	return run, nil
}

func (a *App) resendProcessing() time.Duration {
	if a.deps.ResendProcessing > 0 {
		return a.deps.ResendProcessing
	}
	return DefaultResendProcessing
}

// DefaultResendProcessing is how long a queued resend is taken to keep the
// marketplace busy when Deps.ResendProcessing is zero: the contract names
// no time, the sandbox keeps notifications processing this long, and a
// refusal that names a later time extends it.
const DefaultResendProcessing = 60 * time.Second

// show fills the control with the run's outcome and returns the status:
// 200 when something was queued (or nothing was there to queue), 429 when
// every order was busy, or the status of a refusal.
func (r *resendRun) show(ctx context.Context, vm *pages.Resend, states resendStates, now time.Time) int {
	l := i18n.LangOf(ctx)
	status := http.StatusOK
	nqueued := 0
	for _, nr := range r.selected {
		if types, ok := r.queued[nr]; ok {
			nqueued += max(len(types), 1)
			vm.Queued = append(vm.Queued, nr+": "+i18n.Text(ctx, typesKept(types)))
		}
	}
	for _, nr := range r.busy {
		vm.Busy = append(vm.Busy, nr+": "+i18n.TD(ctx, "orders.busy_retry_at", map[string]any{"At": format.ClockIn(l, states.busyUntil(nr))}))
	}
	for _, nr := range r.unsent {
		vm.Busy = append(vm.Busy, nr+": "+i18n.T(ctx, "orders.not_sent_item"))
	}
	switch {
	case len(r.queued) > 0:
		vm.State = "ok"
		vm.Message = i18n.TD(ctx, "orders.resend_queued", map[string]any{"Notifications": i18n.N(ctx, "orders.n_notifications", nqueued), "Orders": i18n.N(ctx, "orders.for_n_orders", len(r.queued))})
		if r.failed != "" {
			vm.Message += " " + r.failed
		}
	case r.failed != "":
		vm.State, vm.Message, status = "bad", r.failed, r.status
	case len(r.busy) > 0:
		vm.State, vm.Message, status = "busy", i18n.T(ctx, "orders.busy_earlier"), http.StatusTooManyRequests
	case len(r.empty) > 0:
		vm.State, vm.Message = "ok", i18n.T(ctx, "orders.nothing_to_resend")
	default:
		vm.State, vm.Message, status = "busy", i18n.T(ctx, "orders.busy"), http.StatusTooManyRequests
	}
	// A single-order control waits, disabled, until a resend can succeed.
	if len(vm.OrderNrs) == 1 {
		if until := states.busyUntil(vm.OrderNrs[0]); until.After(now) {
			vm.RetryIn, vm.RetryAt = secondsUntil(now, until), format.ClockIn(l, until)
			if len(r.queued) > 0 {
				vm.Message = strings.TrimSuffix(vm.Message, ".") + i18n.T(ctx, "orders.processing_them")
			}
		}
	}
	return status
}

func (r *resendRun) auditEntry() audit.Entry {
	e := audit.Entry{Kind: audit.KindResend}
	busy := map[string]bool{}
	for _, nr := range r.busy {
		busy[nr] = true
	}
	unsent := map[string]bool{}
	for _, nr := range r.unsent {
		unsent[nr] = true
	}
	for _, nr := range r.selected {
		it := audit.Item{Key: nr}
		switch types, ok := r.queued[nr]; {
		case ok:
			it.Outcome, it.New, it.Message = audit.Queued, typesKept(types), i18n.Encode(i18n.M("orders.queued", nil))
		case slices.Contains(r.empty, nr):
			it.Outcome, it.Message = audit.Accepted, i18n.Encode(i18n.M("history.resend_nothing", nil))
		case busy[nr]:
			it.Outcome, it.Message = audit.Busy, i18n.Encode(i18n.M("orders.still_processing", nil))
		case unsent[nr] && r.failed != "":
			it.Outcome, it.Message = audit.Refused, r.failed
		default:
			it.Outcome, it.Message = audit.Unsent, i18n.Encode(i18n.M("history.item_unsent", nil))
		}
		e.Items = append(e.Items, it)
	}
	return e
}

// typesKept lists the kinds of notification queued as the order page and
// the audit trail keep them: the kinds the marketplace named, as it named
// them, or the catalogue's "kinds not listed" kept as data (i18n.Text reads
// it in the reader's language).
func typesKept(types []string) string {
	if len(types) == 0 {
		return i18n.Encode(i18n.M("orders.kinds_not_listed", nil))
	}
	return strings.Join(types, ", ")
}

// notificationType keeps a notification kind the marketplace named if it
// looks like one (letters only, bounded): it is shown and stored.
func notificationType(t string) string {
	if len(t) == 0 || len(t) > 40 {
		return ""
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return ""
		}
	}
	return t
}

// retryAfterText finds a time in a refusal's message ("retry after
// 2026-11-24T12:01:05Z"); the contract gives none, the sandbox and, by
// report, the marketplace put one there.
var retryAfterText = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)

// busyNamed reads a 429 for the order it names (one of set, as a whole
// word) and the time it names in its message or, failing that, in its
// Retry-After, bounded to the next hour; zero when none.
func busyNamed(err error, set []string, now time.Time) (string, time.Time) {
	var at time.Time
	var rl *apiclient.RateLimitError
	if errors.As(err, &rl) && !rl.RetryAt.IsZero() {
		at = now.Add(retryWait(rl)) // the client's wall clock, moved onto the dashboard's
	}
	limit := now.Add(time.Hour)
	if at.After(limit) {
		at = limit
	}
	var be *apiclient.B2BError
	if !errors.As(err, &be) {
		return "", at
	}
	msg := be.Message
	if len(msg) > 2000 {
		msg = msg[:2000]
	}
	named := ""
	words := strings.FieldsFunc(msg, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
	for _, w := range words {
		if slices.Contains(set, w) {
			named = w
			break
		}
	}
	if m := retryAfterText.FindString(msg); m != "" {
		if t, err := time.Parse(time.RFC3339Nano, m); err == nil && t.After(now) {
			at = t
			if at.After(limit) {
				at = limit
			}
		}
	}
	return named, at
}

// selectedOrders checks the order numbers of a resend form.
func selectedOrders(ctx context.Context, raw []string) ([]string, string) {
	seen := map[string]bool{}
	var out []string
	for _, nr := range raw {
		nr = strings.TrimSpace(nr)
		if nr == "" || seen[nr] {
			continue
		}
		if !validOrderNr.MatchString(nr) {
			return nil, i18n.T(ctx, "orders.invalid_nr")
		}
		seen[nr] = true
		out = append(out, nr)
	}
	switch {
	case len(out) == 0:
		return nil, i18n.T(ctx, "orders.select_one")
	case len(out) > maxResendOrders:
		return nil, i18n.TD(ctx, "orders.select_at_most", map[string]any{"Max": maxResendOrders})
	}
	return out, ""
}

// localStatusOptions is statusOptions with the statuses labelled in the
// language of ctx («Новый», «На модерации»).
func localStatusOptions(ctx context.Context, all []string, allLabel string) []pages.Option {
	out := statusOptions(all, allLabel)
	for i := range out {
		if out[i].Value != "" {
			out[i].Label = i18n.Status(ctx, out[i].Value)
		}
	}
	return out
}

func resendView(formID string, nrs []string, label, ret string) pages.Resend {
	return pages.Resend{FormID: formID, OrderNrs: nrs, Label: label, Return: ret}
}

// resendStates remembers, per order, what the last resend queued and until
// when the marketplace is busy with it, and how many refusals came in a
// row. It lives in the session, so a reload, another tab and every
// instance agree.
type resendStates map[string]resendState

type resendState struct {
	attempts int       // refusals in a row
	until    time.Time // busy until: no resend can succeed before
	queuedAt time.Time // when the last resend was queued, if one was
	queued   int       // how many notifications it queued
	types    string    // their kinds
}

const (
	resendDraft = "resend"
	// maxResendStates bounds the orders remembered (the draft's size).
	maxResendStates = 150
	// resendMemory is how long a state is kept after its wait ended.
	resendMemory = 30 * time.Minute
)

func loadResendStates(sess *sessions.Session) resendStates {
	out := resendStates{}
	for nr, v := range sess.Draft(resendDraft) {
		if len(v) < 2 || !validOrderNr.MatchString(nr) {
			continue
		}
		n, err1 := strconv.Atoi(v[0])
		at, err2 := strconv.ParseInt(v[1], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		st := resendState{attempts: n, until: time.UnixMilli(at)}
		if len(v) == 5 {
			q, _ := strconv.ParseInt(v[2], 10, 64)
			if q > 0 {
				st.queuedAt = time.UnixMilli(q)
			}
			st.queued, _ = strconv.Atoi(v[3])
			st.types = v[4]
		}
		out[nr] = st
	}
	return out
}

// save writes the states back, dropping those whose wait ended long ago
// (after that a refusal starts the schedule from 1 s again) and the
// oldest beyond maxResendStates.
func (s resendStates) save(sess *sessions.Session, now time.Time) {
	keep := make([]string, 0, len(s))
	for nr, st := range s {
		if now.Sub(st.until) <= resendMemory {
			keep = append(keep, nr)
		}
	}
	slices.SortFunc(keep, func(x, y string) int { return s[y].until.Compare(s[x].until) })
	if len(keep) > maxResendStates {
		keep = keep[:maxResendStates]
	}
	v := map[string][]string{}
	for _, nr := range keep {
		st := s[nr]
		q := int64(0)
		if !st.queuedAt.IsZero() {
			q = st.queuedAt.UnixMilli()
		}
		v[nr] = []string{strconv.Itoa(st.attempts), strconv.FormatInt(st.until.UnixMilli(), 10), strconv.FormatInt(q, 10), strconv.Itoa(st.queued), st.types}
	}
	if len(v) == 0 {
		sess.PopDraft(resendDraft)
		return
	}
	sess.SetDraft(resendDraft, v)
}

// queued records a resend the marketplace queued: busy until the
// processing is taken to end.
func (s resendStates) queued(nr string, now, until time.Time, types []string, n int) {
	s[nr] = resendState{until: until, queuedAt: now, queued: n, types: audit.Bound(strings.Join(types, ", "), 200)}
}

// refused records a 429 for one order: the wait doubles from 1 s with each
// refusal in a row, capped at 60 s; a later time named by the marketplace
// wins. What was queued before is kept, to be shown.
func (s resendStates) refused(nr string, now, marketplaceAt time.Time) {
	st := s[nr]
	st.attempts++
	wait := min(time.Second<<min(st.attempts-1, 6), 60*time.Second)
	st.until = now.Add(wait)
	if marketplaceAt.After(st.until) {
		st.until = marketplaceAt
	}
	s[nr] = st
}

func (s resendStates) busyUntil(nr string) time.Time { return s[nr].until }

// apply shows an order's state on its single-order control: what was
// queued and when, and while the marketplace is busy, the button disabled
// with the reason and the time it can succeed.
func (s resendStates) apply(ctx context.Context, vm *pages.Resend, now time.Time) {
	l := i18n.LangOf(ctx)
	if len(vm.OrderNrs) != 1 {
		return
	}
	st, ok := s[vm.OrderNrs[0]]
	if !ok {
		return
	}
	busy := st.until.After(now)
	switch {
	case !st.queuedAt.IsZero() && busy && st.attempts == 0:
		vm.State = "busy"
		vm.Message = i18n.TD(ctx, "orders.queued_at_processing", map[string]any{"At": format.ClockIn(l, st.queuedAt), "What": queuedText(ctx, st)})
	case busy:
		vm.State = "busy"
		vm.Message = i18n.T(ctx, "orders.still_processing")
		if !st.queuedAt.IsZero() {
			vm.Message += " " + i18n.TD(ctx, "orders.last_queued_at", map[string]any{"At": format.ClockIn(l, st.queuedAt), "What": queuedText(ctx, st)})
		}
	case !st.queuedAt.IsZero():
		vm.State = "ok"
		vm.Message = i18n.TD(ctx, "orders.last_queued_at", map[string]any{"At": format.ClockIn(l, st.queuedAt), "What": queuedText(ctx, st)})
	default:
		return
	}
	if busy {
		vm.RetryIn, vm.RetryAt = secondsUntil(now, st.until), format.ClockIn(l, st.until)
	}
}

func queuedText(ctx context.Context, st resendState) string {
	out := i18n.N(ctx, "orders.n_notifications", st.queued)
	if st.queued == 0 {
		out = i18n.T(ctx, "orders.notifications_lower")
	}
	if st.types != "" {
		out += " (" + st.types + ")"
	}
	return out
}

// enMonths are the month names of English dates ("Nov 22, 2026").
var enMonths = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// listDateTime is format.DateTimeIn written into one buffer: the orders
// list formats fifty of them a page, and the allocation budget (P7) has no
// room for the Sprintf and concatenations of the general helper.
// TestListDateTimeIsDateTimeIn keeps the two the same.
func listDateTime(l i18n.Lang, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	z := t.In(format.Zone())
	var buf [64]byte
	b := buf[:0]
	if l == i18n.EN {
		b = append(b, enMonths[z.Month()-1]...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(z.Day()), 10)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(z.Year()), 10)
	} else {
		b = z.AppendFormat(b, "02.01.2006")
	}
	b = append(b, ' ')
	b = z.AppendFormat(b, "15:04")
	b = append(b, "\u00a0"...)
	b = append(b, format.ZoneLabel(l, t)...)
	return string(b)
}

// listMoney is format.MoneyIn with one allocation fewer, for the same
// reason as listDateTime (TestListMoneyIsMoneyIn keeps them the same).
func listMoney(l i18n.Lang, kopecks int64) string {
	if l == i18n.EN || l == i18n.RU {
		s := format.Money(kopecks) // "1 799.50"
		group, dec := "\u202f", byte(',')
		if l == i18n.EN {
			group, dec = ",", '.'
		}
		var buf [48]byte
		b := buf[:0]
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case ' ':
				b = append(b, group...)
			case '.':
				b = append(b, dec)
			default:
				b = append(b, s[i])
			}
		}
		return string(b)
	}
	return format.MoneyIn(l, kopecks)
}
