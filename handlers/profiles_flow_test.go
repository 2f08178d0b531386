package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// wireProfiles are the profiles every flow below runs in (issue 15), with
// what differs between them.
var wireProfiles = []struct {
	profile apiclient.Profile
	// byCard: the prices page has one row per product card.
	byCard bool
	// filtered: stock and status are written by filter (update-stock,
	// update-activation, each behind a dry run) rather than by store.
	filtered bool
}{
	{apiclient.ProfileContract, false, false},
	{apiclient.ProfileLamoda, true, true},
}

// TestProfileFlows runs the dashboard's flows against the sandbox in each
// wire profile: login, every page, price updates with mixed item results,
// stock updates (or their refusal), resend, token expiry and revocation.
func TestProfileFlows(t *testing.T) {
	t.Parallel()
	for _, wp := range wireProfiles {
		t.Run(string(wp.profile), func(t *testing.T) {
			app := testapp.New(t, testapp.Options{Profile: wp.profile, GuardPercent: -1}) // the marketplace's refusals are the subject: the dashboard's own price guard is off

			t.Run("login", func(t *testing.T) {
				b := app.Browser(t)
				p := b.Post("/login", url.Values{"client_id": {"demo-1001"}, "client_secret": {"nope"}, "seller_id": {"1001"}, "environment": {"test"}})
				if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#login-error"), "rejected these credentials") {
					t.Errorf("wrong secret: %d %q", p.Status, p.Text("#login-error"))
				}
				if p := b.LoginDemo(); p.Status != http.StatusOK || !p.Has("[data-testid=counts-orders]") {
					t.Fatalf("overview after login: %d", p.Status)
				}
			})

			b := app.Browser(t)
			b.LoginDemo()
			nr := app.Sandbox.OrderNumbers(1001, "")[0]
			t.Run("every page", func(t *testing.T) {
				for path, sel := range map[string]string{
					"/":                         "[data-testid=counts-orders]",
					"/orders":                   "#orders-table tbody tr",
					"/orders?status=delivered":  "#orders-table tbody tr",
					"/orders/" + nr:             "#order-items tbody tr",
					"/return-boxes":             "#boxes-table tbody tr",
					"/return-boxes?status=open": "h1",
					"/prices":                   "#prices-form",
					"/nomenclature":             "#nomenclature-table tbody tr",
				} {
					p := b.Get(path)
					if p.Status != http.StatusOK || !p.Has(sel) {
						t.Errorf("%s: status %d, %s present %t", path, p.Status, sel, p.Has(sel))
					}
				}
			})

			t.Run("resend", func(t *testing.T) {
				b.HTMX = true
				defer func() { b.HTMX = false }()
				p := b.Post("/orders/resend", url.Values{"form_id": {"resend-" + nr}, "orderNr": {nr}, "return": {"/orders/" + nr}})
				if p.Status != http.StatusOK || !strings.Contains(p.Text("[data-testid=resend-status]"), "Queued") {
					t.Errorf("resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
				}
			})

			t.Run("prices with mixed results", func(t *testing.T) {
				page := b.Get("/prices?limit=100")
				form := page.FormValues("#prices-form")
				if got := page.Has("[data-testid=by-card]"); got != wp.byCard {
					t.Errorf("per-card page %t, want %t", got, wp.byCard)
				}
				// The form's keys are cards in the lamoda profile, SKUs in
				// the contract's; the first is raised, the second cut by
				// 95 % (refused by the marketplace's price rules).
				prods := app.Sandbox.Products(1001)
				priceOf := map[string]int64{}
				for _, p := range prods {
					priceOf[p.MarketplaceSKU] = p.Price
					if wp.byCard {
						if _, ok := priceOf[p.ParentSKU]; !ok {
							priceOf[p.ParentSKU] = p.Price
						}
					}
				}
				keys := form["sku"]
				up, down := keys[0], keys[1]
				form["price"][0], form["sale"][0] = moneyIn(priceOf[up]+5000), ""
				form["price"][1], form["sale"][1] = moneyIn(priceOf[down]/20), ""
				res := b.Post("/prices?limit=100", form)
				if res.Status != http.StatusUnprocessableEntity {
					t.Fatalf("status %d, want 422", res.Status)
				}
				if got := res.Text("[data-testid=summary]"); !strings.Contains(got, "1 updated, 1 rejected") {
					t.Errorf("summary %q", got)
				}
				row := func(k string) string {
					if wp.byCard {
						return "[data-testid=card-" + k + "]"
					}
					return "[data-testid=price-" + k + "]"
				}
				if cls := res.Doc.Find(row(up)).AttrOr("class", ""); !strings.Contains(cls, "accepted") {
					t.Errorf("raised row %s: class %q", up, cls)
				}
				if cls := res.Doc.Find(row(down)).AttrOr("class", ""); !strings.Contains(cls, "rejected") || res.Text(row(down)+" .row-msg") == "" {
					t.Errorf("cut row %s: class %q, message %q", down, cls, res.Text(row(down)+" .row-msg"))
				}
			})

			t.Run("stock and status", func(t *testing.T) {
				page := b.Get("/nomenclature?limit=20")
				form := page.FormValues("#nomenclature-form")
				before := app.Sandbox.Counters().Requests[sandbox.RouteRPCStore]
				for i := 0; i < 2; i++ {
					q, _ := strconv.Atoi(form["orig_qty"][i])
					form["qty"][i] = strconv.Itoa(q + 3)
				}
				form["bc"][2], form["qty"][2] = "0000000000000", "7"
				res := b.Post("/nomenclature?limit=20", form)
				if res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Text("[data-testid=summary]"), "2 updated, 1 rejected") {
					t.Errorf("mixed stock update: %d %q", res.Status, res.Text("[data-testid=summary]"))
				}
				if wp.filtered && app.Sandbox.Counters().Requests[sandbox.RouteRPCStore] != before {
					t.Error("the lamoda profile called store")
				}
			})

			if wp.filtered {
				t.Run("three quantities and a status, by filter", func(t *testing.T) {
					page := b.Get("/nomenclature?limit=20")
					form := page.FormValues("#nomenclature-form")
					app.Sandbox.ResetCounters()
					form["qty"][4], form["qty"][5], form["qty"][6] = "21", "21", "34"
					status := -1
					for i := 7; i < len(form["orig_status"]); i++ {
						if form["orig_status"][i] == "online" {
							status, form["status"][i] = i, "disabled"
							break
						}
					}
					if status < 0 {
						t.Fatal("no online record on the page")
					}
					res := b.Post("/nomenclature?limit=20", form)
					if res.Status != http.StatusSeeOther || !strings.Contains(b.Follow(res).Text("#flash-area"), "4") {
						t.Fatalf("submit: %d %q", res.Status, res.Text("[data-testid=summary]"))
					}
					c := app.Sandbox.Counters()
					if c.Requests[sandbox.RouteRPCUpdateStock] != 2 || c.Requests[sandbox.RouteRPCUpdateActivation] != 1 || c.Written[sandbox.WrittenStock] != 3 {
						t.Errorf("calls %v, written %v; want 2 update-stock (two quantities), 1 update-activation", c.Requests, c.Written)
					}
					h := b.Get("/history")
					if e := h.Doc.Find("#history-table tbody tr").First(); e.AttrOr("data-kind", "") != "stock" || !strings.Contains(e.Text(), "21") || !strings.Contains(e.Text(), "34") {
						t.Errorf("history: %q", h.Text("#history-table"))
					}
				})
			}

			t.Run("token expiry", func(t *testing.T) {
				before := app.Sandbox.Counters().TokensIssued
				app.Sandbox.Advance(16 * time.Minute)
				for _, path := range []string{"/orders", "/prices", "/return-boxes"} {
					if p := b.Get(path); p.Status != http.StatusOK {
						t.Errorf("%s after expiry: %d", path, p.Status)
					}
				}
				after := app.Sandbox.Counters().TokensIssued
				if after["b2b/test"]-before["b2b/test"] != 1 || after["seller"]-before["seller"] != 1 {
					t.Errorf("tokens issued after expiry: b2b %d, seller %d; want one each",
						after["b2b/test"]-before["b2b/test"], after["seller"]-before["seller"])
				}
			})

			t.Run("revocation", func(t *testing.T) {
				app.Sandbox.RevokeCredentials("demo-1001")
				app.Sandbox.Advance(16 * time.Minute)
				p := b.Get("/prices")
				if p.Status != http.StatusSeeOther || p.Location != "/login" {
					t.Fatalf("revoked: %d to %q, want 303 to /login", p.Status, p.Location)
				}
				if got := b.Follow(p).Text("#flash-area"); !strings.Contains(got, "no longer accepts") {
					t.Errorf("login page says %q", got)
				}
			})
		})
	}
}

// TestProfileBulkPriceImport: a price file imports in each profile: a row
// per size, sent (per SKU, or once per card) and applied.
func TestProfileBulkPriceImport(t *testing.T) {
	t.Parallel()
	for _, wp := range wireProfiles {
		t.Run(string(wp.profile), func(t *testing.T) {
			e := newBulkEnv(t, sandbox.Options{Profile: string(wp.profile)}, 25, bulkjobs.RunnerOptions{})
			b := e.browser()
			// The first size of three cards (in the contract profile, three
			// products).
			var prods []sandbox.Product
			for _, c := range cardsOf(e.sb, 1001)[:3] {
				prods = append(prods, c.sizes[0])
			}
			var csv strings.Builder
			csv.WriteString("Marketplace SKU;Price\n")
			want := map[string]int64{}
			for _, p := range prods {
				want[p.MarketplaceSKU] = p.Price * 11 / 10
				fmt.Fprintf(&csv, "%s;%s\n", p.MarketplaceSKU, moneyIn(p.Price*11/10))
			}
			id := jobIDOf(t, upload(t, e, b, "prices.csv", []byte(csv.String()), "prices"))
			if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
				t.Fatalf("submit: %d", p.Status)
			}
			j := waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return j.State == bulkjobs.StateDone })
			if j.Counts.Rejected != 0 || j.Counts.Accepted == 0 {
				t.Errorf("counts %+v", j.Counts)
			}
			got := map[string]int64{}
			for _, p := range e.sb.Products(1001) {
				got[p.MarketplaceSKU] = p.Price
			}
			if j.Counts.Accepted != 3 {
				t.Errorf("%d rows accepted, want 3", j.Counts.Accepted)
			}
			for _, p := range prods {
				if got[p.MarketplaceSKU] != want[p.MarketplaceSKU] {
					t.Errorf("%s: price %d, want %d", p.MarketplaceSKU, got[p.MarketplaceSKU], want[p.MarketplaceSKU])
				}
			}
			if wp.byCard {
				// Every size of a card sent has the card's new price.
				sent := map[string]int64{}
				for _, p := range prods {
					sent[p.ParentSKU] = want[p.MarketplaceSKU]
				}
				for _, p := range e.sb.Products(1001) {
					if price, ok := sent[p.ParentSKU]; ok && got[p.MarketplaceSKU] != price {
						t.Errorf("size %s of card %s: %d, want the card's %d", p.MarketplaceSKU, p.ParentSKU, got[p.MarketplaceSKU], price)
					}
				}
			}
		})
	}
}
