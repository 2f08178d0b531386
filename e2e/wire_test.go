package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// Journey 27: three letters of a product's name typed into the
// nomenclature's search update the results in place, and what crossed the
// network for that keystroke was the results alone, gzipped; screenshots
// at 1366 and 390 px.
func TestJourneyWireSearch(t *testing.T) {
	j := newJourney(t, 27, "wire-search", testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 40}, Catalog: true})

	// Every answer the tab receives, with the request's htmx target.
	type exchange struct {
		id       network.RequestID
		url      string
		target   string // HX-Target of the request
		status   int64
		encoding string // Content-Encoding of the answer
		wire     float64
		done     bool
	}
	var (
		mu        sync.Mutex
		exchanges = map[network.RequestID]*exchange{}
	)
	header := func(h network.Headers, name string) string {
		for k, v := range h {
			if strings.EqualFold(k, name) {
				return fmt.Sprint(v)
			}
		}
		return ""
	}
	if err := chromedp.Listen(j.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			exchanges[e.RequestID] = &exchange{id: e.RequestID, url: strings.TrimPrefix(e.Request.URL, j.app.URL), target: header(e.Request.Headers, "HX-Target")}
		case *network.EventResponseReceived:
			if x := exchanges[e.RequestID]; x != nil && e.Response != nil {
				x.status, x.encoding = e.Response.Status, header(e.Response.Headers, "Content-Encoding")
			}
		case *network.EventLoadingFinished:
			if x := exchanges[e.RequestID]; x != nil {
				x.wire, x.done = e.EncodedDataLength, true
			}
		}
	}); err != nil {
		t.Fatal(err)
	}

	j.loginDemo()
	copyComplete(j, 1)
	var target sandbox.Product
	for _, p := range j.app.Sandbox.Products(1001) {
		if strings.HasPrefix(p.Name, "Кроссовки") {
			target = p
			break
		}
	}
	if target.MarketplaceSKU == "" {
		t.Fatal("no Кроссовки among the fixtures")
	}
	typed := strings.ToLower(string([]rune(target.Name)[:3])) // "кро"

	j.open("/nomenclature")
	page := j.count("#nomenclature-table tbody tr")
	j.markPage()
	j.typeInto("copy-q", typed)
	j.until("the results of the search as typed", fmt.Sprintf(`location.search.includes("q=") && document.querySelector("#nomenclature-table") && document.querySelector("#nomenclature-table").textContent.includes(%q) && Array.from(document.querySelectorAll("#nomenclature-table tbody tr")).every(r => r.textContent.toLowerCase().includes(%q))`, target.MarketplaceSKU, typed))
	j.swappedInPlace("#copy-results")
	if eval[string](j, `document.activeElement && document.activeElement.id`) != "copy-q" {
		t.Error("the search box lost the focus while the results changed")
	}
	if got := eval[string](j, `document.getElementById("copy-q").value`); got != typed {
		t.Errorf("the search box holds %q, want %q", got, typed)
	}
	// The downloads of what was found follow the search (swapped in out of
	// band with the results).
	if href := eval[string](j, `(document.querySelector("[data-testid=copy-export] a")||{href:""}).href`); !strings.Contains(href, "q=") {
		t.Errorf("the download of what was found is %q, without the search", href)
	}
	found := j.count("#nomenclature-table tbody tr")
	if found == 0 || found >= page {
		t.Errorf("%d rows found of %d on the page: the search did not narrow the list", found, page)
	}

	// The keystroke's answer, as the network saw it.
	var search *exchange
	deadline := time.Now().Add(waitTimeout)
	for search == nil || !search.done {
		mu.Lock()
		search = nil
		for _, x := range exchanges {
			if x.target == "copy-results" && strings.Contains(x.url, "q=") && (search == nil || x.id > search.id) {
				c := *x
				search = &c
			}
		}
		mu.Unlock()
		if search != nil && search.done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no finished htmx request aimed at copy-results was seen (%v)", search)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if search.status != 200 || search.encoding != "gzip" {
		t.Errorf("the keystroke's answer: status %d, Content-Encoding %q; want 200, gzip", search.status, search.encoding)
	}
	body, err := chromedp.Call(j.ctx, network.GetResponseBody, network.GetResponseBodyParams{RequestID: search.id})
	if err != nil {
		t.Fatalf("the keystroke's answer body: %v", err)
	}
	if b := strings.TrimSpace(string(body.Body)); strings.Contains(b, "<html") || strings.Contains(b, `class="top"`) || !strings.HasPrefix(b, `<div id="copy-results"`) {
		t.Errorf("the keystroke was answered with more than the results (%d bytes, starting %q)", len(b), b[:min(len(b), 60)])
	}
	t.Logf("keystroke %s: %d rows, %.0f bytes on the wire (%d unpacked)", search.url, found, search.wire, len(body.Body))

	j.do("desktop width", chromedp.EmulateViewport(1366, 900))
	j.snapshot("search-1366", false)
	j.do("phone width", chromedp.EmulateViewport(390, 844))
	j.snapshot("search-390", false)
	j.do("desktop width", chromedp.EmulateViewport(1366, 900))
}
