package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// rawAmount is a marketplace amount as sent: 25499.00, no grouping.
var rawAmount = regexp.MustCompile(`\b\d{4,}\.\d\d\b`)

// labelled matches a time of day followed by its zone's label.
func labelled(zone string) *regexp.Regexp {
	return regexp.MustCompile(`\d\d:\d\d[\s\x{00a0}]` + zone)
}

// TestJobGridWordsNumbersAndTimes (issue 17 items 7 and 8): a one-row job
// reads "1 row" and "the 1 change", its times are in the one configured
// zone and labelled, and the marketplace's reason shows its amounts the
// way the grid writes money ("25 499.00", not "25499.00").
func TestJobGridWordsNumbersAndTimes(t *testing.T) {
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	sku := ""
	for _, s := range skus {
		if prices[s] >= 100000 { // at least 1 000.00: the grouping shows
			sku = s
			break
		}
	}
	if sku == "" {
		t.Fatal("no product priced 1 000.00 or more")
	}
	drop := prices[sku] * 5 / 100 // -95 %: beyond the guard, and refused by the marketplace
	csv := fmt.Sprintf("sku,price\n%s,%d.%02d\n", sku, drop/100, drop%100)
	id := jobIDOf(t, upload(t, e, b, "one.csv", []byte(csv), ""))

	p := b.Get("/bulk/jobs/" + id)
	if p.Status != http.StatusOK {
		t.Fatalf("preview: %d", p.Status)
	}
	// The bulk environment's requests are Russian by default (the locale
	// middleware's default); the plural forms follow the language.
	if got := p.Text("[data-testid=count-rows]"); got != "1 строка" {
		t.Errorf("count (ru): %q, want 1 строка", got)
	}
	if got := p.Text("label:has(#confirm-all)"); !strings.Contains(got, "Подтвердить 1 изменение больше") {
		t.Errorf("confirm-all label (ru) %q", got)
	}
	if got := p.Text("#job-facts"); !labelled("МСК").MatchString(got) || strings.Contains(got, "UTC") {
		t.Errorf("facts (ru) %q: times not in the one labelled zone", got)
	}
	if r := b.Post("/settings/language", url.Values{"lang": {"en"}}); r.Status >= 400 {
		t.Fatalf("language switch: %d", r.Status)
	}
	p = b.Get("/bulk/jobs/" + id)
	if got := p.Text("[data-testid=count-rows]"); got != "1 row" {
		t.Errorf("count: %q, want 1 row", got)
	}
	if got := p.Text("label:has(#confirm-all)"); !strings.Contains(got, "Confirm the 1 change beyond") {
		t.Errorf("confirm-all label %q", got)
	}
	if got := p.Text("[data-testid=rows-shown]"); got != "1 of 1 row shown" {
		t.Errorf("rows shown %q", got)
	}
	if got := p.Text("#job-facts"); !labelled("MSK").MatchString(got) || strings.Contains(got, "UTC") {
		t.Errorf("facts %q: times not in the one labelled zone", got)
	}

	form := url.Values{"confirm": {"1"}}
	if r := b.Post("/bulk/jobs/"+id+"/submit", form); r.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", r.Status)
	}
	waitJob(t, e, id, "the end", func(j bulkjobs.Job) bool { return !j.Active() })
	items, _ := e.jobs.Items(t.Context(), id)
	if len(items) != 1 || !rawAmount.MatchString(items[0].Message) {
		t.Fatalf("the marketplace's reason has no raw amount to format: %+v", items)
	}
	res := b.Get("/bulk/jobs/" + id)
	msg := res.Text("[data-testid=row-2] [data-testid=message]")
	if rawAmount.MatchString(msg) || !regexp.MustCompile(`\d{1,3} \d{3}\.\d\d`).MatchString(msg) || !strings.Contains(msg, "90%") {
		t.Errorf("message %q: amounts not formatted, or the reason lost (stored %q)", msg, items[0].Message)
	}
	if got := res.Text("[data-testid=progress-text]"); got != "1 of 1 row answered" {
		t.Errorf("progress %q", got)
	}
	if got := res.Text("#job-facts"); len(labelled("MSK").FindAllString(got, -1)) != 3 {
		t.Errorf("facts %q: uploaded, submitted and finished not all in the labelled zone", got)
	}
}
