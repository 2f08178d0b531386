package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/layouts"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// The interface language is chosen, in order, by the preference
// cookie the header's switch sets, the browser's Accept-Language on a first
// visit, and otherwise Russian. The switch also keeps the choice in a
// logged-in session (Values["lang"]).
const (
	// LanguageCookie keeps the choice for a year, across logins.
	LanguageCookie = "sd_lang"
	languageMaxAge = 365 * 24 * time.Hour
	// languageSessionKey is where a logged-in session keeps the choice.
	languageSessionKey = "lang"
	// maxAcceptLanguage bounds the header the matcher reads.
	maxAcceptLanguage = 512
)

var languageMatcher = language.NewMatcher([]language.Tag{language.Russian, language.English})

// matchLanguage picks ru or en from an Accept-Language header; a missing,
// malformed or foreign header (neither language) gives Russian.
func matchLanguage(header string) i18n.Lang {
	header = strings.TrimSpace(header)
	if header == "" || len(header) > maxAcceptLanguage {
		return i18n.Default
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return i18n.Default
	}
	_, idx, conf := languageMatcher.Match(tags...)
	if conf == language.No {
		return i18n.Default
	}
	return []i18n.Lang{i18n.RU, i18n.EN}[idx]
}

// cookieLanguage is the language of the preference cookie, if it names one.
func cookieLanguage(r *http.Request) (i18n.Lang, bool) {
	c, err := r.Cookie(LanguageCookie)
	if err != nil {
		return "", false
	}
	return i18n.Parse(c.Value)
}

// locale puts the request's language, the zone its times are shown in and
// the path the language switch returns to into its context, for every
// answer (pages, errors, 404s).
func (a *App) locale(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		l, ok := cookieLanguage(r)
		if !ok {
			l = matchLanguage(r.Header.Get("Accept-Language"))
		}
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
// lang=ru|en in a long-lived cookie and the session, and goes back (303)
// to the local path in back, else to the overview. Like every form post it
// is behind the router's cross-origin protection.
func (a *App) SetLanguage(c echo.Context) error {
	r := c.Request()
	l, ok := i18n.Parse(postValue(c, "lang"))
	if !ok {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(r.Context(), "language.unknown"))
	}
	http.SetCookie(c.Response(), &http.Cookie{
		Name:     LanguageCookie,
		Value:    string(l),
		Path:     "/",
		MaxAge:   int(languageMaxAge / time.Second),
		Expires:  a.deps.Now().Add(languageMaxAge),
		HttpOnly: true,
		Secure:   servedOverTLS(r),
		SameSite: http.SameSiteLaxMode,
	})
	if sess := session(c); loggedIn(sess) {
		d := sess.Data()
		if d.Values == nil {
			d.Values = map[string]string{}
		}
		d.Values[languageSessionKey] = string(l)
	}
	return a.redirect(c, localOr(postValue(c, "back"), paths.Overview))
}

// servedOverTLS reports whether the request reached the dashboard over TLS,
// as the session cookie's Secure flag does: directly, or through a trusted
// proxy (protect drops X-Forwarded-Proto from anyone else).
func servedOverTLS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}

// registerLanguage adds the locale middleware and the language switch's
// route.
func (a *App) registerLanguage(e *echo.Echo, pages *echo.Group) {
	e.Use(a.locale) // Echo-level: also for 404s and errors outside pages
	pages.POST(paths.Language, a.SetLanguage)
}
