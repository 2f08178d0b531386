package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// orderNumbers lists the order numbers of the first orders page.
func orderNumbers(t *testing.T, b *testapp.Browser, n int) []string {
	t.Helper()
	p := b.Get("/orders")
	var out []string
	links := p.Doc.Find("#orders-table tbody tr td a")
	for i := 0; i < links.Length() && len(out) < n; i++ {
		if nr := strings.TrimSpace(links.Eq(i).Text()); nr != "" {
			out = append(out, nr)
		}
	}
	if len(out) < n {
		t.Fatalf("%d orders on the first page, want %d", len(out), n)
	}
	return out
}

func resendForm(nr string) url.Values {
	return url.Values{"form_id": {"resend-" + nr}, "orderNr": {nr}, "return": {"/orders/" + nr}}
}

// TestResendShowsWhatWasQueuedAcrossReloads: a resend names the
// notifications queued; the order page says so after a reload, with the
// button disabled until the marketplace is done, and enabled after.
func TestResendShowsWhatWasQueuedAcrossReloads(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	nr := orderNumbers(t, b, 1)[0]
	b.HTMX = true
	p := b.Post("/orders/resend", resendForm(nr))
	b.HTMX = false
	if p.Status != http.StatusOK {
		t.Fatalf("resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
	}
	if got := p.Text("[data-testid=resend-queued]"); !strings.Contains(got, nr) || !strings.Contains(got, "order status changed") || !strings.Contains(got, "item status changed") {
		t.Errorf("queued list %q: want the order and its notification kinds", got)
	}

	// A reload of the order page keeps it, and the button waits.
	d := b.Get("/orders/" + nr)
	status := d.Text("#resend-" + nr + " [data-testid=resend-status]")
	if !strings.Contains(status, "Queued at") || !strings.Contains(status, "order status changed") || !strings.Contains(status, "processing") {
		t.Errorf("order page after reload: %q", status)
	}
	if _, disabled := d.Doc.Find("#resend-" + nr + " button").Attr("disabled"); !disabled {
		t.Error("order page: resend enabled while the marketplace processes")
	}
	if at := d.Doc.Find("#resend-"+nr+" [data-countdown]").AttrOr("data-countdown", ""); at != "60" {
		t.Errorf("countdown %q, want 60", at)
	}
	// The list's row says the same.
	l := b.Get("/orders")
	if _, disabled := l.Doc.Find("#resend-" + nr + " button").Attr("disabled"); !disabled || !strings.Contains(l.Text("#resend-"+nr), "Queued at") {
		t.Errorf("orders list row: %q", l.Text("#resend-"+nr))
	}

	// Once the marketplace is done, the button works again and the page
	// still says what was last queued.
	app.Sandbox.Advance(61 * time.Second)
	d = b.Get("/orders/" + nr)
	if _, disabled := d.Doc.Find("#resend-" + nr + " button").Attr("disabled"); disabled {
		t.Error("resend still disabled after processing")
	}
	if got := d.Text("#resend-" + nr + " [data-testid=resend-status]"); !strings.Contains(got, "Last queued at") {
		t.Errorf("after processing: %q", got)
	}
	if p := b.Post("/orders/resend", resendForm(nr)); p.Status != http.StatusSeeOther {
		t.Errorf("resend after processing: %d", p.Status)
	} else if f := b.Follow(p).Text("#flash-area"); !strings.Contains(f, "Queued") || !strings.Contains(f, nr+": order status changed") {
		t.Errorf("flash without JavaScript: %q", f)
	}
}

// TestResendWaitsForTheMarketplacesTime: when the marketplace takes longer
// than expected and refuses with a time, the button waits until that time,
// not a second.
func TestResendWaitsForTheMarketplacesTime(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ResendProcessing: 5 * time.Minute}})
	b := app.Browser(t)
	b.LoginDemo()
	nr := orderNumbers(t, b, 1)[0]
	b.HTMX = true
	if p := b.Post("/orders/resend", resendForm(nr)); p.Status != http.StatusOK {
		t.Fatalf("resend: %d", p.Status)
	}
	app.Sandbox.Advance(61 * time.Second) // past the dashboard's estimate, inside the marketplace's processing
	p := b.Post("/orders/resend", resendForm(nr))
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("second resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
	}
	if at := p.Doc.Find("[data-countdown]").AttrOr("data-countdown", ""); at != "239" {
		t.Errorf("countdown %q s, want 239 (to the time the marketplace named)", at)
	}
	if _, disabled := p.Doc.Find("button[data-wait]").Attr("disabled"); !disabled {
		t.Error("button enabled before the marketplace's time")
	}
	if got := p.Text("[data-testid=resend-busy]"); !strings.Contains(got, nr) || !strings.Contains(got, "retry at") {
		t.Errorf("busy list %q", got)
	}
}

// TestBulkResendSendsTheFreeOrders: in a bulk resend, an order the
// marketplace is still processing (queued from another session, so this
// one cannot know) is named with its time and the others are queued; a
// second bulk resend right after sends nothing and names all of them.
func TestBulkResendSendsTheFreeOrders(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	nrs := orderNumbers(t, b, 3)
	colleague := app.Browser(t)
	colleague.LoginDemo()
	if p := colleague.Post("/orders/resend", resendForm(nrs[1])); p.Status != http.StatusSeeOther {
		t.Fatalf("the colleague's resend: %d", p.Status)
	}
	app.Sandbox.Advance(10 * time.Second)

	b.HTMX = true
	before := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
	bulk := url.Values{"form_id": {"resend-bulk"}, "orderNr": nrs, "return": {"/orders"}}
	p := b.Post("/orders/resend", bulk)
	if p.Status != http.StatusOK {
		t.Fatalf("bulk resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
	}
	if n := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend] - before; n != 2 {
		t.Errorf("%d resend requests, want 2 (all, refused for the busy one; then the free ones)", n)
	}
	queued, busy := p.Text("[data-testid=resend-queued]"), p.Text("[data-testid=resend-busy]")
	if !strings.Contains(queued, nrs[0]) || !strings.Contains(queued, nrs[2]) || strings.Contains(queued, nrs[1]) {
		t.Errorf("queued %q: want %s and %s only", queued, nrs[0], nrs[2])
	}
	// Queued at the start, processing 60 s: 50 s left at the colleague's order.
	want := app.Sandbox.Now().Add(50 * time.Second).In(moscow(t)).Format("15:04:05") // shown in the configured zone
	if !strings.Contains(busy, nrs[1]) || !strings.Contains(busy, want) {
		t.Errorf("busy %q: want %s named with its time %s", busy, nrs[1], want)
	}
	if !strings.Contains(p.Text("[data-testid=resend-status]"), "Queued 6 notifications for 2 orders") {
		t.Errorf("status %q", p.Text("[data-testid=resend-status]"))
	}
	if _, disabled := p.Doc.Find("button[data-wait]").Attr("disabled"); disabled {
		t.Error("the bulk button is disabled: another selection may go")
	}

	before = app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
	p = b.Post("/orders/resend", bulk)
	if p.Status != http.StatusTooManyRequests || app.Sandbox.Counters().Requests[sandbox.RouteB2BResend] != before {
		t.Errorf("all busy: %d, %d calls", p.Status, app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]-before)
	}
	for _, nr := range nrs {
		if !strings.Contains(p.Text("[data-testid=resend-busy]"), nr) {
			t.Errorf("%s not named busy: %q", nr, p.Text("[data-testid=resend-busy]"))
		}
	}

	// The history has the two resends that reached the marketplace (the
	// colleague's too: same seller and environment), order by order,
	// newest first; the one that sent nothing changed nothing.
	b.HTMX = false
	h := b.Get("/history?kind=resend")
	rows := h.Doc.Find("#history-table tbody tr")
	if rows.Length() != 2 {
		t.Fatalf("%d resend entries, want 2", rows.Length())
	}
	if got := rows.Eq(0).Text(); !strings.Contains(got, nrs[0]) || !strings.Contains(got, nrs[2]) || !strings.Contains(got, "queued") ||
		!strings.Contains(got, "busy, not sent") || !strings.Contains(got, "order status changed") || !strings.Contains(got, "partly done") ||
		!strings.Contains(got, "demo-1001") || !strings.Contains(got, "test · seller 1001") {
		t.Errorf("history of the bulk resend: %q", got)
	}
	if got := rows.Eq(1).Text(); !strings.Contains(got, nrs[1]) || strings.Contains(got, nrs[0]) {
		t.Errorf("history of the colleague's resend: %q", got)
	}
}

// TestBulkResendRefusedWithoutAName: a refusal that names no order is
// answered order by order, within a bound on the calls of one resend.
func TestBulkResendRefusedWithoutAName(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	b.HTMX = true

	t.Run("one busy order among three", func(t *testing.T) {
		nrs := orderNumbers(t, b, 3)
		// The first two requests are refused without a message: the whole
		// selection, then its first order alone.
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BResend, Kind: sandbox.FaultRateLimit, Times: 2})
		before := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
		p := b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "orderNr": nrs, "return": {"/orders"}})
		if p.Status != http.StatusOK {
			t.Fatalf("bulk resend: %d %q", p.Status, p.Text("[data-testid=resend-status]"))
		}
		if n := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend] - before; n != 4 {
			t.Errorf("%d requests, want 4 (all, then one by one)", n)
		}
		queued, busy := p.Text("[data-testid=resend-queued]"), p.Text("[data-testid=resend-busy]")
		if !strings.Contains(busy, nrs[0]) || strings.Contains(queued, nrs[0]) || !strings.Contains(queued, nrs[1]) || !strings.Contains(queued, nrs[2]) {
			t.Errorf("queued %q, busy %q", queued, busy)
		}
	})

	t.Run("a marketplace refusing everything costs at most ten calls", func(t *testing.T) {
		app.Sandbox.Advance(10 * time.Minute)
		nrs := orderNumbers(t, b, 12)
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BResend, Kind: sandbox.FaultRateLimit, Times: -1})
		defer app.Sandbox.ClearFaults()
		before := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend]
		p := b.Post("/orders/resend", url.Values{"form_id": {"resend-bulk"}, "orderNr": nrs, "return": {"/orders"}})
		if p.Status != http.StatusTooManyRequests {
			t.Errorf("status %d, want 429", p.Status)
		}
		if n := app.Sandbox.Counters().Requests[sandbox.RouteB2BResend] - before; n != 10 {
			t.Errorf("%d requests, want 10", n)
		}
		if got := p.Doc.Find("[data-testid=resend-busy] li").Length(); got != 12 {
			t.Errorf("%d orders named, want all 12: %q", got, p.Text("[data-testid=resend-busy]"))
		}
		if got := strings.Count(p.Text("[data-testid=resend-busy]"), "not sent"); got != 3 {
			t.Errorf("%d orders left unsent, want 3", got)
		}
	})

	t.Run("a Retry-After is waited out", func(t *testing.T) {
		nr := orderNumbers(t, b, 13)[12]
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BResend, Kind: sandbox.FaultRateLimit, RetryAfter: "30"})
		p := b.Post("/orders/resend", resendForm(nr))
		if p.Status != http.StatusTooManyRequests {
			t.Fatalf("status %d", p.Status)
		}
		// Without the header the wait would be 1 s; the client measured
		// Retry-After on the wall clock, so allow for a slow machine.
		if sec, _ := strconv.Atoi(p.Doc.Find("[data-countdown]").AttrOr("data-countdown", "")); sec < 2 || sec > 30 {
			t.Errorf("countdown %d s, want the 30 s of Retry-After", sec)
		}
	})
}

// moscow is the zone the test dashboards show times in (Deps.Zone unset:
// format.DefaultZone).
func moscow(t *testing.T) *time.Location {
	t.Helper()
	loc, err := format.LoadZone(format.DefaultZone)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
