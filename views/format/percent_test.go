package format

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestPercentIn(t *testing.T) {
	for _, c := range []struct {
		l    i18n.Lang
		n    int64
		want string
	}{
		{i18n.RU, -885, "−88,5\u00a0%"}, {i18n.EN, -885, "−88.5\u00a0%"}, {i18n.RU, 600, "+60,0\u00a0%"}, {i18n.RU, -999, "−99,9\u00a0%"}, {i18n.EN, 0, "+0.0\u00a0%"},
	} {
		if got := PercentIn(c.l, c.n); got != c.want {
			t.Errorf("PercentIn(%s, %d) = %q, want %q", c.l, c.n, got, c.want)
		}
	}
}
