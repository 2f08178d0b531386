package handlers

import (
	"errors"
	"net/http"

	gsessions "github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/flash"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/layouts"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

const (
	sessionKey        = "session"
	gorillaSessionKey = "gorilla-session"
)

// loadSession attaches the visitor's session to the request, obtained
// through gorilla/sessions' Store interface (the server-side store
// implements it, as pgstore and redistore do); the handlers use the typed
// session behind it (sessions.FromGorilla). A broken, tampered or expired
// cookie simply gives an empty session; only an unreachable session store
// stops the request (503).
func (a *App) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	name := a.deps.Sessions.CookieName()
	return func(c echo.Context) error {
		acct, _, scoped := paths.Split(c.Request().URL.Path)
		if scoped {
			// A page of one account reads that account's tokens with the
			// session; any other is read from the store if needed.
			c.SetRequest(c.Request().WithContext(sessions.WithTokenScope(c.Request().Context(), acct+"/")))
		}
		a.readChecksWithSession(c, acct)
		gs, err := a.gstore.New(c.Request(), name)
		if err != nil {
			return errSessionStore(err)
		}
		sess, ok := sessions.FromGorilla(gs)
		if !ok {
			return errSessionStore(errors.New("the session store gave no typed session"))
		}
		c.Set(gorillaSessionKey, gs)
		c.Set(sessionKey, sess)
		return next(c)
	}
}

// session returns the request's session (set by loadSession).
func session(c echo.Context) *sessions.Session {
	s, _ := c.Get(sessionKey).(*sessions.Session)
	return s
}

// loggedIn reports whether a session holds a complete login.
func loggedIn(s *sessions.Session) bool {
	return s != nil && s.LoggedIn() && s.Data().SellerID > 0
}

// requireLogin sends visitors without a login to the login page and brings
// them back afterwards (for GET; a form post returns to its page). The
// current account, when the marketplace rejected its secret in any
// session, is ended without a call to the marketplace (credentialsRejected:
// that account alone leaves the session).
func (a *App) requireLogin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess := session(c)
		if loggedIn(sess) {
			revoked, err := a.credentialsRevoked(c)
			if err != nil {
				return errSessionStore(err)
			}
			if revoked {
				return a.credentialsRejected(c)
			}
			return next(c)
		}
		r := c.Request()
		target := r.URL.RequestURI()
		if r.Method != http.MethodGet {
			target = r.URL.Path
		}
		if !isHTMX(r) || r.Method == http.MethodGet {
			sess.SetReturnTo(target)
		}
		if !sess.IsNew() {
			sess.AddFlash(flash.Info, i18n.T(r.Context(), "flash.log_in_to_continue"))
		}
		return a.redirect(c, paths.Login)
	}
}

// saveSession persists the session if anything changed, through the
// gorilla Store interface it was obtained from (the store writes only what
// changed). It runs before any byte of
// the response is written, so cookies and errors still work.
func (a *App) saveSession(c echo.Context) error {
	gs, _ := c.Get(gorillaSessionKey).(*gsessions.Session)
	if gs == nil {
		return nil
	}
	if err := a.gstore.Save(c.Request(), c.Response(), gs); err != nil {
		return errSessionStore(err)
	}
	return nil
}

// chrome builds the page frame for the request, taking the session's flash
// messages (they are shown once).
func (a *App) chrome(c echo.Context, title, active string) layouts.Chrome {
	ch := layouts.Chrome{
		Title:     title,
		Active:    active,
		Demo:      a.deps.Demo,
		RequestID: requestIDOf(c.Request().Context()),
		Skipped:   a.noteSkipped(c),
		Assets:    a.assets,
	}
	sess := session(c)
	if sess == nil {
		return ch
	}
	if loggedIn(sess) {
		d := sess.Data()
		ch.User = &layouts.User{ClientID: d.ClientID, DisplayName: d.DisplayName, SellerID: d.SellerID, Environment: d.Environment}
		ch.Accounts = switchLinks(c, active)
		ch.Promotions = a.deps.API.PricesByCard() // the lamoda profile's
		// Where prices and stock are changed, say that "test" is live.
		ch.LiveInTest = d.Environment == "test" && !a.deps.API.SellerTestSeparate() &&
			(active == "prices" || active == "nomenclature" || active == "bulk")
	}
	for _, f := range sess.PopFlashes() {
		// A flash added where the language is not at hand is a message
		// kept as data (restoreDraft's): read it now.
		ch.Flashes = append(ch.Flashes, layouts.Flash{Kind: string(flash.Of(string(f.Kind))), Text: f.Text})
	}
	return ch
}

// localOr returns target when it is a path on this site, else fallback.
func localOr(target, fallback string) string {
	if sessions.IsLocalPath(target) {
		return target
	}
	return fallback
}

// at is path p of the account whose page c serves (paths.In), so that the
// links and redirects of an account's page keep naming that account.
func at(c echo.Context, p string) string { return paths.In(c.Request().Context(), p) }
