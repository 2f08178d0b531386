package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// The mass-update forms keep their unsent edits as a draft when the
// marketplace rejects the saved credentials mid-submit (the route's
// keepDraft), and only the edited rows.
func TestDraftKeptWhenCredentialsRejected(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/prices?limit=20")
	skus := form.Doc.Find("input[name=sku]").Map(func(_ int, s *goquery.Selection) string { v, _ := s.Attr("value"); return v })
	origs := form.Doc.Find("input[name=orig_price]").Map(func(_ int, s *goquery.Selection) string { v, _ := s.Attr("value"); return v })
	if len(skus) < 2 || len(origs) != len(skus) {
		t.Fatalf("prices form: %d skus, %d prices", len(skus), len(origs))
	}
	post := url.Values{}
	for i, sku := range skus[:2] {
		price := origs[i]
		if i == 0 {
			price = "12345.00" // the one edited row
		}
		for col, v := range map[string]string{"sku": sku, "orig_price": origs[i], "orig_sale": "", "orig_start": "", "orig_end": "",
			"price": price, "sale": "", "start": "", "end": ""} {
			post[col] = append(post[col], v)
		}
	}
	app.Sandbox.RevokeCredentials("demo-1001")
	app.Sandbox.Advance(16 * time.Minute) // the tokens expire too

	if d := draft(t, app, b, "prices"); d != nil {
		t.Fatalf("a draft before the submit: %v", d)
	}
	if p := b.Post("/prices?limit=20", post); p.Status != http.StatusSeeOther || p.Location != "/login" {
		t.Fatalf("prices with revoked credentials: %d to %q", p.Status, p.Location)
	}
	d := draft(t, app, b, "prices")
	if got := d["sku"]; len(got) != 1 || got[0] != skus[0] || d.Get("price") != "12345.00" {
		t.Errorf("prices draft %v; want the one edited row (%s at 12345.00)", d, skus[0])
	}
}

// draft reads the named form's draft from the browser's session.
func draft(t *testing.T, app *testapp.App, b *testapp.Browser, form string) url.Values {
	t.Helper()
	u, _ := url.Parse(app.URL)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range b.Client.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	sess, err := app.Store.Load(req)
	if err != nil {
		t.Fatal(err)
	}
	return sess.Draft(form)
}
