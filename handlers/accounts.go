package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/accounts"
	"github.com/sellerdesk/sellerdesk/httpx/status"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/layouts"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// The accounts of a session: every page and form of an account lives under
// a path naming it (paths.AccountPrefix), so a form acts only on the account
// it was rendered for, whichever account another tab switched to since.

// errAccountNotInSession refuses a request naming an account the session
// does not hold: nothing is read or sent.
var errAccountNotInSession = echo.NewHTTPError(http.StatusForbidden, "this account is not in the session").
	SetInternal(errors.New("account not in session"))

// accountRefusal is v describing errAccountNotInSession in the reader's
// language.
func accountRefusal(ctx context.Context, v pages.ErrorView) pages.ErrorView {
	v.Status, v.Title, v.Message = http.StatusForbidden, status.Title(ctx, http.StatusForbidden), i18n.T(ctx, "accounts.not_in_session")
	v.LinkHref, v.LinkText = paths.Accounts, i18n.T(ctx, "chrome.manage_accounts")
	return v
}

// requireAccount makes the account the path names the request's account:
// the session acts on it and the page's links name it. It becomes
// current (the account the paths without one lead to) only on a
// same-origin request (sameOrigin): a link from another site opens the
// account's page without changing where the old paths lead. A path naming
// an account the session does not hold is refused (403) before any
// handler runs. Without a login it lets requireLogin send the visitor to
// log in.
func (a *App) requireAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("account")
		switchTo := (*sessions.Data).ActAs
		if sameOrigin(c.Request()) {
			switchTo = (*sessions.Data).SwitchAccount
		}
		if sess := session(c); loggedIn(sess) && !switchTo(sess.Data(), id) {
			a.logger(c.Request().Context()).Warn("request for an account not in the session refused", "method", c.Request().Method)
			return errAccountNotInSession
		}
		r := c.Request()
		c.SetRequest(r.WithContext(paths.WithAccount(r.Context(), id)))
		return next(c)
	}
}

// sameOrigin reports whether r comes from the dashboard's own pages: the
// browser says so (Sec-Fetch-Site: same-origin), or says nothing (a
// client that sends no fetch metadata, which http.CrossOriginProtection
// lets through alike). A link or redirect from another site, or an
// address typed or bookmarked ("none"), is not.
func sameOrigin(r *http.Request) bool {
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "" || site == "same-origin"
}

// accountRedirect answers a path without an account: it leads to the same
// path of the session's current account, so old links keep working. A form
// posted there is not acted on (it names no account): the browser is sent
// to the page instead.
func (a *App) accountRedirect(c echo.Context) error {
	r := c.Request()
	to := paths.Of(session(c).Data().Current().ID(), r.URL.Path)
	if r.Method == http.MethodGet && r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery
	}
	if !sessions.IsLocalPath(to) {
		return echo.ErrNotFound
	}
	if r.Method == http.MethodGet {
		return c.Redirect(http.StatusFound, to)
	}
	return a.redirect(c, to)
}

// accountLabel is how the header and the accounts page name an account.
func accountLabel(c echo.Context, acct sessions.Account) string {
	name := acct.DisplayName
	if name == "" {
		name = acct.ClientID
	}
	return name + " · " + sellerLabel(c.Request().Context(), strconv.FormatInt(acct.SellerID, 10))
}

// sellerLabels keeps "seller {{.ID}}" per language with a mark in the
// ID's place: the header names every account of the session on every
// page, and a message with data runs its template each time.
var sellerLabels sync.Map // i18n.Lang -> string

// sellerLabel is the message chrome.seller for the seller id.
func sellerLabel(ctx context.Context, id string) string {
	l := i18n.LangOf(ctx)
	p, ok := sellerLabels.Load(l)
	if !ok {
		p, _ = sellerLabels.LoadOrStore(l, i18n.TD(ctx, "chrome.seller", map[string]any{"ID": "\x00"}))
	}
	return strings.Replace(p.(string), "\x00", id, 1)
}

// switchLinks lists the session's accounts for the header's switcher, each
// linking to the screen on show: a list keeps its filters, a page of one
// item (an order, a job) leads to its list, which the other account has.
func switchLinks(c echo.Context, active string) []layouts.AccountLink {
	d := session(c).Data()
	list := d.AccountList()
	if len(list) == 0 {
		return nil
	}
	screen := paths.Overview
	for _, item := range layouts.Nav {
		if item.Key == active {
			screen = item.Href
		}
	}
	r := c.Request()
	if _, rest, ok := paths.Split(r.URL.Path); ok && rest == screen && r.URL.RawQuery != "" {
		screen += "?" + r.URL.RawQuery
	}
	current := d.Current().ID()
	out := make([]layouts.AccountLink, 0, len(list))
	for _, acct := range list {
		out = append(out, layouts.AccountLink{Label: accountLabel(c, acct), Environment: acct.Environment,
			Href: paths.Of(acct.ID(), screen), Current: acct.ID() == current})
	}
	return out
}

// AccountsPage lists the session's accounts and offers the form adding one.
func (a *App) AccountsPage(c echo.Context) error {
	f := pages.LoginForm{Environment: "production"}
	if again := session(c).Data().AddAgain; again != nil {
		// The account the marketplace refused, to be added again with
		// its new secret.
		f.ClientID, f.Environment, f.DisplayName = again.ClientID, again.Environment, again.DisplayName
		f.SellerID = strconv.FormatInt(again.SellerID, 10)
	}
	return a.renderAccounts(c, http.StatusOK, f)
}

func (a *App) renderAccounts(c echo.Context, status int, f pages.LoginForm) error {
	f.Adding, f.Demo = true, a.deps.DemoCredentials
	d := session(c).Data()
	for _, acct := range d.AccountList() {
		f.Accounts = append(f.Accounts, pages.AccountRow{Label: accountLabel(c, acct), Environment: acct.Environment,
			Href: paths.Of(acct.ID(), paths.Overview), RemoveURL: paths.AccountRemove(acct.ID()), Current: acct.ID() == d.Current().ID()})
	}
	ch := a.chrome(c, i18n.T(c.Request().Context(), "accounts.title"), "")
	ch.Version = a.deps.Version
	return a.render(c, status, pages.LoginPage(ch, f), nil)
}

// AccountAdd checks another account's credentials as a login does and adds
// it to the session, with its own tokens; it becomes current. A duplicate
// and a further account beyond sessions.MaxAccounts are refused before the
// marketplace is asked.
func (a *App) AccountAdd(c echo.Context) error {
	in := bindLogin(c)
	f := in.form
	ctx := c.Request().Context()
	if len(f.Errors) > 0 {
		f.FormError = i18n.T(ctx, "auth.check_fields")
		return a.renderAccounts(c, http.StatusUnprocessableEntity, f)
	}
	acct := in.account
	d := session(c).Data()
	if why := accounts.Addable(d, acct); why != nil {
		f.FormError = format.Message(ctx, why)
		return a.renderAccounts(c, http.StatusConflict, f)
	}
	login, status := a.verifyCredentials(c, in, &f)
	if status != 0 {
		return a.renderAccounts(c, status, f)
	}
	if err := d.AddAccount(acct); err != nil { // checked above; kept for safety
		f.FormError = i18n.T(ctx, "accounts.duplicate")
		return a.renderAccounts(c, http.StatusConflict, f)
	}
	sess := session(c)
	login.Keep(sess)
	a.logger(ctx).Info("account added", "client_id", acct.ClientID, "seller_id", acct.SellerID, "environment", acct.Environment)
	a.catalogLogin(c)
	sess.AddFlash("ok", i18n.TD(ctx, "accounts.added", map[string]any{"Account": accountLabel(c, acct)}))
	to := paths.Of(acct.ID(), paths.Overview)
	if d.AddedAgain(acct.ID()) {
		// Back to the page the refusal interrupted, which names this
		// account again.
		to = sess.PopReturnTo(to)
	}
	return a.redirect(c, to)
}

// AccountRemove drops an account's credentials and tokens from the session
// at once; a job of it stops at its next chunk (accounts.Service.Job).
// Removing the last account logs out.
func (a *App) AccountRemove(c echo.Context) error {
	sess := session(c)
	d := sess.Data()
	id := c.Param("account")
	acct, ok := d.Account(id)
	if !ok {
		return errAccountNotInSession
	}
	d.RemoveAccount(id)
	if err := a.wipeAccountTokens(c, id); err != nil {
		return err
	}
	a.logger(c.Request().Context()).Info("account removed", "client_id", acct.ClientID, "seller_id", acct.SellerID, "environment", acct.Environment)
	if !loggedIn(sess) {
		sess.Destroy()
		return a.redirect(c, paths.LoggedOut)
	}
	sess.AddFlash("ok", i18n.TD(c.Request().Context(), "accounts.removed", map[string]any{"Account": accountLabel(c, acct)}))
	return a.redirect(c, paths.Accounts)
}

// wipeAccountTokens overwrites the stored tokens of account id empty:
// nothing of an account dropped from the session stays usable in it.
func (a *App) wipeAccountTokens(c echo.Context, id string) error {
	if err := a.deps.Accounts.ForgetTokens(c.Request().Context(), session(c).ID(), id); err != nil {
		return errSessionStore(err)
	}
	return nil
}
