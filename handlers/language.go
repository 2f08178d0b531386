package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/langpref"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/layouts"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// LanguageCookie keeps the interface language the header's switch chose
// (langpref: that cookie, else the browser's Accept-Language, else
// Russian).
const LanguageCookie = langpref.Cookie

// languageSessionKey is where a logged-in session keeps the choice too.
const languageSessionKey = "lang"

// locale puts the request's language, the zone its times are shown in and
// the path the language switch returns to into its context, for every
// answer (pages, errors, 404s).
func (a *App) locale(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		l := langpref.Of(r)
		// A GET answered with a whole page, or a list's live search (whose
		// URL the browser then shows), comes back with its query; another
		// fragment's request is not a page.
		back := r.URL.Path
		if r.Method == http.MethodGet && (!wantsFragment(r) || wantsResults(r)) {
			back = r.URL.RequestURI()
		}
		if len(back) > 2048 {
			back = r.URL.Path
		}
		ctx := format.WithZone(i18n.WithLang(r.Context(), l), a.deps.Zone)
		ctx = layouts.WithReturnPath(ctx, localOr(back, paths.Overview))
		c.Response().Header().Set("Content-Language", string(l))
		c.SetRequest(r.WithContext(ctx))
		return next(c)
	}
}

// SetLanguage is POST /settings/language: the header's switch. It keeps
// lang=ru|en in a long-lived cookie (langpref.Keep) and the session, and
// goes back (303) to the local path in back, else to the overview. Like
// every form post it is behind the router's cross-origin protection.
func (a *App) SetLanguage(c echo.Context) error {
	r := c.Request()
	l, ok := i18n.Parse(postValue(c, "lang"))
	if !ok {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(r.Context(), "language.unknown"))
	}
	langpref.Keep(c.Response(), r, l, a.deps.Now())
	if sess := session(c); loggedIn(sess) {
		d := sess.Data()
		if d.Values == nil {
			d.Values = map[string]string{}
		}
		d.Values[languageSessionKey] = string(l)
	}
	return a.redirect(c, localOr(postValue(c, "back"), paths.Overview))
}

// registerLanguage adds the locale middleware and the language switch's
// route.
func (a *App) registerLanguage(e *echo.Echo, pages *echo.Group) {
	e.Use(a.locale) // Echo-level: also for 404s and errors outside pages
	pages.POST(paths.Language, a.SetLanguage)
}
