// Package langpref is HTTP plumbing: the interface language a request
// asks for and the cookie that keeps a user's choice. The language is
// chosen, in order, by that cookie, the browser's Accept-Language, and
// otherwise Russian.
package langpref

import (
	"net/http"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/sellerdesk/sellerdesk/i18n"
)

const (
	// Cookie keeps the choice for a year, across logins.
	Cookie = "sd_lang"
	maxAge = 365 * 24 * time.Hour
	// maxAcceptLanguage bounds the header the matcher reads.
	maxAcceptLanguage = 512
)

var matcher = language.NewMatcher([]language.Tag{language.Russian, language.English})

// Of is the language r asks for: its cookie's, else its Accept-Language
// header's (Match).
func Of(r *http.Request) i18n.Lang {
	if c, err := r.Cookie(Cookie); err == nil {
		if l, ok := i18n.Parse(c.Value); ok {
			return l
		}
	}
	return Match(r.Header.Get("Accept-Language"))
}

// Match picks ru or en from an Accept-Language header; a missing,
// malformed or foreign header (neither language) gives Russian.
func Match(header string) i18n.Lang {
	header = strings.TrimSpace(header)
	if header == "" || len(header) > maxAcceptLanguage {
		return i18n.Default
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return i18n.Default
	}
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return i18n.Default
	}
	return []i18n.Lang{i18n.RU, i18n.EN}[idx]
}

// Keep sets the cookie keeping l for a year from now: HttpOnly, Lax, and
// Secure when r reached the dashboard over TLS (directly, or through a
// trusted proxy saying so: the dashboard drops X-Forwarded-Proto from
// anyone else).
func Keep(w http.ResponseWriter, r *http.Request, l i18n.Lang, now time.Time) {
	http.SetCookie(w, &http.Cookie{
		Name:     Cookie,
		Value:    string(l),
		Path:     "/",
		MaxAge:   int(maxAge / time.Second),
		Expires:  now.Add(maxAge),
		HttpOnly: true,
		Secure:   r.TLS != nil || strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https"),
		SameSite: http.SameSiteLaxMode,
	})
}
