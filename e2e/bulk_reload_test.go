package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 29: a job ends while its page polls, on a server slower to send
// the page than the poll's interval (a busy machine, a large grid). The
// page reloads once to show the results and arrives. Every page the tab
// loads takes three seconds here, the polls none: a poll answered while the
// reload is under way must not start it again, which would cancel the
// one in flight and keep the page from ever arriving.
func TestJourneyJobEndsOnASlowServer(t *testing.T) {
	m, err := demo.Start(sandbox.New(sandbox.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	j := newJourney(t, 29, "job-ends-slow-server", testapp.Options{Market: m})
	app, _, api := bulkDashboard(t, m, 25)
	j.app = app
	j.loginDemo()

	// Thirty +10 % rows: two batches of 25 and 5.
	acct := api.Account(apiclient.Credentials{ClientID: "demo-1001", ClientSecret: "sandbox-secret-1001", Environment: apiclient.Test}, nil)
	var csv strings.Builder
	csv.WriteString("Marketplace SKU;Price\n")
	seen := map[string]bool{}
	for n, err := range acct.Seller.AllNomenclatures(context.Background(), &apiclient.ListNomenclaturesRequest{SellerID: 1001, Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 30 {
			break
		}
		if !seen[n.MarketplaceSKU] {
			seen[n.MarketplaceSKU] = true
			p := n.Price * 11 / 10
			fmt.Fprintf(&csv, "%s;%d,%02d\n", n.MarketplaceSKU, p/100, p%100)
		}
	}
	file := filepath.Join(t.TempDir(), "prices.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	j.open("/bulk/import")
	j.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	j.markPage()
	j.press("#import-submit")
	j.untilNewPage("the preview", `document.querySelector("#job-submit-form")`)

	// The second batch waits until the page polls.
	release := m.Sandbox.HoldAfter(sandbox.RouteRPCSetPrices, 1)
	defer release()
	j.markPage()
	j.press("#job-submit")
	j.untilNewPage("the progress block", `document.querySelector("#job-progress[hx-trigger]")`)
	jobPath := accountless(j.location())

	// From here every page the tab loads is held for three seconds before
	// it is sent; the polls are not.
	const held = 3 * time.Second
	var (
		mu      sync.Mutex
		reloads int
		pending sync.WaitGroup
	)
	if err := chromedp.Listen(j.ctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		if strings.HasSuffix(strings.SplitN(e.Request.URL, "?", 2)[0], jobPath) {
			mu.Lock()
			reloads++
			mu.Unlock()
		}
		pending.Add(1)
		go func() {
			defer pending.Done()
			time.Sleep(held)
			// A navigation cancelled meanwhile has no request to go on with.
			_, _ = chromedp.Call(j.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
		}()
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(j.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", ResourceType: network.ResourceTypeDocument}}}); err != nil {
		t.Fatalf("hold the pages: %v", err)
	}
	t.Cleanup(pending.Wait)
	j.markPage()
	release()
	j.untilNewPage("the results (one reload)", `document.querySelector("[data-testid=job-state]") && !document.querySelector("#job-progress[hx-trigger]") &&
		document.querySelector("#job-grid [data-testid=result]")`)
	if _, err := chromedp.Call(j.ctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatalf("stop holding the pages: %v", err)
	}
	mu.Lock()
	n := reloads
	mu.Unlock()
	if n != 1 {
		t.Errorf("the job's page was asked for %d times after the job ended, want once", n)
	}
	if got := j.text("[data-testid=progress-accepted]"); got != "30" {
		t.Errorf("accepted %q, want 30", got)
	}
	j.finish()
}
