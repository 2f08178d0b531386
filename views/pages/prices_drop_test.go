package pages

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// The prices form carries the marketplace's drop limit and the warning
// app.js shows beside a doomed price, in the reader's language, with the
// {pct} slot the script fills (issue 17 item 7).
func TestPricesFormCarriesDropWarning(t *testing.T) {
	v := PricesView{DropLimit: 90, Action: "/prices", Rows: []PriceRow{{SKU: "A", OrigPrice: "100.00", Price: "100.00"}}}
	for _, c := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.EN, "−{pct} %: the marketplace refuses drops of more than 90 % below the current price."},
		{i18n.RU, "−{pct} %: маркетплейс отклоняет снижение цены более чем на 90 % от текущей."},
	} {
		var b strings.Builder
		if err := PricesForm(v).Render(i18n.WithLang(context.Background(), c.lang), &b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, `data-drop-limit="90"`) {
			t.Errorf("%v: the form has no data-drop-limit=\"90\"", c.lang)
		}
		m := regexp.MustCompile(`data-drop-warning="([^"]*)"`).FindStringSubmatch(out)
		if m == nil || html.UnescapeString(m[1]) != c.want {
			t.Errorf("%v: data-drop-warning %q, want %q", c.lang, m, c.want)
		}
	}
}
