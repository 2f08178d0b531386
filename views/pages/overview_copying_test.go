package pages

import (
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/layouts"
)

// TestOverviewWhileTheFirstCopyRuns: a new account's overview, its first
// copy still running, says a list with nothing copied yet is being copied
// instead of showing 0; a count the copy already holds is shown; once a
// copy exists, zeros are zeros.
func TestOverviewWhileTheFirstCopyRuns(t *testing.T) {
	render := func(o Overview) *goquery.Document {
		t.Helper()
		var b strings.Builder
		actions := []NeedsAction{{Label: "Новые заказы", Href: "/orders", Count: 0}, {Label: "Отклонены", Href: "/nomenclature", Count: 2}}
		if err := OverviewPage(layouts.Chrome{}, o, &SyncView{Running: true}, actions).Render(i18n.WithLang(context.Background(), i18n.RU), &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	o := Overview{Copying: true, Nomenclature: []Count{{Status: "online", Count: 5}}, NomenclatureTotal: 5}
	doc := render(o)
	needs := doc.Find("[data-testid=needs-action] li")
	if got := needs.Eq(0).Text(); strings.Contains(got, "0") || !strings.Contains(got, "копируется") {
		t.Errorf("a count of nothing yet reads %q, want «копируется…»", got)
	}
	if got := needs.Eq(1).Find("strong").Text(); got != "2" {
		t.Errorf("a count the copy holds reads %q", got)
	}
	for _, id := range []string{"orders", "boxes"} {
		card := doc.Find("[data-testid=counts-" + id + "]")
		if card.Find("[data-testid=copying]").Length() != 1 || strings.Contains(card.Find("h2").Text(), "0") {
			t.Errorf("%s card while copying: %q", id, card.Text())
		}
	}
	if got := doc.Find("[data-testid=counts-nomenclature] h2 .muted").Text(); got != "5" {
		t.Errorf("nomenclature total %q, want 5", got)
	}

	o.Copying = false
	doc = render(o)
	if doc.Find("[data-testid=copying]").Length() != 0 || doc.Find("[data-testid=needs-action] li").Eq(0).Find("strong").Text() != "0" {
		t.Error("with a copy made, a zero should read 0")
	}
}
