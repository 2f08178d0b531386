package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/httpx/status"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// LoginForm shows the login page (or the overview to someone logged in).
func (a *App) LoginForm(c echo.Context) error {
	if loggedIn(session(c)) {
		return a.redirect(c, "/")
	}
	f := pages.LoginForm{Environment: "production", Next: localOr(c.QueryParam("next"), "")}
	// Someone sent back here after their credentials were rejected gets
	// their client id and seller pre-filled.
	d := session(c).Data()
	if again := d.AddAgain; again != nil {
		f.ClientID, f.Environment, f.DisplayName = again.ClientID, again.Environment, again.DisplayName
		f.SellerID = strconv.FormatInt(again.SellerID, 10)
	} else if d.ClientID != "" {
		f.ClientID, f.Environment, f.DisplayName = d.ClientID, d.Environment, d.DisplayName
		if d.SellerID > 0 {
			f.SellerID = strconv.FormatInt(d.SellerID, 10)
		}
	}
	if c.QueryParam("logged_out") == "1" {
		f.FormNote = i18n.T(c.Request().Context(), "auth.logged_out")
	}
	return a.renderLogin(c, http.StatusOK, f)
}

func (a *App) renderLogin(c echo.Context, status int, f pages.LoginForm) error {
	f.Demo = a.deps.DemoCredentials
	return a.render(c, status, pages.LoginPage(a.chrome(c, i18n.T(c.Request().Context(), "login.title"), ""), f), nil)
}

// loginInput is the login form as typed, and the account it names
// (accounts.Form.Check).
type loginInput struct {
	form    pages.LoginForm
	account sessions.Account
}

func bindLogin(c echo.Context) loginInput {
	f := pages.LoginForm{
		ClientID:    strings.TrimSpace(postValue(c, "client_id")),
		SellerID:    strings.TrimSpace(postValue(c, "seller_id")),
		Environment: postValue(c, "environment"),
		DisplayName: strings.TrimSpace(format.Clean(postValue(c, "display_name"))),
		Next:        localOr(postValue(c, "next"), ""),
		Errors:      map[string]string{},
	}
	acct, errs := accounts.Form{ClientID: f.ClientID, Secret: postValue(c, "client_secret"), SellerID: f.SellerID,
		Environment: f.Environment, DisplayName: f.DisplayName}.Check()
	for field, ms := range errs {
		f.Errors[field] = format.Message(c.Request().Context(), ms)
	}
	if errs["environment"] != nil {
		f.Environment = "production"
	}
	return loginInput{form: f, account: acct}
}

// LoginSubmit checks the credentials against the marketplace (both tokens,
// and access to the seller) before it opens a session, so mistakes are
// reported at once, beside the form.
func (a *App) LoginSubmit(c echo.Context) error {
	in := bindLogin(c)
	f := in.form
	if len(f.Errors) > 0 {
		f.FormError = i18n.T(c.Request().Context(), "auth.check_fields")
		return a.renderLogin(c, http.StatusUnprocessableEntity, f)
	}
	login, status := a.verifyCredentials(c, in, &f)
	if status != 0 {
		return a.renderLogin(c, status, f)
	}

	sess := session(c)
	sess.Renew()
	acct := login.Account
	// The accounts the session still holds stay: a login that adds again
	// an account the marketplace refused keeps the others.
	sess.Data().Login(acct)
	login.Keep(sess)
	a.logger(c.Request().Context()).Info("logged in", "client_id", f.ClientID, "seller_id", in.account.SellerID, "environment", f.Environment)
	a.catalogLogin(c) // the copy's sync starts (handlers/sync.go)
	return a.redirect(c, sess.PopReturnTo(localOr(f.Next, paths.Of(acct.ID(), paths.Overview))))
}

// verifyCredentials checks in's credentials through the login use case
// (accounts.Service.Login: both tokens, access to the seller, the
// throttle per client address and client id). On success it returns the
// login and status 0; otherwise the status to answer with, the reason
// (accounts.LoginError.Msgs) written into f.
func (a *App) verifyCredentials(c echo.Context, in loginInput, f *pages.LoginForm) (*accounts.Login, int) {
	from := clientIP(c.Request(), a.deps.TrustedProxies)
	ctx := a.pageContext(c)
	login, err := a.deps.Accounts.Login(ctx, accounts.Attempt{Account: in.account, From: from})
	if err == nil {
		return login, 0
	}
	log := a.logger(c.Request().Context())
	var le *accounts.LoginError
	if !errors.As(err, &le) {
		le = &accounts.LoginError{Reason: accounts.Failed, Err: err}
	}
	form, field, fieldMsg := le.Msgs()
	f.FormError = format.Message(ctx, form)
	if field != "" {
		f.Errors[field] = format.Message(ctx, fieldMsg)
	}
	switch le.Reason {
	case accounts.Throttled, accounts.TooManyClients:
		log.Warn("login throttled", "client_id", f.ClientID, "ip", from.String(), "reason", le.Reason.String())
		c.Response().Header().Set("Retry-After", strconv.Itoa(status.RetryAfter(a.deps.Now(), le.Until)))
		return nil, http.StatusTooManyRequests
	case accounts.NoAccess:
		return nil, http.StatusUnprocessableEntity
	}
	log.Info("login refused", "client_id", f.ClientID, "environment", f.Environment, "err", err)
	switch le.Reason {
	case accounts.Rejected, accounts.Malformed:
		return nil, http.StatusUnprocessableEntity
	case accounts.Busy:
		return nil, http.StatusServiceUnavailable
	}
	// The marketplace failed before judging the credentials (an error
	// status, an unreadable answer, no answer): say so on the form, never
	// as a rejection.
	v := a.describe(ctx, err)
	f.FormError = i18n.TD(ctx, "auth.login_service_failed", map[string]any{"Problem": strings.ToLower(strings.TrimSuffix(v.Title, ".")), "RequestID": v.RequestID})
	return nil, v.Status
}

// Logout deletes the session record and its cookie.
func (a *App) Logout(c echo.Context) error {
	sess := session(c)
	if loggedIn(sess) {
		a.logger(c.Request().Context()).Info("logged out", "client_id", sess.Data().ClientID)
	}
	sess.Destroy()
	// No new session just for a goodbye: the login page reads the query.
	return a.redirect(c, paths.LoggedOut)
}
