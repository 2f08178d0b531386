package handlers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// sessionStoreError marks a failure of the session database, which the user
// sees as 503 "session store unavailable".
type sessionStoreError struct{ err error }

func (e *sessionStoreError) Error() string { return "session store: " + e.err.Error() }
func (e *sessionStoreError) Unwrap() error { return e.err }

func errSessionStore(err error) error { return &sessionStoreError{err: err} }

// isSessionStoreError reports a failure of the session database met while
// sending a mass update (the token store behind the account).
func isSessionStoreError(err error) bool {
	var ss *sessionStoreError
	return errors.As(err, &ss)
}

// massUpdateError maps a mass update's error: the per-seller lock failing
// is the session database failing.
func massUpdateError(err error) error {
	var le *massupdate.LockError
	if errors.As(err, &le) {
		return errSessionStore(le.Err)
	}
	return err
}

// handleError is the one place errors become answers: a page for full
// requests, a fragment in the flash area for htmx, a redirect to the login
// page when the marketplace rejected the credentials. Statuses stay honest;
// details go to the log, never to the page.
func (a *App) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	r := c.Request()
	ctx := r.Context()
	log := a.logger(ctx)

	if errors.Is(err, apiclient.ErrUnauthorized) && loggedIn(session(c)) {
		log.Warn("marketplace rejected the session's credentials; logging out", "err", err)
		if rerr := a.credentialsRejected(c); rerr != nil {
			log.Error("cannot end the session", "err", rerr)
			a.writeError(c, pages.ErrorView{Status: http.StatusServiceUnavailable, Title: "Session store unavailable",
				Message: "Your session could not be updated. Try again in a moment."})
		}
		return
	}

	a.catalogForbidden(c, err) // issue 16: a 403 cuts access to the copy at once (handlers/sync.go)
	view := a.describe(ctx, err)
	switch {
	case view.Status >= 500:
		log.Error("request failed", "status", view.Status, "err", err)
	default:
		log.Info("request refused", "status", view.Status, "err", err)
	}
	a.writeError(c, view)
}

// describe turns an error into what the user is told.
func (a *App) describe(ctx context.Context, err error) pages.ErrorView {
	v := pages.ErrorView{RequestID: requestIDOf(ctx)}
	var he *echo.HTTPError
	var rl *apiclient.RateLimitError
	var ss *sessionStoreError
	switch {
	case errors.As(err, &ss):
		v.Status, v.Title, v.RetryIn = http.StatusServiceUnavailable, "Session store unavailable", 5
		v.Message = "The dashboard cannot reach its session store right now. Nothing was sent to the marketplace; try again in a moment."
	case errors.As(err, &rl):
		v.Status = http.StatusServiceUnavailable
		if errors.Is(err, apiclient.ErrRateLimited) {
			v.Status = http.StatusTooManyRequests
		}
		v.Title = "The marketplace is busy"
		// RetryAt is on the wall clock (see retryWait).
		v.RetryIn = secondsUntil(time.Now(), rl.RetryAt)
		v.Message = fmt.Sprintf("It asked us to slow down, so we are waiting instead of pressing on. Try again at %s.", format.Clock(rl.RetryAt))
	case errors.Is(err, apiclient.ErrRateLimited):
		v.Status, v.Title, v.RetryIn = http.StatusTooManyRequests, "The marketplace is busy", 5
		v.Message = "It asked us to slow down, so we are waiting instead of pressing on."
	case errors.Is(err, apiclient.ErrUnavailable):
		v.Status, v.Title, v.RetryIn = http.StatusServiceUnavailable, "The marketplace is busy", 5
		v.Message = "It is temporarily unavailable. We will try again shortly."
	case errors.Is(err, apiclient.ErrForbidden):
		v.Status, v.Title = http.StatusForbidden, "Not available"
		v.Message = "This seller's data is not available to these credentials."
		v.LinkHref, v.LinkText = "/", "Back to the overview"
	case errors.Is(err, apiclient.ErrNotFound):
		v.Status, v.Title = http.StatusNotFound, "Not found"
		v.Message = "The marketplace does not know this item. It may have been removed, or the link is wrong."
		v.LinkHref, v.LinkText = "/", "Back to the overview"
	case errors.Is(err, apiclient.ErrOutcomeUnknown):
		v.Status, v.Title = http.StatusBadGateway, "No answer from the marketplace"
		v.Message = "The change was sent, but no answer came back, so it may or may not have been applied. Reload the page to check before you try again."
	case errors.Is(err, apiclient.ErrUnexpectedResponse):
		v.Status, v.Title = http.StatusBadGateway, "Unreadable answer from the marketplace"
		v.Message = "The marketplace sent an answer the dashboard could not read. Nothing is shown as done that was not confirmed. Try again in a moment."
	case errors.As(err, new(*apiclient.RequestError)):
		// Refused before sending: the dashboard's own doing, not the
		// marketplace's.
		v.Status, v.Title = http.StatusUnprocessableEntity, "Not sent"
		v.Message = "The dashboard could not express this change for the marketplace, so nothing was sent."
		for _, f := range apiclient.FieldErrors(err) {
			v.Message += " " + strings.TrimSpace(f.Field+": "+f.Message)
		}
	case errors.Is(err, apiclient.ErrValidation):
		v.Status, v.Title = http.StatusBadRequest, "Request refused"
		v.Message = "The marketplace refused the request as invalid."
		if fe := apiclient.FieldErrors(err); len(fe) > 0 {
			parts := make([]string, 0, len(fe))
			for _, f := range fe {
				parts = append(parts, strings.TrimSpace(f.Field+": "+f.Message))
			}
			v.Message += " " + strings.Join(parts, "; ")
		}
	case errors.Is(err, context.DeadlineExceeded):
		v.Status, v.Title = http.StatusGatewayTimeout, "The marketplace is slow"
		v.Message = "It did not answer in time. Try again in a moment."
	case errors.As(err, new(*url.Error)):
		// The connection failed or broke before an answer (refused, reset,
		// DNS): a read, since writes with an unknown outcome are caught above.
		v.Status, v.Title = http.StatusBadGateway, "No answer from the marketplace"
		v.Message = "The connection to the marketplace failed before it answered. Nothing is shown as done that was not confirmed. Try again in a moment."
	case errors.As(err, &he):
		v.Status = he.Code
		v.Title = http.StatusText(he.Code)
		switch he.Code {
		case http.StatusNotFound:
			v.Title, v.Message = i18n.T(ctx, "error.not_found_title"), i18n.T(ctx, "error.not_found_message")
			v.LinkHref, v.LinkText = "/", i18n.T(ctx, "error.to_overview")
		case http.StatusRequestEntityTooLarge:
			v.Message = "The form is too large to accept. Submit fewer rows at a time."
		case http.StatusMethodNotAllowed:
			v.Message = "This address does not accept that kind of request."
		default:
			if msg, ok := he.Message.(string); ok && he.Code < 500 {
				v.Message = msg
			} else {
				v.Message = "The request could not be handled."
			}
		}
	case marketplaceErrorCode(err) != "":
		// An error answer of a kind the dashboard has no special words for
		// (an unknown code, a 500 from the marketplace): say whose it was.
		v.Status, v.Title = http.StatusBadGateway, "The marketplace answered with an error"
		v.Message = "It refused the request with an error the dashboard does not know (" + marketplaceErrorCode(err) +
			"). Nothing is shown as done that was not confirmed. Try again in a moment; if it persists, quote the request id to support."
	default:
		v.Status, v.Title = http.StatusInternalServerError, "Something went wrong"
		v.Message = "The dashboard hit an unexpected problem. It has been logged."
	}
	return v
}

// writeError renders an error view as a page, or as a flash fragment for
// htmx requests (retargeted to the flash area so the form stays as typed).
func (a *App) writeError(c echo.Context, v pages.ErrorView) {
	// The page is rendered even when the request's context has ended (a
	// body that broke off ends it): the answer may still reach the client.
	r := c.Request().WithContext(context.WithoutCancel(c.Request().Context()))
	c.SetRequest(r)
	var err error
	if v.RetryIn > 0 && (v.Status == http.StatusTooManyRequests || v.Status == http.StatusServiceUnavailable) {
		c.Response().Header().Set("Retry-After", strconv.Itoa(v.RetryIn))
	}
	if isHTMX(r) {
		c.Response().Header().Set("HX-Retarget", "#flash-area")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		err = a.render(c, v.Status, pages.ErrorFlash(v), nil)
	} else {
		ch := a.chrome(c, v.Title, "")
		if v.RetryIn > 0 && r.Method == http.MethodGet {
			ch.RefreshAfter = v.RetryIn
		}
		err = a.render(c, v.Status, pages.ErrorPage(ch, v), nil)
	}
	if err != nil {
		// The session store failed while saving: answer without it.
		a.logger(r.Context()).Error("cannot render the error page", "err", err)
		c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextPlainCharsetUTF8)
		c.Response().WriteHeader(v.Status)
		_, _ = c.Response().Write([]byte(v.Title + ". " + v.Message + "\n"))
	}
}

// credentialsRejected ends a login whose credentials the marketplace no
// longer accepts: the secret is wiped, the form being sent is kept as a
// draft, and the user goes to the login page, coming back here afterwards.
func (a *App) credentialsRejected(c echo.Context) error {
	sess := session(c)
	r := c.Request()
	sess.Data().ClientSecret = ""
	back := r.URL.RequestURI()
	if r.Method == http.MethodPost {
		if form := draftForm(c); form != "" && r.PostForm != nil {
			sess.SetDraft(form, changedRowsOnly(form, r.PostForm))
		}
		if r.URL.Path == "/orders/resend" {
			back = localOr(r.PostForm.Get("return"), "/orders")
		}
	}
	sess.SetReturnTo(back)
	sess.AddFlash("warn", "The marketplace no longer accepts the saved credentials. Log in again to continue where you left off.")
	return a.redirect(c, "/login")
}

// marketplaceErrorCode names the code of a marketplace error answer, or ""
// when err is not one.
func marketplaceErrorCode(err error) string {
	var (
		b2b  *apiclient.B2BError
		gift *apiclient.GiftCertificateError
		rpc  *apiclient.RPCError
		rest *apiclient.RESTError
	)
	switch {
	case errors.As(err, &rpc):
		return fmt.Sprintf("JSON-RPC code %d", rpc.Code)
	case errors.As(err, &b2b):
		return fmt.Sprintf("HTTP %d, code %d", b2b.Status, b2b.Code)
	case errors.As(err, &gift):
		return fmt.Sprintf("HTTP %d, code %d", gift.Status, gift.Code)
	case errors.As(err, &rest):
		code, _ := format.Short(rest.Code, 40)
		return fmt.Sprintf("HTTP %d, code %s", rest.Status, code)
	}
	return ""
}

// retryWait is how long a rate-limited call asks us to wait. apiclient
// states RetryAt on the wall clock; the dashboard's own clock may differ
// (tests run it on the sandbox's), so waits travel as durations.
func retryWait(rl *apiclient.RateLimitError) time.Duration {
	return time.Until(rl.RetryAt)
}

// secondsUntil is the whole number of seconds from now to t, at least 1.
func secondsUntil(now, t time.Time) int {
	s := int(math.Ceil(t.Sub(now).Seconds()))
	if s < 1 {
		return 1
	}
	return s
}
