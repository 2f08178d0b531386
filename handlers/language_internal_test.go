package handlers

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestMatchLanguage(t *testing.T) {
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
		if got := matchLanguage(c.header); got != c.want {
			t.Errorf("matchLanguage(%.40q) = %s, want %s", c.header, got, c.want)
		}
	}
}
