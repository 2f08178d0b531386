package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/failure"
	"github.com/sellerdesk/sellerdesk/httpx/flash"
	"github.com/sellerdesk/sellerdesk/httpx/formbody"
	"github.com/sellerdesk/sellerdesk/httpx/htmx"
	"github.com/sellerdesk/sellerdesk/httpx/status"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// errSessionStore marks a failure of the session database
// (sqldb.ErrUnavailable, naming the store "sessions"); an error already
// naming its store (a job's, the history's) keeps its name.
func errSessionStore(err error) error { return sqldb.Unavailable("sessions", err) }

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

	a.catalogRefused(c, err) // a rejected credential or a refused seller cuts access at once (handlers/sync.go)
	if failure.Rejected(err) && loggedIn(session(c)) {
		log.Warn("marketplace rejected the session's credentials; logging out", "err", err)
		if rerr := a.credentialsRejected(c); rerr != nil {
			log.Error("cannot end the session", "err", rerr)
			a.writeError(c, pages.ErrorView{Status: http.StatusServiceUnavailable, Title: i18n.T(ctx, "error.session_store_title"),
				Message: i18n.T(ctx, "error.session_not_updated")})
		}
		return
	}

	view := a.describe(ctx, err)
	switch {
	case view.Status >= 500:
		log.Error("request failed", "status", view.Status, "err", err)
	default:
		log.Info("request refused", "status", view.Status, "err", err)
	}
	a.writeError(c, view)
}

// describe turns an error into what the user is told: a failure of the
// marketplace or the database as package failure words it, with the
// status its kind answers with; the dashboard's own refusals here.
func (a *App) describe(ctx context.Context, err error) pages.ErrorView {
	v := pages.ErrorView{RequestID: requestIDOf(ctx)}
	var he *echo.HTTPError
	switch f, upstream := failure.Marketplace(err); {
	case errors.Is(err, sqldb.ErrUnavailable), errors.Is(err, browse.ErrStore):
		v = failed(ctx, v, failure.Store(err))
	case errors.Is(err, formbody.ErrTooSlow):
		v.Status, v.Title = http.StatusRequestTimeout, status.Title(ctx, http.StatusRequestTimeout)
		v.Message = i18n.T(ctx, "error.form_too_slow")
	case errors.Is(err, formbody.ErrBroken):
		v.Status, v.Title = http.StatusBadRequest, status.Title(ctx, http.StatusBadRequest)
		v.Message = i18n.T(ctx, "error.form_broken")
	case errors.Is(err, errPageTooLong):
		v.Status, v.Title, v.RetryIn = http.StatusServiceUnavailable, i18n.T(ctx, "error.page_too_long_title"), 5
		v.Message = i18n.T(ctx, "error.page_too_long_message")
	case upstream:
		v = failed(ctx, v, f)
	case errors.Is(err, errAccountNotInSession):
		v = accountRefusal(ctx, v)
	case errors.Is(err, errCopyRevoked), errors.Is(err, copystore.ErrRevoked):
		v.Status, v.Title = http.StatusForbidden, status.Title(ctx, http.StatusForbidden)
		v.Message = i18n.T(ctx, "error.copy_revoked")
	case errors.As(err, &he):
		v.Status = he.Code
		v.Title = status.Title(ctx, he.Code)
		switch he.Code {
		case http.StatusNotFound:
			v.Title, v.Message = i18n.T(ctx, "error.not_found_title"), i18n.T(ctx, "error.not_found_message")
			v.LinkHref, v.LinkText = "/", i18n.T(ctx, "error.to_overview")
		case http.StatusRequestEntityTooLarge:
			v.Message = i18n.T(ctx, "error.too_large")
		case http.StatusMethodNotAllowed:
			v.Message = i18n.T(ctx, "error.method_not_allowed")
		default:
			if ms, ok := he.Message.(i18n.Msgs); ok && len(ms) > 0 && he.Code < 500 {
				v.Message = format.Message(ctx, ms) // a domain refusal (massupdate's) in the reader's language
			} else if msg, ok := he.Message.(string); ok && he.Code < 500 {
				v.Message = msg
				if msg == http.StatusText(he.Code) {
					v.Message = status.Title(ctx, he.Code) // echo's default words
				}
			} else {
				v.Message = i18n.T(ctx, "error.not_handled")
			}
		}
	default:
		if f, ok := failure.Answer(err); ok {
			return failed(ctx, v, f)
		}
		v.Status, v.Title = http.StatusInternalServerError, i18n.T(ctx, "error.internal_title")
		v.Message = i18n.T(ctx, "error.internal_message")
	}
	return v
}

// kindStatus is the status each kind of failure answers with.
var kindStatus = map[failure.Kind]int{
	failure.RateLimited: http.StatusTooManyRequests, failure.Busy: http.StatusServiceUnavailable,
	failure.Forbidden: http.StatusForbidden, failure.NotFound: http.StatusNotFound,
	failure.OutcomeUnknown: http.StatusBadGateway, failure.Unreadable: http.StatusBadGateway,
	failure.NotSent: http.StatusUnprocessableEntity, failure.Refused: http.StatusBadRequest,
	failure.Slow: http.StatusGatewayTimeout, failure.NoConnection: http.StatusBadGateway,
	failure.Unknown: http.StatusBadGateway, failure.Database: http.StatusServiceUnavailable,
}

// failed is v telling f: its words, its kind's status, when to try again
// (the marketplace's time, else in 5 s when busy) and, for what the
// marketplace refused or does not know, the way back to the overview.
func failed(ctx context.Context, v pages.ErrorView, f failure.Failure) pages.ErrorView {
	v.Status, v.Title, v.Message = kindStatus[f.Kind], format.Message(ctx, i18n.Of(f.Title)), format.Message(ctx, f.Message)
	switch f.Kind {
	case failure.RateLimited, failure.Busy, failure.Database:
		v.RetryIn = 5
		if !f.RetryAt.IsZero() {
			v.RetryIn = status.RetryAfter(time.Now(), f.RetryAt)
		}
	case failure.Forbidden, failure.NotFound:
		v.LinkHref, v.LinkText = "/", i18n.T(ctx, "error.back_to_overview")
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
		htmx.Retarget(c.Response().Header(), "#flash-area", "innerHTML")
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

// credentialsRejected ends the session's current account, whose
// credentials the marketplace no longer accepts: it is dropped from the
// session with its secret and tokens (sessions.Data.Refuse), and the form
// being sent is kept as a draft. Another account the session holds
// becomes current and the user goes to the accounts page, whose form
// offers the refused account again; without another account, to the
// login page. Either way the page the user was on comes back once the
// account is added again.
func (a *App) credentialsRejected(c echo.Context) error {
	sess := session(c)
	r := c.Request()
	back := r.URL.RequestURI()
	if r.Method == http.MethodPost {
		if form := draftForm(c); form != "" && r.PostForm != nil {
			sess.SetDraft(form, changedRowsOnly(form, r.PostForm))
		}
		if r.URL.Path == at(c, paths.OrdersResend) {
			back = localOr(r.PostForm.Get("return"), at(c, paths.Orders))
		}
	}
	refused := sess.Data().Refuse()
	if err := a.wipeAccountTokens(c, refused.ID()); err != nil {
		return err
	}
	a.logger(r.Context()).Info("account refused by the marketplace and dropped", "client_id", refused.ClientID,
		"seller_id", refused.SellerID, "environment", refused.Environment)
	sess.SetReturnTo(back)
	if loggedIn(sess) {
		sess.AddFlash(flash.Warn, i18n.TD(r.Context(), "flash.account_refused", map[string]any{"Account": accountLabel(c, refused)}))
		return a.redirect(c, paths.Accounts)
	}
	sess.AddFlash(flash.Warn, i18n.T(r.Context(), "flash.credentials_rejected"))
	return a.redirect(c, paths.Login)
}
