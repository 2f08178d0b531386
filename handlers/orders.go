package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
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
	v := pages.OrdersView{
		Status:   q.Status,
		Limit:    strconv.Itoa(q.Limit),
		Statuses: statusOptions(orderStatuses, "All statuses"),
		Limits:   limitOptions(orderLimits),
		Pager:    q.pager("/orders", list.Pages, list.Total),
		Bulk:     resendView("resend-bulk", nil, "Resend selected", here),
		Rows:     make([]pages.OrderRow, 0, len(list.Orders)),
		Copy:     toolbar,
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
			Created:   format.DateTime(o.CreatedAt),
			Sum:       format.Money(int64(o.FullSum)),
			Payment:   o.PaymentMethod,
			Items:     o.ItemQuantity,
			Confirmed: o.IsConfirmed,
		}
		if validOrderNr.MatchString(o.OrderNr) {
			r.Href = "/orders/" + o.OrderNr + back // [A-Za-z0-9_-] only: PathEscape would return it unchanged
			nrs[i] = o.OrderNr
			r.Resend = resendView("resend-"+o.OrderNr, nrs[i:i+1:i+1], "Resend", here)
			if len(states) > 0 {
				states.apply(&r.Resend, now)
			}
		} else {
			r.Href = "/orders/" + url.PathEscape(o.OrderNr) + back
		}
		v.Rows = append(v.Rows, r)
	}
	return a.render(c, http.StatusOK, pages.OrdersPage(a.chrome(c, "Orders", "orders"), v), nil)
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
	v := pages.OrderDetail{
		OrderNr:      o.OrderNr,
		Status:       o.Status,
		Created:      format.DateTime(o.CreatedAt),
		Updated:      format.DateTime(o.UpdatedAt),
		Sum:          format.Money(int64(o.FullSum)),
		Delivery:     format.Money(int64(o.DeliveryPrice)),
		Payment:      o.PaymentMethod,
		Currency:     format.Currency(o.Currency),
		Confirmed:    o.IsConfirmed,
		ItemQuantity: o.ItemQuantity,
		Back:         back,
		Resend:       resendView("resend-"+o.OrderNr, []string{o.OrderNr}, "Resend notifications", "/orders/"+o.OrderNr),
	}
	loadResendStates(session(c)).apply(&v.Resend, a.deps.Now())
	for _, it := range o.Items {
		v.Items = append(v.Items, pages.OrderItemRow{
			ID: string(it.ID), SKU: it.SKU, MarketplaceSKU: it.MarketplaceSKU, Description: it.Description,
			Size: it.Size, Status: it.Status, SalePrice: format.Money(int64(it.SalePrice)), PaidPrice: format.Money(int64(it.PaidPrice)),
		})
	}
	return a.render(c, http.StatusOK, pages.OrderPage(a.chrome(c, "Order "+o.OrderNr, "orders"), v), nil)
}

// OrdersResend asks the marketplace to resend the notifications of one or
// more orders. A resend is never retried automatically: the marketplace
// answers 429 while earlier ones are processing, and the page then counts
// down (1 s, 2 s, 4 s … up to 60 s for repeated refusals) before the button
// works again. No request is sent while a countdown runs.
func (a *App) OrdersResend(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	formID := form.Get("form_id")
	if !validFormID.MatchString(formID) {
		formID = "resend-bulk"
	}
	ret := localOr(form.Get("return"), "/orders")
	label := "Resend"
	switch {
	case formID == "resend-bulk":
		label = "Resend selected"
	case strings.HasPrefix(ret, "/orders/"):
		label = "Resend notifications"
	}
	var nrs []string
	if formID != "resend-bulk" {
		nrs = []string{strings.TrimPrefix(formID, "resend-")}
	}
	vm := resendView(formID, nrs, label, ret)

	selected, problem := selectedOrders(form["orderNr"])
	status := http.StatusOK
	sess := session(c)
	states := loadResendStates(sess)
	now := a.deps.Now()
	switch {
	case problem != "":
		vm.State, vm.Message, status = "bad", problem, http.StatusUnprocessableEntity
	case states.blockedUntil(selected, now).After(now):
		// Still counting down: tell again, send nothing.
		states.applyAll(&vm, selected, now)
		status = http.StatusTooManyRequests
	default:
		res, err := a.account(c).B2B.ResendNotifications(c.Request().Context(), &apiclient.ResendRequest{OrderNrs: selected})
		var rl *apiclient.RateLimitError
		switch {
		case err == nil:
			states.clear(selected)
			vm.State = "ok"
			vm.Message = fmt.Sprintf("Queued %s.", format.Count(res.Queued, "notification", "notifications"))
			if res.Queued == 0 {
				vm.Message = "Nothing to resend: the marketplace has no notifications for this selection."
			}
		case errors.As(err, &rl) || errors.Is(err, apiclient.ErrRateLimited):
			retryAt := time.Time{}
			if rl != nil {
				retryAt = now.Add(retryWait(rl))
			}
			states.refused(selected, now, retryAt)
			states.applyAll(&vm, selected, now)
			status = http.StatusTooManyRequests
		case errors.Is(err, apiclient.ErrNotFound):
			vm.State, vm.Message, status = "bad", "The marketplace does not know this order.", http.StatusNotFound
			if len(selected) > 1 {
				vm.Message = "The marketplace does not know one of the selected orders."
			}
		case errors.Is(err, apiclient.ErrValidation):
			vm.State, vm.Message, status = "bad", "The marketplace refused the request as invalid.", http.StatusUnprocessableEntity
		default:
			return err
		}
		states.save(sess, now)
	}

	if wantsFragment(c.Request()) {
		return a.render(c, status, pages.ResendForm(vm), nil)
	}
	kind := vm.State
	if kind == "busy" {
		kind = "warn"
	}
	msg := vm.Message
	if vm.RetryIn > 0 {
		msg += fmt.Sprintf(" Try again in %d s (at %s).", vm.RetryIn, vm.RetryAt)
	}
	sess.AddFlash(kind, msg)
	return a.redirect(c, ret)
}

// selectedOrders checks the order numbers of a resend form.
func selectedOrders(raw []string) ([]string, string) {
	seen := map[string]bool{}
	var out []string
	for _, nr := range raw {
		nr = strings.TrimSpace(nr)
		if nr == "" || seen[nr] {
			continue
		}
		if !validOrderNr.MatchString(nr) {
			return nil, "One of the selected order numbers is not valid."
		}
		seen[nr] = true
		out = append(out, nr)
	}
	switch {
	case len(out) == 0:
		return nil, "Select at least one order first."
	case len(out) > maxResendOrders:
		return nil, fmt.Sprintf("Select at most %d orders at once.", maxResendOrders)
	}
	return out, ""
}

func resendView(formID string, nrs []string, label, ret string) pages.Resend {
	return pages.Resend{FormID: formID, OrderNrs: nrs, Label: label, Return: ret}
}

// resendStates remembers, per order, how many resends in a row the
// marketplace refused and when the next may be tried. It lives in the
// session so every instance and every tab agree.
type resendStates map[string]resendState

type resendState struct {
	attempts int
	retryAt  time.Time
}

const resendDraft = "resend"

func loadResendStates(sess *sessions.Session) resendStates {
	out := resendStates{}
	for nr, v := range sess.Draft(resendDraft) {
		if len(v) != 2 {
			continue
		}
		n, err1 := strconv.Atoi(v[0])
		at, err2 := strconv.ParseInt(v[1], 10, 64)
		if err1 == nil && err2 == nil {
			out[nr] = resendState{attempts: n, retryAt: time.UnixMilli(at)}
		}
	}
	return out
}

// save writes the states back, dropping those whose wait ended long ago
// (after that a refusal starts the schedule from 1 s again).
func (s resendStates) save(sess *sessions.Session, now time.Time) {
	v := map[string][]string{}
	for nr, st := range s {
		if now.Sub(st.retryAt) > 10*time.Minute {
			continue
		}
		v[nr] = []string{strconv.Itoa(st.attempts), strconv.FormatInt(st.retryAt.UnixMilli(), 10)}
	}
	if len(v) == 0 {
		sess.PopDraft(resendDraft)
		return
	}
	sess.SetDraft(resendDraft, v)
}

func (s resendStates) clear(nrs []string) {
	for _, nr := range nrs {
		delete(s, nr)
	}
}

// refused records a 429: the wait doubles from 1 s with each refusal in a
// row, capped at 60 s; a later time named by the marketplace wins.
func (s resendStates) refused(nrs []string, now, marketplaceRetryAt time.Time) {
	attempts := 0
	for _, nr := range nrs {
		attempts = max(attempts, s[nr].attempts)
	}
	attempts++
	wait := time.Second << min(attempts-1, 6)
	wait = min(wait, 60*time.Second)
	at := now.Add(wait)
	if marketplaceRetryAt.After(at) {
		at = marketplaceRetryAt
	}
	for _, nr := range nrs {
		s[nr] = resendState{attempts: attempts, retryAt: at}
	}
}

func (s resendStates) blockedUntil(nrs []string, now time.Time) time.Time {
	var until time.Time
	for _, nr := range nrs {
		if st, ok := s[nr]; ok && st.retryAt.After(now) && st.retryAt.After(until) {
			until = st.retryAt
		}
	}
	return until
}

// apply shows a running countdown on a single-order control.
func (s resendStates) apply(vm *pages.Resend, now time.Time) {
	s.applyAll(vm, vm.OrderNrs, now)
}

func (s resendStates) applyAll(vm *pages.Resend, nrs []string, now time.Time) {
	until := s.blockedUntil(nrs, now)
	if !until.After(now) {
		return
	}
	vm.State = "busy"
	vm.Message = "Already being processed by the marketplace."
	vm.RetryIn = secondsUntil(now, until)
	vm.RetryAt = format.Clock(until)
}
