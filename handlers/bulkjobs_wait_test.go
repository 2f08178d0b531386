package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// priceCSV raises the first n products by one rouble.
func priceCSV(t *testing.T, e *bulkEnv, n int) []byte {
	t.Helper()
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	var csv strings.Builder
	csv.WriteString("sku,price\n")
	for _, sku := range skus[:n] {
		p := prices[sku] + 100
		fmt.Fprintf(&csv, "%s,%d.%02d\n", sku, p/100, p%100)
	}
	return []byte(csv.String())
}

// The time is in the one configured zone, labelled (issue 17 item 8).
var nextAttempt = regexp.MustCompile(`The marketplace asked us to wait \(429\): next attempt at (\d\d:\d\d:\d\d)[\s\x{00a0}](?:MSK|МСК)\.`)

// waitingShown polls the htmx progress fragment until it shows the 429
// wait, and returns the time of the next attempt it names.
func waitingShown(t *testing.T, e *bulkEnv, id string) time.Time {
	t.Helper()
	b := e.browser()
	b.HTMX = true
	var at time.Time
	waitUntil(t, "the progress to show the 429 wait", func() bool {
		frag := b.Get("/bulk/jobs/" + id + "/progress")
		if frag.Status != http.StatusOK {
			t.Fatalf("progress: %d", frag.Status)
		}
		m := nextAttempt.FindStringSubmatch(frag.Text("[data-testid=progress-waiting]"))
		if m == nil {
			return false
		}
		if !frag.Has("[hx-trigger]") || !frag.Has("#job-cancel") {
			t.Errorf("a waiting job's fragment stops polling or loses its cancel button: %s", frag.Body)
		}
		clock, _ := time.Parse(time.TimeOnly, m[1])
		now := time.Now().In(moscow(t))
		at = time.Date(now.Year(), now.Month(), now.Day(), clock.Hour(), clock.Minute(), clock.Second(), 0, moscow(t))
		if d := at.Sub(now); d < -2*time.Hour {
			at = at.Add(24 * time.Hour) // shown just before midnight
		}
		return true
	})
	return at
}

// TestBulkJobShowsRateLimitWait: while the marketplace answers 429 with
// Retry-After: 2, the progress says so with the time of the next attempt,
// both when the client waits inside a chunk (live state of the runner)
// and when the chunk's retry budget is spent and the job itself waits
// (state "waiting", in the database); afterwards the job completes with
// nothing sent twice.
func TestBulkJobShowsRateLimitWait(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		budget time.Duration
		state  string // job state seen while waiting
	}{
		{"client retries within the chunk", 0, bulkjobs.StateRunning},
		{"job waits after the retry budget", time.Millisecond, bulkjobs.StateWaiting},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{ReadBackDelay: time.Hour, Poll: 20 * time.Millisecond})
			if tc.budget > 0 {
				e.stop()
				e.budget = tc.budget
				e.start()
			}
			b := e.browser()
			id := jobIDOf(t, upload(t, e, b, "wait.csv", priceCSV(t, e, 30), "prices"))
			e.sb.ResetCounters()
			e.sb.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultRateLimit, Times: 2, RetryAfter: "2"})
			before := time.Now()
			if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
				t.Fatalf("submit: %d", p.Status)
			}
			at := waitingShown(t, e, id)
			if at.Before(before.Add(time.Second).Truncate(time.Second)) || at.After(time.Now().Add(5*time.Second)) {
				t.Errorf("next attempt at %s: want about 2 s after %s", at.Format(time.TimeOnly), before.UTC().Format(time.TimeOnly))
			}
			if j, _ := e.jobs.Job(context.Background(), id); j.State != tc.state || !j.Active() {
				t.Errorf("while waiting: job state %q, want %q", j.State, tc.state)
			}
			// The full page shows the same line.
			if page := b.Get("/bulk/jobs/" + id); !nextAttempt.MatchString(page.Text("[data-testid=progress-waiting]")) {
				if j, _ := e.jobs.Job(context.Background(), id); j.Active() && time.Now().Before(at) {
					t.Errorf("job page while waiting: %q", page.Text("#job-progress"))
				}
			}
			j := waitJob(t, e, id, "done", func(j bulkjobs.Job) bool { return j.State == bulkjobs.StateDone })
			if j.Counts.Accepted != 30 {
				t.Errorf("accepted %d, want 30", j.Counts.Accepted)
			}
			// 3 chunks answered, 2 refused before processing: nothing twice.
			if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 5 {
				t.Errorf("set-prices requests %d, want 3 + 2 refused", got)
			}
			page := b.Get("/bulk/jobs/" + id)
			if page.Has("[data-testid=progress-waiting]") {
				t.Errorf("a finished job still shows a wait: %q", page.Text("[data-testid=progress-waiting]"))
			}
		})
	}
}

// TestBulkJobCancelAfterCurrentChunk: cancel lets the chunk in flight
// finish and be recorded, sends nothing after it, and marks the rest
// "not sent: cancelled".
func TestBulkJobCancelAfterCurrentChunk(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{ReadBackDelay: time.Hour})
	b := e.browser()
	id := jobIDOf(t, upload(t, e, b, "cancel.csv", priceCSV(t, e, 100), "prices"))
	e.sb.SetLatency(sandbox.RouteRPCSetPrices, 150*time.Millisecond)
	e.sb.ResetCounters()
	if p := b.Post("/bulk/jobs/"+id+"/submit", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("submit: %d", p.Status)
	}
	waitJob(t, e, id, "two chunks", func(j bulkjobs.Job) bool { return j.NextChunk >= 2 })
	p := b.Post("/bulk/jobs/"+id+"/cancel", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("cancel: %d", p.Status)
	}
	requestedAt := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]
	if page := b.Follow(p); page.Has("#job-cancel") && !page.Has("#job-cancel[disabled]") {
		if j, _ := e.jobs.Job(context.Background(), id); j.Active() {
			t.Error("after cancel, the button still offers to cancel")
		}
	}
	j := waitJob(t, e, id, "cancelled", func(j bulkjobs.Job) bool { return !j.Active() })
	sent := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]
	if j.State != bulkjobs.StateCancelled {
		t.Fatalf("state %s, want cancelled", j.State)
	}
	// At most the chunk in flight when cancel was asked went out after it.
	if sent > requestedAt+1 || sent >= 10 {
		t.Errorf("%d chunks sent, %d when cancel was asked: more than the one in flight", sent, requestedAt)
	}
	if j.NextChunk != sent || j.Counts.Accepted != sent*10 || j.Counts.Unsent != 100-sent*10 {
		t.Errorf("after cancel: next chunk %d, %d requests, %+v", j.NextChunk, sent, j.Counts)
	}
	items, _ := e.jobs.Items(context.Background(), id)
	for _, it := range items {
		if it.State == bulkjobs.ItemUnsent && it.Message.In(i18n.EN, nil) != "not sent: cancelled" {
			t.Fatalf("unsent row message %q", it.Message)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if got := e.sb.Counters().Requests[sandbox.RouteRPCSetPrices]; got != sent {
		t.Errorf("a chunk went out after the job was cancelled (%d → %d)", sent, got)
	}
	page := b.Get("/bulk/jobs/" + id)
	if st := page.Text("[data-testid=progress-state]"); st != "cancelled" {
		t.Errorf("progress state %q", st)
	}
	if !strings.Contains(page.Text("[data-testid=job-note]"), "Cancelled") {
		t.Errorf("job note %q", page.Text("[data-testid=job-note]"))
	}
}
