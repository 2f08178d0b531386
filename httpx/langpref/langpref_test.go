package langpref

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		header string
		want   i18n.Lang
	}{
		{"", i18n.RU},                            // first visit without a header: the users read Russian
		{"de-DE,de;q=0.9", i18n.RU},              // neither language
		{"ru-RU,ru;q=0.9,en;q=0.8", i18n.RU},     // Russian first
		{"en-US,en;q=0.9", i18n.EN},              // English
		{"en-GB", i18n.EN},                       // a regional English
		{"de-DE,en;q=0.5", i18n.EN},              // English as a fallback
		{"fr;q=0.9,ru;q=0.8,en;q=0.7", i18n.RU},  // the preferred one of ours
		{"kk-KZ,ru;q=0.8", i18n.RU},              // Kazakhstan: Russian second
		{"en;q=garbage", i18n.RU},                // malformed
		{strings.Repeat("en-US,", 200), i18n.RU}, // too long to read
	}
	for _, c := range cases {
		if got := Match(c.header); got != c.want {
			t.Errorf("Match(%.40q) = %s, want %s", c.header, got, c.want)
		}
	}
}

// TestOf: the cookie's language wins over the header; a cookie naming no
// language of ours is ignored.
func TestOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cookie, header string
		want           i18n.Lang
	}{
		{"en", "ru-RU", i18n.EN},
		{"ru", "en-US", i18n.RU},
		{"de", "en-US", i18n.EN},
		{"", "", i18n.RU},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Language", c.header)
		if c.cookie != "" {
			r.AddCookie(&http.Cookie{Name: Cookie, Value: c.cookie})
		}
		if got := Of(r); got != c.want {
			t.Errorf("cookie %q, header %q: %s, want %s", c.cookie, c.header, got, c.want)
		}
	}
}

// TestKeep: the cookie lasts a year, is HttpOnly and Lax, and Secure only
// over TLS (direct, or as a trusted proxy says).
func TestKeep(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	plain := httptest.NewRequest(http.MethodPost, "/", nil)
	direct := httptest.NewRequest(http.MethodPost, "/", nil)
	direct.TLS = &tls.ConnectionState{}
	proxied := httptest.NewRequest(http.MethodPost, "/", nil)
	proxied.Header.Set("X-Forwarded-Proto", "HTTPS")
	for r, secure := range map[*http.Request]bool{plain: false, direct: true, proxied: true} {
		w := httptest.NewRecorder()
		Keep(w, r, i18n.EN, now)
		cs := w.Result().Cookies()
		if len(cs) != 1 {
			t.Fatalf("%d cookies", len(cs))
		}
		c := cs[0]
		if c.Name != Cookie || c.Value != "en" || c.MaxAge != 365*24*3600 || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != secure {
			t.Errorf("cookie %+v, want %s=en for a year, HttpOnly, Lax, Secure %v", c, Cookie, secure)
		}
	}
}
